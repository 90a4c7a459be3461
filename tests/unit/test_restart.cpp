// Checkpoints and restarts: a run continued from a checkpoint writes the same files, bit for
// bit, as the run that never stopped; wrong or damaged checkpoints are refused; SIGTERM leaves a
// valid .pvd and a checkpoint to continue from.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <functional>
#include <map>
#include <sstream>
#include <cmath>
#include <fstream>

#include "config/loader.hpp"
#include "core/error.hpp"
#include "io/vtk_writers.hpp"
#include "io/csv_resume.hpp"
#include "run/checkpoint.hpp"
#include "run/restart.hpp"
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
  fhn::test::run_config(c, dir, restart);
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
  // summary.json and run.log count the whole run, and the part after the restart apart.
  const std::string summary = fhn::test::read_text(dir / "b" / "summary.json");
  CHECK(contains(summary, "\"steps\": 400,"));
  CHECK(contains(summary, "\"frames\": 21,"));
  CHECK(contains(summary, "\"t_from\":10,\"steps\":200,\"frames\":11,"));
  CHECK(contains(fhn::test::read_text(dir / "b" / "run.log"),
                 "done: 400 steps, 21 frames in all (this segment from t = 10: 200 steps, 11 frames)"));
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
  run(make({"time.end=6"}), dir / "a");  // its stimulus (t = 12) acts only in the continuation
  const fs::path checkpoint = fhn::checkpoint_path(dir / "a", "restart", 100);
  REQUIRE(fs::exists(checkpoint));

  // Another config: refused, and nothing in the folder touched.
  const std::string pvd_before = fhn::vtk_compiled() ? fhn::test::read_text(dir / "a" / "restart.pvd") : "";
  CHECK_THROWS_WITH_AS(run(make({"model.epsilon=0.02"}), dir / "a", checkpoint),
                       doctest::Contains("written by a run with a different configuration"), fhn::ConfigError);
  if (fhn::vtk_compiled()) CHECK(fhn::test::read_text(dir / "a" / "restart.pvd") == pvd_before);
  // Name, end and output may change, but not the probes of a probes.csv it continues.
  CHECK_THROWS_WITH_AS(run(make({"time.end=8", "output.probes=[5]"}), dir / "a", checkpoint),
                       doctest::Contains("probes.csv: its columns (t,v@10,w@10,v@20,w@20) are not this "
                                         "run's (t,v@5,w@5): output.probes changed since the checkpoint"),
                       fhn::ConfigError);
  CHECK_NOTHROW(run(make({"time.end=8", "output.checkpoint_every=2"}), dir / "a", checkpoint));

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
  // Another format version is named; a payload above the config's bound is refused unread.
  std::string newer = bytes;
  newer[6] = '2';
  fhn::test::write_text(dir / "newer.chk", newer);
  CHECK_THROWS_WITH_AS(fhn::read_checkpoint(dir / "newer.chk"),
                       doctest::Contains("checkpoint format version 2; this build of fhnsim reads version 1"),
                       fhn::IoError);
  CHECK_THROWS_WITH_AS(fhn::read_checkpoint(checkpoint, 1000),
                       doctest::Contains("more than the 1000 a checkpoint of this config can hold"),
                       fhn::IoError);
  CHECK(fhn::checkpoint_payload_limit(make({})) == 8 * (8 * 81 + 8 * 402) + (1 << 20));
  // Not a regular file: refused before a byte is read (/dev/zero never ends, a folder throws
  // from the stream library).
  CHECK_THROWS_WITH_AS(fhn::read_checkpoint(dir.path()), doctest::Contains("not a checkpoint file (a directory)"),
                       fhn::IoError);
  for (const char* device : {"/dev/zero", "/dev/urandom"}) {
    CAPTURE(device);
    const auto r = fhn::test::run_cli({"run", fhn::test::write_text(dir / "d.yaml", kBase), "--quiet",
                                       "--output", (dir / "d").string(), "--restart", device, "--set",
                                       "output.vtk=false", "--set", "output.spacetime=false"});
    CHECK(r.code == 4);
    CHECK(contains(r.err, std::string(device) + ": not a checkpoint file (not a regular file)"));
  }
  const auto cli = fhn::test::run_cli({"run", fhn::test::write_text(dir / "c.yaml", kBase), "--quiet", "--output",
                                       (dir / "a").string(), "--restart", (dir / "flipped.chk").string(),
                                       "--set", "output.vtk=false", "--set", "output.spacetime=false"});
  CHECK(cli.code == 4);
  CHECK(contains(cli.err, "corrupted checkpoint"));

  // A checkpoint at or after time.end.
  CHECK_THROWS_WITH_AS(run(make({"time.end=5"}), dir / "a", checkpoint),
                       doctest::Contains("raise time.end"),
                       fhn::ConfigError);
}

