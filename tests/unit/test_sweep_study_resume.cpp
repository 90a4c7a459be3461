// Continuing an interrupted sweep or study (fhn sweep / fhn converge into the same folder): the
// finished members' rows and the kept runs are taken over when their config digest is the one
// the continuing run would run, run again otherwise, and the result equals an uninterrupted
// run's. The signals themselves are tested with real processes (tests/scripts/sweep_interrupt.sh).
#include <doctest/doctest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "config/study_config.hpp"
#include "config/sweep_config.hpp"
#include "study/study.hpp"
#include "support.hpp"
#include "sweep/sweep.hpp"

using fhn::test::contains;
using fhn::test::read_text;
using fhn::test::TempDir;
using fhn::test::write_text;

namespace fs = std::filesystem;

namespace {

const char* kCable =
    "name: cable\n"
    "model: {a: 0.1, epsilon: 0.01, gamma: 2.0}\n"
    "domain: {length: 20, dx: 0.5}\n"
    "stimulus: [{x_min: 0, x_max: 2, start: 0, duration: 2, amplitude: 0.5}]\n"
    "time: {end: 20, dt: 0.05}\n"
    "output: {every: 1, vtk: false, spacetime: false}\n";

// Four members of the cable, one per batch; the sweep into `out`.
fhn::SweepResult sweep_into(const TempDir& dir, const fs::path& out) {
  write_text(dir / "cable.yaml", kCable);
  fhn::SweepOptions options;
  options.output_dir = out;
  options.quiet = true;
  std::ostringstream text;
  return fhn::run_sweep(
      fhn::load_sweep_text("base: cable.yaml\naxes: [{key: model.a, values: [0.05, 0.1, 0.15, 0.2]}]\n"
                           "batch: 1\n",
                           (dir / "sweep.yaml").string()),
      options, text);
}

// `file`'s lines.
std::vector<std::string> lines(const fs::path& file) {
  std::vector<std::string> out;
  std::istringstream in(read_text(file));
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

}  // namespace

TEST_CASE("sweep continued: finished members' rows are taken over by digest, the others run, "
          "and sweep.csv equals the uninterrupted one") {
  TempDir dir;
  sweep_into(dir, dir / "whole");
  const std::string whole = read_text(dir / "whole" / "sweep.csv");
  const std::vector<std::string> finished = lines(dir / "whole" / "finished.csv");
  REQUIRE(finished.size() == 5);  // header, members 0..3
  CHECK(finished[0] == "member,digest");
  CHECK(finished[1].rfind("0,", 0) == 0);
  CHECK(finished[1].size() == 2 + 16);

  // A folder an interrupted sweep wrote: its list of what fhn wrote there (.fhn.files, which
  // lets a sweep replace those files) is the whole sweep's.
  auto interrupted_folder = [&](const char* name) {
    fs::create_directories(dir / name);
    fs::copy_file(dir / "whole" / ".fhn.files", dir / name / ".fhn.files");
  };

  // What an interruption after members 0 and 1 leaves, but with member 0's row marked (its
  // reason cell: a taken row is kept as written, not recomputed) and member 1's digest not its
  // own (a changed config: run again).
  interrupted_folder("part");
  std::vector<std::string> rows = lines(dir / "whole" / "sweep.csv");
  const std::string member0 = rows[1];
  REQUIRE(member0.back() == ',');  // an empty reason
  rows[1] = member0 + "MARK";
  write_text(dir / "part" / "sweep.csv", joined({rows[0], rows[1], rows[2]}));
  write_text(dir / "part" / "finished.csv",
             joined({finished[0], finished[1], "1,0123456789abcdef"}));
  const fhn::SweepResult result = sweep_into(dir, dir / "part");
  CHECK(result.members == 4);
  const std::vector<std::string> continued = lines(dir / "part" / "sweep.csv");
  REQUIRE(continued.size() == 5);
  CHECK(continued[1] == rows[1]);  // taken over as written
  const std::vector<std::string> expected = lines(dir / "whole" / "sweep.csv");
  for (std::size_t i : {0, 2, 3, 4}) CHECK(continued[i] == expected[i]);
  CHECK(read_text(dir / "part" / "finished.csv") == read_text(dir / "whole" / "finished.csv"));
  CHECK(contains(read_text(dir / "part" / "run.log"), "taken over: 1 members"));
  CHECK(contains(read_text(dir / "part" / "summary.json"), "\"taken_over\": 1"));
  CHECK(contains(read_text(dir / "part" / "summary.json"), "\"status\": \"ok\""));

  // A plain interruption's folder (rows and list of members 0 and 1): the continued sweep.csv
  // is byte for byte the uninterrupted one.
  interrupted_folder("cut");
  write_text(dir / "cut" / "sweep.csv", joined({rows[0], member0, rows[2]}));
  write_text(dir / "cut" / "finished.csv", joined({finished[0], finished[1], finished[2]}));
  sweep_into(dir, dir / "cut");
  CHECK(read_text(dir / "cut" / "sweep.csv") == whole);
  CHECK(contains(read_text(dir / "cut" / "run.log"), "taken over: 2 members"));

  // Another header (another sweep's file): nothing is taken over.
  interrupted_folder("other");
  write_text(dir / "other" / "sweep.csv", "member,model.b,status\n0,1,ok\n");
  write_text(dir / "other" / "finished.csv", joined({finished[0], finished[1]}));
  sweep_into(dir, dir / "other");
  CHECK(read_text(dir / "other" / "sweep.csv") == whole);
  CHECK(!contains(read_text(dir / "other" / "run.log"), "taken over"));
}

TEST_CASE("study continued: kept runs are taken over, a missing or damaged one is run again, "
          "and the CSV equals the uninterrupted one") {
  TempDir dir;
  write_text(dir / "base.yaml",
             "name: base\ndomain: {length: 20, nodes: 81}\n"
             "initial: {v: {type: gaussian, center: 8, width2: 4}}\n"
             "time: {end: 1, dt: 0.002}\noutput: {every: 1}\n");
  const fhn::StudyConfig study = fhn::load_study_text(
      "base: base.yaml\nstudy: convergence\nrefine: {key: time.dt, start: 0.02, ratio: 2, levels: 4}\n",
      (dir / "study.yaml").string());
  auto run = [&](const fs::path& out_dir) {
    fhn::StudyOptions options;
    options.output_dir = out_dir;
    std::ostringstream out;
    return read_text(fhn::run_study(study, options, out));
  };
  const std::string whole = run(dir / "out");
  std::vector<fs::path> kept;
  for (const auto& entry : fs::directory_iterator(dir / "out" / "runs")) kept.push_back(entry.path());
  REQUIRE(kept.size() == 4);
  CHECK(contains(read_text(dir / "out" / "run.log"), "done: 4 runs made and kept in runs/"));

  // Run again: every run taken over, the same CSV.
  CHECK(run(dir / "out") == whole);
  CHECK(contains(read_text(dir / "out" / "run.log"), "done: 0 runs made and kept in runs/, 4 taken over"));

  // One run missing (interrupted before it finished), one damaged: both run again.
  fs::remove(kept[0]);
  std::string damaged = read_text(kept[1]);
  damaged[damaged.size() / 2] = static_cast<char>(damaged[damaged.size() / 2] ^ 0x10);
  write_text(kept[1], damaged);
  CHECK(run(dir / "out") == whole);
  CHECK(contains(read_text(dir / "out" / "run.log"), "done: 2 runs made and kept in runs/, 2 taken over"));
}
