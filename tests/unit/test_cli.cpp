// The command line: exit codes (docs/ARCHITECTURE.md section 5) and what the user reads.
#include <doctest/doctest.h>

#include "core/build_info.hpp"
#include "io/vtk_writers.hpp"
#include "support.hpp"

using fhn::test::contains;

using fhn::test::run_cli;
using fhn::test::TempDir;
using fhn::test::write_text;

namespace {
// VTK output off where the build has none, so these tests run on every build.
std::vector<std::string> with_build_outputs(std::vector<std::string> args) {
  if (!fhn::vtk_compiled()) {
    args.insert(args.end(), {"--set", "output.vtk=false", "--set", "output.spacetime=false"});
  }
  return args;
}
const char* kSmall =
    "name: small\n"
    "domain: {length: 20, nodes: 41}\n"
    "time: {end: 2, dt: 0.1}\n"
    "output: {every: 0.5, probes: [10]}\n";
}  // namespace

TEST_CASE("fhn without a subcommand is a usage error") {
  const auto r = run_cli({});
  CHECK(r.code == 2);
  CHECK(contains(r.err, "A subcommand is required"));
}

TEST_CASE("fhn --version and fhn info") {
  const auto version = run_cli({"--version"});
  CHECK(version.code == 0);
  CHECK(contains(version.out, "fhnsim 0.1.0"));
  const auto info = run_cli({"info"});
  CHECK(info.code == 0);
  CHECK(contains(info.out, "CUDA:"));
  CHECK(contains(info.out, "VTK output:"));
  CHECK(contains(info.out, "CUDA devices:"));
}

TEST_CASE("fhn validate reports config errors with exit code 2") {
  TempDir dir;
  const std::string bad = write_text(dir / "bad.yaml", "model:\n  gama: 2\n");
  const auto r = run_cli({"validate", bad});
  CHECK(r.code == 2);
  CHECK(contains(r.err, "bad.yaml:2:3: unknown key 'model.gama'; did you mean 'gamma'?"));

  const auto missing = run_cli({"validate", (dir / "nope.yaml").string()});
  CHECK(missing.code == 2);
  CHECK(contains(missing.err, "nope.yaml: cannot open config file"));

  const std::string good = write_text(dir / "good.yaml", kSmall);
  const auto ok = run_cli(with_build_outputs({"validate", good}));
  CHECK(ok.code == 0);
  CHECK(contains(ok.out, "small: explicit on cpu, 41 nodes, dx = 0.5, length = 20, dt = 0.1, 20 steps to t = 2, 5 frames"));

  const auto unstable = run_cli(with_build_outputs({"validate", good, "--set", "time.dt=0.2"}));
  CHECK(unstable.code == 2);
  CHECK(contains(unstable.err, "--set time.dt=0.2: time.dt = 0.2 exceeds the explicit stability limit"));

  const auto unknown_option = run_cli({"validate", good, "--frobnicate"});
  CHECK(unknown_option.code == 2);
}

TEST_CASE("fhn run: an output folder that cannot be created is exit code 4 before any step") {
  TempDir dir;
  const std::string config = write_text(dir / "small.yaml", kSmall);
  write_text(dir / "blocker", "a file where a folder should go");
  const auto r = run_cli(with_build_outputs({"run", config, "--quiet", "--output", (dir / "blocker" / "out").string()}));
  CHECK(r.code == 4);
  CHECK(contains(r.err, "cannot create the output folder"));
}

TEST_CASE("fhn run: a blow-up stops with exit code 3, where and when, and valid output") {
  TempDir dir;
  const std::string config =
      write_text(dir / "blowup.yaml", std::string(kSmall) + "initial: {v: {type: constant, value: 100}}\n");
  const auto out = dir / "out";
  const auto r = run_cli(with_build_outputs({"run", config, "--quiet", "--output", out.string()}));
  CHECK(r.code == 3);
  CHECK(contains(r.err, "the solution stopped being finite"));
  CHECK(contains(r.err, "appeared between t = 0 and t = 0.5"));
  CHECK(contains(r.err, "Hint: time.dt = 0.1 may be too large"));
  const std::string summary = fhn::test::read_text(out / "summary.json");
  CHECK(contains(summary, "\"status\": \"numerical_failure\""));
  if (fhn::vtk_compiled()) {
    const std::string pvd = fhn::test::read_text(out / "small.pvd");
    CHECK(contains(pvd, "small_000000.vtu"));  // the finite frame at t = 0 survives
    CHECK(contains(pvd, "</VTKFile>"));
  }
}

TEST_CASE("fhn run: a successful run says where the output is") {
  TempDir dir;
  const std::string config = write_text(dir / "small.yaml", kSmall);
  const auto r = run_cli(with_build_outputs({"run", config, "--quiet", "--output", (dir / "out").string()}));
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  CHECK(r.out.empty());  // --quiet
  const auto loud = run_cli(with_build_outputs({"run", config, "--output", (dir / "out").string()}));
  CHECK(loud.code == 0);
  CHECK(contains(loud.out, "20 steps, 5 frames"));
}

TEST_CASE("fhn run: scheme.backend cuda without a usable GPU is exit code 5 with the reason") {
  std::string why;
  if (!fhn::cuda_devices(&why).empty()) return;  // a GPU is visible: tests/gpu covers this case
  TempDir dir;
  const std::string config = write_text(dir / "small.yaml", kSmall);
  const auto r = run_cli(with_build_outputs(
      {"run", config, "--quiet", "--output", (dir / "out").string(), "--set", "scheme.backend=cuda"}));
  CHECK(r.code == 5);
  if (fhn::cuda_compiled())
    CHECK(contains(r.err, "scheme.backend: cuda needs a CUDA device, and none is usable"));
  else
    CHECK(contains(r.err, "scheme.backend: cuda is not compiled into this build"));
}
