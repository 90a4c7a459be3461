// fhn replaces only files it wrote (io/output_folder.hpp, issue 45): a run, sweep or study into a
// folder holding a file of the user's at one of its names (the config being run, summary.json,
// probes.csv, run.log, sweep.csv, ...), or a picture the run reads, is refused before it writes
// anything, and the file is left as it was; re-running into a folder fhn wrote keeps working.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "io/output_folder.hpp"
#include "io/vtk_writers.hpp"
#include "support.hpp"

using fhn::test::contains;
using fhn::test::read_text;
using fhn::test::run_cli;
using fhn::test::TempDir;
using fhn::test::write_text;

namespace fs = std::filesystem;

namespace {

// The small sheet of issue 45; frames and the activation map where VTK is compiled in.
// `output` adds keys to output:.
std::string sheet(const std::string& extra = "", const std::string& output = "") {
  return std::string("# the user's own notes\n"
                     "model: {a: 0.01, epsilon: 0.01, gamma: 2.0}\n"
                     "domain: {length: [20, 20], dx: 0.5}\n"
                     "time: {end: 1, dt: 0.05}\n") +
         "output: {every: 0.5" + (fhn::vtk_compiled() ? "" : ", vtk: false") + output + "}\n" +
         extra;
}

const std::string kRefused = "fhn never replaces what it did not write: move it away, or choose "
                             "another --output (nothing was written)";

}  // namespace

TEST_CASE("a run with --output the config's own folder leaves the config as the user wrote it") {
  TempDir dir;
  const std::string text = sheet();
  const std::string config = write_text(dir / "config.yaml", text);
  const fhn::test::CliResult r = run_cli({"run", config, "--output", dir.path().string(), "--quiet"});
  CAPTURE(r.err);
  CHECK(r.code == 4);
  CHECK(contains(r.err, (dir / "config.yaml").string() + ": a file fhn did not write (it is not in " +
                            (dir / ".fhn.files").string()));
  CHECK(contains(r.err, kRefused));
  CHECK(read_text(dir / "config.yaml") == text);  // the comment and time.end as written
  for (const char* file : {"run.log", "summary.json", "probes.csv", "frames", "checkpoints"})
    CHECK_MESSAGE(!fs::exists(dir / file), file);
}

TEST_CASE("a symlinked output folder's files of the user's are never replaced") {
  for (const char* name : {"config.yaml", "summary.json", "probes.csv", "run.log"}) {
    CAPTURE(name);
    TempDir dir;
    const std::string config = write_text(dir / "sheet.yaml", sheet());
    fs::create_directory(dir / "mine");
    fs::create_directory_symlink(dir / "mine", dir / "link");
    const std::string text = std::string("the user's ") + name + "\n";
    write_text(dir / "mine" / name, text);
    const fhn::test::CliResult r =
        run_cli({"run", config, "--output", (dir / "link").string(), "--quiet"});
    CAPTURE(r.err);
    CHECK(r.code == 4);
    CHECK(contains(r.err, (dir / "link" / name).string() + ": a file fhn did not write"));
    CHECK(read_text(dir / "mine" / name) == text);
    CHECK(!fs::exists(dir / "mine" / "summary.json") == (std::string(name) != "summary.json"));
  }
}

// frames/ only with VTK: skipped (not passed) in a build without it.
TEST_CASE("a folder of the user's where the run writes frames or checkpoints is refused" *
          doctest::skip(!fhn::vtk_compiled())) {
  TempDir dir;
  const std::string config = write_text(dir / "sheet.yaml", sheet());
  fs::create_directories(dir / "out" / "frames");
  write_text(dir / "out" / "frames" / "notes.txt", "mine\n");
  const fhn::test::CliResult r =
      run_cli({"run", config, "--output", (dir / "out").string(), "--quiet"});
  CHECK(r.code == 4);
  CHECK(contains(r.err, (dir / "out" / "frames").string() + ": a folder fhn did not make"));
  CHECK(read_text(dir / "out" / "frames" / "notes.txt") == "mine\n");
  CHECK(!fs::exists(dir / "out" / "config.yaml"));
}

