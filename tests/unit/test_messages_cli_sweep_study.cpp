// What the command line, a sweep and a study say when they refuse something: the unknown
// command with the known ones, a sweep over a base it cannot take named at the sweep file and
// the base's key, a study's own values named at the study's keys (never as a --set no one typed).
#include <doctest/doctest.h>

#include "support.hpp"

using fhn::test::contains;
using fhn::test::run_cli;

TEST_CASE("fhn runn x names the unknown command, the known ones and the close one") {
  const auto r = run_cli({"runn", "x"});
  CHECK(r.code == 2);
  CHECK(contains(r.err, "unknown command 'runn'"));
  CHECK(contains(r.err, "the commands are: run, validate, converge, sweep, bench, info"));
  CHECK(contains(r.err, "did you mean 'run'?"));
  CHECK(!contains(r.err, "A subcommand is required"));
  // Nothing close: the list without a guess; a known command still parses as before.
  const auto far = run_cli({"frobnicate"});
  CHECK(far.code == 2);
  CHECK(contains(far.err, "unknown command 'frobnicate'; the commands are: run,"));
  CHECK(!contains(far.err, "did you mean"));
  CHECK(contains(run_cli({"validat", "c.yaml"}).err, "did you mean 'validate'?"));
  CHECK(contains(run_cli({"run"}).err, "config is required"));
}
