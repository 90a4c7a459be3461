// Checkpoints and restarts: a run continued from a checkpoint writes the same files, bit for
// bit, as the run that never stopped; wrong or damaged checkpoints are refused; SIGTERM leaves a
// valid .pvd and a checkpoint to continue from.
#include <doctest/doctest.h>

#include <signal.h>

#include <chrono>
#include <cmath>
#include <fstream>
#include <thread>

#include "config/loader.hpp"
#include "core/error.hpp"
#include "io/vtk_writers.hpp"
#include "run/checkpoint.hpp"
#include "run/run.hpp"
#include "support.hpp"

using fhn::test::contains;

namespace fs = std::filesystem;

namespace {


const char* kBase =
    "name: restart\n"
    "domain: {length: 40, nodes: 81}\n"
    "initial: {v: {type: gaussian, center: 20, width2: 4}}\n"
    "stimulus: [{x_min: 0, x_max: 2, start: 12, duration: 1, amplitude: 0.5}]\n"
    "time: {end: 20, dt: 0.05}\n"
    "output: {every: 1, probes: [10, 20], checkpoint_every: 5}\n";

fhn::Config make(const std::vector<std::string>& extra) {
  std::vector<std::string> overrides = extra;
  if (!fhn::vtk_compiled()) overrides.insert(overrides.end(), {"output.vtk=false", "output.spacetime=false"});
  return fhn::test::config_from(kBase, overrides);
}

void run(const fhn::Config& c, const fs::path& dir, const fs::path& restart = {}) {
  fhn::RunOptions options;
  options.output_dir = dir;
  options.quiet = true;
  options.restart = restart;
  fhn::run_simulation(c, options);
}

// Every output file a restarted run continues, compared byte for byte.
void check_same_outputs(const fs::path& a, const fs::path& b, const std::string& name, bool newton) {
  std::vector<std::string> files{"probes.csv"};
  if (newton) files.push_back("newton.csv");
  if (fs::exists(a / "grid.csv")) files.push_back("grid.csv");
  if (fhn::vtk_compiled()) {
    files.push_back(name + ".pvd");
    files.push_back("spacetime.vti");
    for (int i = 0; i <= 20; ++i) {
      char file[64];
      std::snprintf(file, sizeof file, "frames/%s_%06d.vtu", name.c_str(), i);
      files.emplace_back(file);
    }
  }
  for (const std::string& file : files) {
    CAPTURE(file);
    REQUIRE(fs::exists(b / file));
    CHECK(fhn::test::read_text(a / file) == fhn::test::read_text(b / file));
  }
}

void check_restart_equivalence(const std::vector<std::string>& scheme, bool newton) {
  fhn::test::TempDir dir;
  // A: the run that never stops.
  run(make(scheme), dir / "a");
  // B: stops at t = 13 (checkpoints at t = 5 and 10), then continues from t = 10 to t = 20.
  auto first = scheme;
  first.push_back("time.end=13");
  run(make(first), dir / "b");
  const fs::path checkpoint = fhn::checkpoint_path(dir / "b", "restart", 200);
  REQUIRE(fs::exists(checkpoint));
  run(make(scheme), dir / "b", checkpoint);
  check_same_outputs(dir / "a", dir / "b", "restart", newton);
  if (fhn::vtk_compiled()) {
    // No frame listed twice.
    const std::string pvd = fhn::test::read_text(dir / "b" / "restart.pvd");
    CHECK(std::count(pvd.begin(), pvd.end(), '\n') == 21 + 5);
  }
}

}  // namespace

TEST_CASE("restart: explicit") { check_restart_equivalence({}, false); }

TEST_CASE("restart: Crank-Nicolson with the trapezoidal w update") {
  check_restart_equivalence({"scheme.type=crank_nicolson", "output.newton_log=true"}, true);
}

TEST_CASE("restart: Crank-Nicolson with the leapfrog w update (its previous w is restored)") {
  check_restart_equivalence({"scheme.type=crank_nicolson", "scheme.crank_nicolson.w_update=leapfrog",
                             "output.newton_log=true"},
                            true);
}

TEST_CASE("restart: adaptive grid") {
  check_restart_equivalence({"scheme.type=adaptive_explicit", "scheme.adaptive.regrid_every=7"}, false);
}

TEST_CASE("the adaptive tolerance's default leaves the other schemes' digests as they were") {
  // Issue 24 lowered scheme.adaptive.tolerance's default from 1e-3 to 3e-4. Schemes other than
  // adaptive_explicit do not read it: their digest, written into every checkpoint, is still the
  // one computed with 1e-3, so checkpoints written before resume and new ones are the same bytes.
  for (const char* scheme : {"scheme.type=explicit", "scheme.type=crank_nicolson"}) {
    CAPTURE(scheme);
    CHECK(fhn::config_digest(make({scheme})) ==
          fhn::config_digest(make({scheme, "scheme.adaptive.tolerance=1.0e-3"})));
    CHECK(fhn::config_digest(make({scheme})) !=
          fhn::config_digest(make({scheme, "scheme.adaptive.tolerance=2.0e-3"})));
  }
  // On the adaptive grid the default is what the run computes with: the digest follows it.
  CHECK(fhn::config_digest(make({"scheme.type=adaptive_explicit"})) !=
        fhn::config_digest(make({"scheme.type=adaptive_explicit", "scheme.adaptive.tolerance=1.0e-3"})));
}

