// A sweep member's own files (output.members) measure every step, as `fhn run` of its config
// does: activation.vti from the times the batch records inside every step (not read off frames
// every 10 steps), byte for byte fhn run's of members/<m>/config.yaml, with forward Euler and the
// split Crank-Nicolson scheme.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "config/loader.hpp"
#include "io/vtk_writers.hpp"
#include "run/run.hpp"
#include "support.hpp"

namespace fs = std::filesystem;

namespace {

// A planar wave across a sheet of the cubic medium, started at the left; frames every 10 steps
// (every 0.1 at dt = 0.01), the activation map with its last times.
const char* kSheet = R"(
name: member_files
domain: {length: [20, 8], dx: 0.5}
initial: {v: {type: rectangle, x_min: 0, x_max: 1.5, value: 1}}
time: {end: 20, dt: 0.01}
output:
  every: 0.1
  vtk: false
  probes: [[4.3, 4.1], [9.7, 2.2], [16, 6]]
  activation: {enabled: true, last: true}
)";

// The sweep over model.a of the sheet (`scheme`: --set overrides), members 0 and 2 written, into
// dir/out; then each of them run by fhn run from its members/<m>/config.yaml into dir/run<m>.
void sweep_then_runs(const fhn::test::TempDir& dir, const std::vector<std::string>& scheme) {
  fhn::test::write_text(dir / "sheet.yaml", kSheet);
  const fhn::SweepResult result = fhn::test::sweep_quietly(
      dir.path(),
      "base: sheet.yaml\naxes: [{key: model.a, values: [0.08, 0.1, 0.13]}]\noutput: {members: [0, 2]}\n",
      "out", scheme);
  REQUIRE(result.failed == 0);
  for (const char* m : {"0", "2"}) {
    fhn::RunOptions run;
    run.quiet = true;
    run.output_dir = dir / (std::string("run") + m);
    fhn::run_simulation(
        fhn::load_config((dir / "out" / "members" / m / "config.yaml").string(), {}), run);
  }
}

void check_activation_is_the_runs(const fhn::test::TempDir& dir) {
  for (const char* m : {"0", "2"}) {
    CAPTURE(m);
    const std::string run = fhn::test::read_text(dir / (std::string("run") + m) / "activation.vti");
    CHECK(run.size() > 1000);
    CHECK(fhn::test::read_text(dir / "out" / "members" / m / "activation.vti") == run);
  }
}

}  // namespace

// activation.vti is a VTK file: skipped (not passed) in a build without VTK.
TEST_CASE("sweep member, explicit: activation.vti is its fhn run's, byte for byte" *
          doctest::skip(!fhn::vtk_compiled())) {
  fhn::test::TempDir dir;
  sweep_then_runs(dir, {});
  check_activation_is_the_runs(dir);
}

TEST_CASE("sweep member, ADI: activation.vti is its fhn run's, byte for byte" *
          doctest::skip(!fhn::vtk_compiled())) {
  fhn::test::TempDir dir;
  sweep_then_runs(dir, {"scheme.type=crank_nicolson", "time.dt=0.04", "output.every=0.4"});
  check_activation_is_the_runs(dir);
}