TEST_CASE("SIGTERM stops a run cleanly: a valid .pvd, a checkpoint, exit code 130, and it resumes") {
  fhn::test::TempDir dir;
  const auto args = fhn::test::slow_run_args(dir.path(), "long", 200, true);
  const fs::path probes = dir / "out" / "probes.csv";
  auto rows = [&] {
    const std::string text = fs::exists(probes) ? fhn::test::read_text(probes) : "";
    return std::count(text.begin(), text.end(), '\n');
  };

  const int child = fhn::test::spawn_cli(args, dir / "child_err.txt");
  fhn::test::wait_until([&] { return rows() >= 3; }, 600);
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

namespace {

// Every file under `dir` and its bytes: a restart refused must leave them all as they were.
std::map<std::string, std::string> folder_bytes(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    if (entry.is_regular_file())
      files[fs::relative(entry.path(), dir).string()] = fhn::test::read_text(entry.path());
  return files;
}

// A run stopped at t = 13 (checkpoints at t = 5 and 10) in dir / name.
fs::path stopped_run(const fhn::test::TempDir& dir, const std::string& name) {
  run(make({"time.end=13"}), dir / name);
  return fhn::checkpoint_path(dir / name, "restart", 200);
}

// Restarting `name` from t = 10 throws IoError with `message`, and the folder is unchanged.
void check_refused(const fhn::test::TempDir& dir, const std::string& name, const std::string& message) {
  const auto before = folder_bytes(dir / name);
  CHECK_THROWS_WITH_AS(run(make({}), dir / name, fhn::checkpoint_path(dir / name, "restart", 200)),
                       doctest::Contains(message.c_str()), fhn::IoError);
  CHECK(folder_bytes(dir / name) == before);
}

}  // namespace

TEST_CASE("a restart checks the rows it continues and refuses a gap before touching anything") {
  fhn::test::TempDir dir;
  const fs::path checkpoint = stopped_run(dir, "b");
  // probes.csv cut after t = 7: rows for t = 8 and 9 would be missing.
  const std::string probes = fhn::test::read_text(dir / "b" / "probes.csv");
  std::size_t cut = 0;
  for (int line = 0; line < 9; ++line) cut = probes.find('\n', cut) + 1;
  fhn::test::write_text(dir / "b" / "probes.csv", probes.substr(0, cut));
  check_refused(dir, "b",
                "probes.csv: it holds 8 rows before the checkpoint's t = 10 where the run wrote 10 (one "
                "per sample); its rows end at t = 7; the restart cannot continue it (nothing was changed)");
  const auto cli = fhn::test::run_cli({"run", fhn::test::write_text(dir / "c.yaml", kBase), "--quiet", "--output",
                                       (dir / "b").string(), "--restart", checkpoint.string(), "--set",
                                       "output.vtk=false", "--set", "output.spacetime=false"});
  CHECK(cli.code == 4);
  CHECK(contains(cli.err, "probes.csv: it holds 8 rows before"));
  // Another output.every: the rows no longer fall on the frames.
  fhn::test::write_text(dir / "b" / "probes.csv", probes);
  const auto before = folder_bytes(dir / "b");
  CHECK_THROWS_WITH_AS(run(make({"output.every=2"}), dir / "b", checkpoint),
                       doctest::Contains("row 2 is at t = 1 where this run's sample 1 is at t = 2"), fhn::IoError);
  CHECK(folder_bytes(dir / "b") == before);
}

// Frames are VTK files: skipped (not passed) in a build without VTK.
TEST_CASE("a restart rebuilds a damaged .pvd from the frames and refuses missing frames" *
          doctest::skip(!fhn::vtk_compiled())) {
  fhn::test::TempDir dir;
  run(make({}), dir / "a");
  const std::string whole = fhn::test::read_text(dir / "a" / "restart.pvd");
  for (const std::string damage : {"garbage", "prefix", "missing"}) {
    CAPTURE(damage);
    const fs::path checkpoint = stopped_run(dir, damage);
    const fs::path pvd = dir / damage / "restart.pvd";
    if (damage == "garbage") fhn::test::write_text(pvd, "garbage\n");
    if (damage == "prefix") {  // the head and the first 3 frames, cut off by hand
      const std::string text = fhn::test::read_text(pvd);
      std::size_t cut = 0;
      for (int line = 0; line < 6; ++line) cut = text.find('\n', cut) + 1;
      fhn::test::write_text(pvd, text.substr(0, cut) + "  </Collection>\n</VTKFile>\n");
    }
    if (damage == "missing") fs::remove(pvd);
    run(make({}), dir / damage, checkpoint);
    CHECK(fhn::test::read_text(pvd) == whole);
    const std::string log = fhn::test::read_text(dir / damage / "run.log");
    CHECK(contains(log, "restart: restart.pvd: "));
    CHECK(contains(log, "; rebuilt from the 10 frame files in frames/"));
  }
  CHECK(contains(fhn::test::read_text(dir / "prefix" / "run.log"), "listed 3 of the 10 frames before the restart"));
  CHECK(contains(fhn::test::read_text(dir / "garbage" / "run.log"), "not a collection fhnsim wrote"));

  // Frames 3 to 5 gone: nothing rebuilds them; the restart stops with the folder as it was.
  stopped_run(dir, "holes");
  for (int i = 3; i <= 5; ++i) fs::remove(dir / "holes" / "frames" / ("restart_00000" + std::to_string(i) + ".vtu"));
  check_refused(dir, "holes",
                "frames: 3 of the 10 frames before the checkpoint are missing (frames/restart_000003.vtu ... "
                "frames/restart_000005.vtu)");
}

TEST_CASE("a restart refuses checkpoint values out of range for the config, naming them") {
  fhn::test::TempDir dir;
  const fs::path checkpoint = stopped_run(dir, "b");
  const fhn::Checkpoint good = fhn::read_checkpoint(checkpoint);
  auto forged = [&](const std::function<void(fhn::Checkpoint&)>& change, const std::string& message) {
    fhn::Checkpoint c = good;
    change(c);
    fhn::write_checkpoint(checkpoint, c);  // a valid checksum over the changed values
    CAPTURE(message);
    check_refused(dir, "b", message);
  };
  auto array = [](fhn::Checkpoint& c, const std::string& name) -> std::vector<fhn::real>& {
    for (auto& entry : c.state.arrays)
      if (entry.first == name) return entry.second;
    FAIL("no array " << name);
    throw;
  };
  forged([](fhn::Checkpoint& c) { c.t = 123.0; }, "checkpoint: t = 123, not step 200 x dt = 10");
  forged([](fhn::Checkpoint& c) { c.dt = 0.1; }, "checkpoint: dt = 0.1, not this config's time.dt = 0.05");
  forged([&](fhn::Checkpoint& c) { array(c, "v")[3] = std::nan(""); },
         "checkpoint: array 'v' holds nan at entry 3 (not a finite number)");
  forged([](fhn::Checkpoint& c) { c.state.nodes = {0, 80}; },
         "it holds an adaptive grid's node list, and this run's grid is fixed");
  forged([&](fhn::Checkpoint& c) { array(c, "front.samples")[5] = 9.0; },
         "checkpoint: front.samples: the frame times do not increase");
  forged([&](fhn::Checkpoint& c) { array(c, "front.samples")[1] = 0.5; },
         "checkpoint: front.samples left flag = 0.5 is not a count in [0, 1]");
  fhn::write_checkpoint(checkpoint, good);
  CHECK_NOTHROW(fhn::check_checkpoint(good, make({}), checkpoint));

  // The adaptive grid's node list: increasing base-grid indices from 0 to 80.
  fhn::test::TempDir adaptive;
  run(make({"time.end=13", "scheme.type=adaptive_explicit"}), adaptive / "b");
  fhn::Checkpoint grid = fhn::read_checkpoint(fhn::checkpoint_path(adaptive / "b", "restart", 200));
  REQUIRE(grid.state.nodes.size() > 3);
  grid.state.nodes[2] = grid.state.nodes[1];
  CHECK_THROWS_WITH_AS(fhn::check_checkpoint(grid, make({"scheme.type=adaptive_explicit"}), "g.chk"),
                       doctest::Contains("g.chk: checkpoint: its adaptive grid is not a strictly increasing "
                                         "list of base-grid nodes from 0 to 80"),
                       fhn::IoError);
}

TEST_CASE("a forged tip state is refused, not cast into summary.json") {
  const std::string sheet =
      "name: tips\n"
      "domain: {length: [6, 4], dx: 0.5}\n"
      "time: {end: 3, dt: 0.05}\n"
      "output: {every: 1, probes: [], checkpoint_every: 2, tips: {enabled: true}}\n";
  fhn::test::TempDir dir;
  const fhn::Config c = fhn::test::config_from(sheet, {"output.vtk=false"});
  run(c, dir / "out");
  const fs::path file = fhn::checkpoint_path(dir / "out", "tips", 40);
  fhn::Checkpoint forged = fhn::read_checkpoint(file);
  for (auto& entry : forged.state.arrays)
    if (entry.first == "tips.state") entry.second[3] = 1e300;
  CHECK_THROWS_WITH_AS(fhn::check_checkpoint(forged, fhn::test::config_from(sheet, {"time.end=4", "output.vtk=false"}), file),
                       doctest::Contains("checkpoint: tips.state frames with tips = 1e+300 is not a count in [0, 3]"),
                       fhn::IoError);
}

TEST_CASE("the 'continue with' command keeps every --set, quoted for the shell") {
  fhn::Config c = make({});
  c.source = "my configs/c.yaml";
  fhn::RunOptions options;
  options.overrides = {"time.end=8", "output.probes=[5, 10]", "name=it's"};
  CHECK(fhn::continue_command(c, options, "out/checkpoints/restart_0000000200.chk", "out") ==
        "fhn run 'my configs/c.yaml' --set time.end=8 --set 'output.probes=[5, 10]' --set 'name=it'\\''s' "
        "--restart out/checkpoints/restart_0000000200.chk --output out");
}

namespace {
std::string g_stderr_file;  // where the child of the next test sends its stderr
}  // namespace

// Frames are VTK files: skipped (not passed) in a build without VTK.
TEST_CASE("a restart into another folder says on stderr and in run.log what its files lack" *
          doctest::skip(!fhn::vtk_compiled())) {
  fhn::test::TempDir dir;
  const fs::path checkpoint = stopped_run(dir, "b");
  // A child process whose stderr (where run_simulation writes its warnings) goes to a file.
  g_stderr_file = (dir / "stderr.txt").string();
  const int child = fhn::test::spawn_cli({"run", fhn::test::write_text(dir / "c.yaml", kBase), "--quiet",
                                          "--output", (dir / "elsewhere").string(), "--restart",
                                          checkpoint.string()},
                                         dir / "err.txt", [] {
                                           const int fd = ::open(g_stderr_file.c_str(),
                                                                 O_WRONLY | O_CREAT | O_TRUNC, 0644);
                                           if (fd >= 0) ::dup2(fd, 2);
                                         });
  CHECK(fhn::test::wait_exit_code(child) == 0);
  const std::string err = fhn::test::read_text(dir / "stderr.txt");
  const std::string log = fhn::test::read_text(dir / "elsewhere" / "run.log");
  for (const std::string& note :
       {"restart: probes.csv: not in " + (dir / "elsewhere").string() +
            "; its rows cover only the time from the restart on",
        "restart: frames: none of the 10 frames before the restart is in " +
            (dir / "elsewhere").string() + "; restart.pvd lists only the frames from the restart on",
        std::string("restart: spacetime.vti: the image on disk is missing; the image covers only "
                    "the frames from the restart on")}) {
    CAPTURE(note);
    CHECK(contains(err, "fhn: warning: " + note + "\n"));
    CHECK(contains(log, note + "\n"));
  }
}

TEST_CASE("a restart checks newton.csv, grid.csv and tips.csv reach the checkpoint") {
  fhn::test::TempDir dir;
  // Keeps the first `from` lines of `file` (the header and from - 1 rows).
  auto cut = [&](const fs::path& file, std::size_t from) {
    std::istringstream lines(fhn::test::read_text(file));
    std::string kept, line;
    for (std::size_t row = 0; std::getline(lines, line) && row < from; ++row) kept += line + "\n";
    fhn::test::write_text(file, kept);
  };
  // newton.csv: 3 rows a step here; cut inside step 150 of the 200 before the checkpoint.
  const std::vector<std::string> cn{"time.end=13", "scheme.type=crank_nicolson", "output.newton_log=true"};
  run(make(cn), dir / "cn");
  cut(dir / "cn" / "newton.csv", 450);
  const auto before = folder_bytes(dir / "cn");
  CHECK_THROWS_WITH_AS(run(make({"scheme.type=crank_nicolson", "output.newton_log=true"}), dir / "cn",
                           fhn::checkpoint_path(dir / "cn", "restart", 200)),
                       doctest::Contains("newton.csv: its rows end at step 149, before the checkpoint's step 200"),
                       fhn::IoError);
  CHECK(folder_bytes(dir / "cn") == before);

  // grid.csv: a regrid every 7 steps; the rows after step 63 gone.
  const std::vector<std::string> adaptive{"scheme.type=adaptive_explicit", "scheme.adaptive.regrid_every=7"};
  auto first = adaptive;
  first.push_back("time.end=13");
  run(make(first), dir / "grid");
  cut(dir / "grid" / "grid.csv", 11);
  CHECK_THROWS_WITH_AS(run(make(adaptive), dir / "grid", fhn::checkpoint_path(dir / "grid", "restart", 200)),
                       doctest::Contains("grid.csv: its rows end at step 63, before the checkpoint's step 200"),
                       fhn::IoError);

  // tips.csv: a tip in every frame (where the edge of the excited rectangle crosses that of the
  // recovering one); rows from 30 of the 40 frames before the checkpoint.
  const std::string sheet =
      "name: tips\n"
      "domain: {length: [6, 4], dx: 0.5}\n"
      "initial:\n"
      "  v: {type: rectangle, x_min: 0, x_max: 3, y_min: 0, y_max: 4, value: 1}\n"
      "  w: {type: rectangle, x_min: 0, x_max: 6, y_min: 0, y_max: 2, value: 0.2}\n"
      "time: {end: 3, dt: 0.05}\n"
      "output: {every: 0.05, probes: [], checkpoint_every: 2, tips: {enabled: true}}\n";
  run(fhn::test::config_from(sheet, {"output.vtk=false"}), dir / "tips");
  const std::string tips = fhn::test::read_text(dir / "tips" / "tips.csv");
  REQUIRE(std::count(tips.begin(), tips.end(), '\n') == 62);  // the header, t = 0, 0.05, ..., 3
  cut(dir / "tips" / "tips.csv", 31);
  CHECK_THROWS_WITH_AS(run(fhn::test::config_from(sheet, {"output.vtk=false", "time.end=4"}), dir / "tips",
                           fhn::checkpoint_path(dir / "tips", "tips", 40)),
                       doctest::Contains("tips.csv: its rows before the checkpoint's t = 2 come from 30 "
                                         "frames where the run found tips in 40"),
                       fhn::IoError);
}

TEST_CASE("a CSV row cut by a kill (no newline) is no row: the restart's check and its cut agree") {
  fhn::test::TempDir dir;
  // newton.csv reaches the disk in buffered pieces: killed there, "1005,..." may end as "10".
  fhn::test::write_text(dir / "rows.csv", "step,x\n1,2\n3,4\n10");
  std::vector<double> firsts;
  fhn::for_each_row(dir / "rows.csv", [&](const std::string&, double first) { firsts.push_back(first); });
  CHECK(firsts == std::vector<double>{1.0, 3.0});
  fhn::keep_rows_before(dir / "rows.csv", 1000.0, false);
  CHECK(fhn::test::read_text(dir / "rows.csv") == "step,x\n1,2\n3,4\n");
}