TEST_CASE("a checkpoint from another config or a damaged one is refused") {
  fhn::test::TempDir dir;
  run(make({"time.end=6"}), dir / "a");
  const fs::path checkpoint = fhn::checkpoint_path(dir / "a", "restart", 100);
  REQUIRE(fs::exists(checkpoint));

  // Another config: refused, and nothing in the folder touched.
  const std::string pvd_before = fhn::vtk_compiled() ? fhn::test::read_text(dir / "a" / "restart.pvd") : "";
  CHECK_THROWS_WITH_AS(run(make({"model.epsilon=0.02"}), dir / "a", checkpoint),
                       doctest::Contains("written by a run with a different configuration"), fhn::ConfigError);
  if (fhn::vtk_compiled()) CHECK(fhn::test::read_text(dir / "a" / "restart.pvd") == pvd_before);
  // Name, end and output may change.
  CHECK_NOTHROW(run(make({"time.end=8", "output.probes=[5]"}), dir / "a", checkpoint));

  // A flipped byte, a truncated file, something else entirely.
  std::string bytes = fhn::test::read_text(checkpoint);
  std::string flipped = bytes;
  flipped[flipped.size() / 2] ^= 0x10;
  fhn::test::write_text(dir / "flipped.chk", flipped);
  CHECK_THROWS_WITH_AS(fhn::read_checkpoint(dir / "flipped.chk"), doctest::Contains("checksum mismatch"), fhn::IoError);
  fhn::test::write_text(dir / "short.chk", bytes.substr(0, bytes.size() - 9));
  CHECK_THROWS_WITH_AS(fhn::read_checkpoint(dir / "short.chk"), doctest::Contains("truncated"), fhn::IoError);
  fhn::test::write_text(dir / "other.chk", "name: not a checkpoint\n");
  CHECK_THROWS_WITH_AS(fhn::read_checkpoint(dir / "other.chk"), doctest::Contains("not an fhnsim checkpoint"),
                       fhn::IoError);
  const auto cli = fhn::test::run_cli({"run", fhn::test::write_text(dir / "c.yaml", kBase), "--quiet", "--output",
                                       (dir / "a").string(), "--restart", (dir / "flipped.chk").string(),
                                       "--set", "output.vtk=false", "--set", "output.spacetime=false"});
  CHECK(cli.code == 4);
  CHECK(contains(cli.err, "corrupted checkpoint"));

  // A checkpoint at or after time.end.
  CHECK_THROWS_WITH_AS(run(make({"time.end=5"}), dir / "a", checkpoint), doctest::Contains("raise time.end"),
                       fhn::ConfigError);
}

TEST_CASE("SIGTERM stops a run cleanly: a valid .pvd, a checkpoint, exit code 130, and it resumes") {
  fhn::test::TempDir dir;
  // About half a second of computing per time unit: long enough to be stopped mid-way.
  const std::string config = fhn::test::write_text(dir / "long.yaml",
                                                   "name: long\n"
                                                   "domain: {length: 200, nodes: 20001}\n"
                                                   "time: {end: 200, dt: 0.00004}\n"
                                                   "output: {every: 1}\n");
  std::vector<std::string> args{"run", config, "--quiet", "--output", (dir / "out").string()};
  if (!fhn::vtk_compiled()) args.insert(args.end(), {"--set", "output.vtk=false", "--set", "output.spacetime=false"});
  const fs::path probes = dir / "out" / "probes.csv";
  auto rows = [&] {
    const std::string text = fs::exists(probes) ? fhn::test::read_text(probes) : "";
    return std::count(text.begin(), text.end(), '\n');
  };

  const int child = fhn::test::spawn_cli(args, dir / "child_err.txt");
  for (int i = 0; i < 600 && rows() < 3; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  kill(child, SIGTERM);
  CHECK(fhn::test::wait_exit_code(child) == 130);
  const std::string err = fhn::test::read_text(dir / "child_err.txt");
  CHECK(contains(err, "fhn: interrupted at t = "));
  CHECK(contains(err, "continue with: fhn run"));
  CHECK(contains(fhn::test::read_text(dir / "out" / "summary.json"), "\"status\": \"interrupted\""));
  if (fhn::vtk_compiled()) CHECK(contains(fhn::test::read_text(dir / "out" / "long.pvd"), "</VTKFile>"));

  // The checkpoint it names continues the run (here to one time unit past the interruption).
  const std::size_t at = err.find("--restart ");
  REQUIRE(at != std::string::npos);
  std::string checkpoint = err.substr(at + 10);
  checkpoint = checkpoint.substr(0, checkpoint.find(' '));
  REQUIRE(fs::exists(checkpoint));
  const double stopped = std::stod(err.substr(err.find("at t = ") + 7));
  const int end = static_cast<int>(std::ceil(stopped)) + 1;
  auto resume = args;
  resume.insert(resume.end(), {"--restart", checkpoint, "--set", "time.end=" + std::to_string(end)});
  const auto r = fhn::test::run_cli(resume);
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  CHECK(rows() == end + 2);  // header + t = 0, 1, ..., end: each once
}
