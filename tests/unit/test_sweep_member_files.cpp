// A sweep member's own files (output.members) measure every step, as `fhn run` of its config
// does, byte for byte fhn run's of members/<m>/config.yaml, with forward Euler and the split
// Crank-Nicolson scheme and frames every 10 steps: activation.vti from the times the batch records
// inside every step (not read off the frames); probes.csv at output.probes_every (not at the
// frames), restitution.csv and cv.csv from its samples.
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
// (every 0.1 at dt = 0.01), the probes every 3.
const char* kSheet = R"(
name: member_files
domain: {length: [20, 8], dx: 0.5}
initial: {v: {type: rectangle, x_min: 0, x_max: 1.5, value: 1}}
time: {end: 45, dt: 0.01}
output:
  every: 0.1
  probes_every: 0.03
  vtk: false
  probes: [[4.3, 4.1], [9.7, 2.2], [16, 6]]
)";

// The files compared: activation.vti (a VTK file) where VTK is compiled.
std::vector<std::string> compared_files() {
  std::vector<std::string> files{"probes.csv", "restitution.csv", "cv.csv"};
  if (fhn::vtk_compiled()) files.push_back("activation.vti");
  return files;
}

// The sweep over model.a of the sheet (`scheme`: --set overrides; the activation map with its
// last times where VTK is compiled), members 0 and 2 written, into dir/out; then each of them run
// by fhn run from its members/<m>/config.yaml into dir/run<m>; every file of compared_files()
// the same, byte for byte.
void check_members_are_their_runs(const std::vector<std::string>& scheme) {
  fhn::test::TempDir dir;
  fhn::test::write_text(dir / "sheet.yaml", kSheet);
  std::vector<std::string> overrides = scheme;
  if (fhn::vtk_compiled())
    overrides.insert(overrides.end(), {"output.activation.enabled=true", "output.activation.last=true"});
  const fhn::SweepResult result = fhn::test::sweep_quietly(
      dir.path(),
      "base: sheet.yaml\naxes: [{key: model.a, values: [0.08, 0.1, 0.13]}]\noutput: {members: [0, 2]}\n",
      "out", overrides);
  REQUIRE(result.failed == 0);
  for (const char* m : {"0", "2"}) {
    CAPTURE(m);
    const fs::path member = dir / "out" / "members" / m;
    const fs::path single = dir / (std::string("run") + m);
    fhn::RunOptions run;
    run.quiet = true;
    run.output_dir = single;
    const fhn::Config c = fhn::load_config((member / "config.yaml").string(), {});
    fhn::run_simulation(c, run);
    for (const std::string& file : compared_files()) {
      CAPTURE(file);
      const std::string text = fhn::test::read_text(single / file);
      CHECK(text.size() > 200);
      CHECK(fhn::test::read_text(member / file) == text);
    }
    // A row (below the header) per probe sample: at every multiple of probes_every from the
    // start and at the end, three to each frame and more.
    const fhn::index_t k = c.output.probes_every_steps;
    CHECK(c.output.every_steps > 3 * k);
    CHECK(static_cast<fhn::index_t>(fhn::test::read_csv(member / "probes.csv").size()) ==
          1 + c.time.steps / k + 1 + (c.time.steps % k != 0 ? 1 : 0));
    // The wave passed every probe: a beat each, and the speed between consecutive probes.
    CHECK(fhn::test::read_csv(member / "restitution.csv").size() == 1 + 3);
    CHECK(fhn::test::read_csv(member / "cv.csv").size() == 1 + 2);
  }
}

}  // namespace

TEST_CASE("sweep member, explicit: its probes, restitution and activation map are its fhn run's, "
          "byte for byte") {
  check_members_are_their_runs({});
}

TEST_CASE("sweep member, ADI: its probes, restitution and activation map are its fhn run's, "
          "byte for byte") {
  check_members_are_their_runs({"scheme.type=crank_nicolson", "time.dt=0.04", "output.every=0.4",
                                "output.probes_every=0.12"});
}