// The picture is a .vti, the activation map: skipped (not passed) in a build without VTK.
TEST_CASE("a picture the run reads is never written over, even one fhn wrote" *
          doctest::skip(!fhn::vtk_compiled())) {
  TempDir dir;
  const std::string config = write_text(dir / "sheet.yaml", sheet());
  const fs::path out = dir / "out";
  REQUIRE(run_cli({"run", config, "--output", out.string(), "--quiet"}).code == 0);
  REQUIRE(fs::exists(out / "activation.vti"));
  const std::string map = read_text(out / "activation.vti");
  // The map as a field of the next run into the same folder, which would write activation.vti.
  const std::string with_field = write_text(
      dir / "field.yaml",
      sheet("fields:\n  - {parameter: diffusion, type: image, file: out/activation.vti,\n"
            "     array: activation_time, from: 1.0, to: 1.5}\n"));
  const fhn::test::CliResult r =
      run_cli({"run", with_field, "--output", out.string(), "--quiet"});
  CAPTURE(r.err);
  CHECK(r.code == 2);
  CHECK(contains(r.err, (out / "activation.vti").string() + ": is the input file " +
                            fs::absolute(out / "activation.vti").lexically_normal().string() +
                            " of this run, which it would write over; choose another --output"));
  CHECK(read_text(out / "activation.vti") == map);
  // Into another folder the same run goes ahead.
  CHECK(run_cli({"run", with_field, "--output", (dir / "other").string(), "--quiet"}).code == 0);
}

TEST_CASE("re-running and restarting into a folder fhn wrote replace its files as before") {
  TempDir dir;
  const std::string config =
      write_text(dir / "sheet.yaml", sheet("name: again\n", ", checkpoint_every: 0.5"));
  const fs::path out = dir / "out";
  REQUIRE(run_cli({"run", config, "--output", out.string(), "--quiet"}).code == 0);
  const std::string list = read_text(out / fhn::OutputFolder::kWrittenList);
  for (const char* entry : {"\nconfig.yaml\n", "\nrun.log\n", "\nsummary.json\n", "\nprobes.csv\n",
                            "\ncheckpoints/\n"})
    CHECK_MESSAGE(contains(list, entry), entry);
  CHECK(run_cli({"run", config, "--output", out.string(), "--quiet"}).code == 0);
  const fhn::test::CliResult restart =
      run_cli({"run", config, "--output", out.string(), "--quiet", "--restart",
               (out / "checkpoints" / "again_0000000010.chk").string(), "--set", "time.end=1.5"});
  CAPTURE(restart.err);
  CHECK(restart.code == 0);
  CHECK(contains(read_text(out / "config.yaml"), "end: 1.5"));
}

TEST_CASE("a folder an fhnsim before the list wrote is taken as fhn's, once") {
  TempDir dir;
  const std::string config = write_text(dir / "sheet.yaml", sheet());
  const fs::path out = dir / "out";
  fs::create_directory(out);
  write_text(out / fhn::OutputFolder::kLockFile, "pid 1 on host old\n");
  write_text(out / "config.yaml", "an older fhnsim's resolved config\n");
  REQUIRE(run_cli({"run", config, "--output", out.string(), "--quiet"}).code == 0);
  CHECK(contains(read_text(out / "config.yaml"), "gamma: 2"));
  CHECK(contains(read_text(out / fhn::OutputFolder::kWrittenList), "\nconfig.yaml\n"));
  // A folder of the user's that a refused run locked is not taken for an old fhnsim's.
  fs::create_directory(dir / "mine");
  write_text(dir / "mine" / "run.log", "mine\n");
  CHECK(run_cli({"run", config, "--output", (dir / "mine").string(), "--quiet"}).code == 4);
  CHECK(run_cli({"run", config, "--output", (dir / "mine").string(), "--quiet"}).code == 4);
  CHECK(read_text(dir / "mine" / "run.log") == "mine\n");
}

TEST_CASE("sweeps and studies replace no file of the user's either") {
  TempDir dir;
  write_text(dir / "base.yaml", sheet());
  const std::string sweep = write_text(
      dir / "sweep.yaml", "base: base.yaml\naxes:\n  - {key: model.a, values: [0.01, 0.02]}\n");
  fs::create_directory(dir / "sweep_out");
  write_text(dir / "sweep_out" / "sweep.csv", "mine\n");
  const fhn::test::CliResult s =
      run_cli({"sweep", sweep, "--output", (dir / "sweep_out").string(), "--quiet"});
  CAPTURE(s.err);
  CHECK(s.code == 4);
  CHECK(contains(s.err, (dir / "sweep_out" / "sweep.csv").string() + ": a file fhn did not write"));
  CHECK(read_text(dir / "sweep_out" / "sweep.csv") == "mine\n");
  CHECK(!fs::exists(dir / "sweep_out" / "run.log"));

  const std::string study = write_text(dir / "study.yaml", "study: newton\nbase: base.yaml\n");
  fs::create_directory(dir / "study_out");
  write_text(dir / "study_out" / "newton.csv", "mine\n");
  const fhn::test::CliResult t =
      run_cli({"converge", study, "--output", (dir / "study_out").string()});
  CAPTURE(t.err);
  CHECK(t.code == 4);
  CHECK(contains(t.err, (dir / "study_out" / "newton.csv").string() + ": a file fhn did not write"));
  CHECK(read_text(dir / "study_out" / "newton.csv") == "mine\n");
}
