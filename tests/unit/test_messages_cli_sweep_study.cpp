// What the command line, a sweep and a study say when they refuse something: the unknown
// command with the known ones, a sweep over a base it cannot take named at the sweep file and
// the base's key, a study's own values named at the study's keys (never as a --set no one typed).
#include <doctest/doctest.h>

#include "support.hpp"

using fhn::test::contains;
using fhn::test::run_cli;
using fhn::test::TempDir;
using fhn::test::write_text;

namespace {
// The small sheet.
const char* kSheet =
    "name: sheet\n"
    "model: {a: 0.01, epsilon: 0.01, gamma: 2.0}\n"
    "domain: {length: [20, 20], dx: 0.5}\n"
    "time: {end: 1, dt: 0.05}\n"
    "output: {every: 0.5, vtk: false, spacetime: false}\n";
}  // namespace

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

TEST_CASE("a sweep over a base with tissue: names the sweep, the base's key and line, and what sweeps take") {
  TempDir dir;
  write_text(dir / "sheet.yaml",
             std::string(kSheet) +
                 "tissue:\n  - {shape: disc, center: [3, 3], radius: 2}\n");
  const std::string sweep = write_text(
      dir / "s.yaml", "base: sheet.yaml\naxes: [{key: model.a, values: [0.01, 0.02]}]\n");
  const auto r = run_cli({"sweep", sweep, "--output", (dir / "o").string()});
  CHECK(r.code == 2);
  CHECK(contains(r.err, sweep + ": " + (dir / "sheet.yaml").string() + ":7:3: tissue: the base config has tissue:"));
  CHECK(contains(r.err, "a sweep does not take tissue:, fields:, anisotropy: or boxes"));
  // It recommends no combination that is refused: no "not supported by explicit on the cpu".
  CHECK(!contains(r.err, "not supported by"));
  CHECK(!std::filesystem::exists(dir / "o" / "sweep.csv"));
  // fields: and anisotropy: likewise, each named by its own key.
  write_text(dir / "sheet.yaml",
             std::string(kSheet) + "anisotropy: {longitudinal: 1, transverse: 0.5}\n");
  CHECK(contains(run_cli({"sweep", sweep}).err,
                 (dir / "sheet.yaml").string() + ":6:13: anisotropy: the base config has anisotropy:"));
}

TEST_CASE("a work-precision study's dt and dx are named at the study's keys, not as --set") {
  TempDir dir;
  write_text(dir / "cable.yaml",
             "name: cable\nmodel: {a: 0.1, epsilon: 0.01, gamma: 2.0}\n"
             "domain: {length: 20, dx: 0.5}\ntime: {end: 1, dt: 0.05}\n"
             "output: {every: 0.5, vtk: false, spacetime: false}\n");
  // dt = 0.5 is beyond forward Euler's limit dx^2 / (2 D) = 0.125: the config refuses it.
  const std::string study = write_text(
      dir / "wp.yaml",
      "study: work_precision\nbase: cable.yaml\nquantity: field_rmse\n"
      "reference: {dt: 0.01, set: {scheme.type: crank_nicolson}}\n"
      "methods:\n"
      "  - {label: cn, set: {scheme.type: crank_nicolson}, dt: [0.1]}\n"
      "  - {label: explicit, set: {scheme.type: explicit}, dt: [0.05, 0.5]}\n");
  const auto r = run_cli({"converge", study, "--output", (dir / "o").string()});
  CHECK(r.code == 2);
  CHECK(contains(r.err, study + ":7:57 (methods[1].dt): time.dt = 0.5 exceeds the explicit"));
  CHECK(!contains(r.err, "--set"));
  // A set: key of the study is named at its place too.
  write_text(dir / "wp.yaml",
             "study: work_precision\nbase: cable.yaml\nquantity: field_rmse\n"
             "set: {time.end: -1}\nreference: {dt: 0.01}\n"
             "methods: [{label: e, dt: [0.05]}]\n");
  const auto bad_set = run_cli({"converge", study, "--output", (dir / "o").string()});
  CHECK(bad_set.code == 2);
  CHECK(contains(bad_set.err, study + ":4:17 (set.time.end): time.end"));
  CHECK(!contains(bad_set.err, "--set"));
}
