// The output folder's lock (io/output_folder.hpp): a second run, sweep or study into a folder in
// use stops at once with exit code 4, naming the folder and the process that holds it, and
// writes nothing there; the lock dies with its holder, kill -9 included.
#include <doctest/doctest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>

#include "core/error.hpp"
#include "io/output_folder.hpp"
#include "support.hpp"

using fhn::test::contains;
using fhn::test::TempDir;
using fhn::test::write_text;

namespace fs = std::filesystem;

namespace {

// The message of the IoError that taking `dir` raises ("" when it can be taken).
std::string refusal(const fs::path& dir) {
  return fhn::test::thrown_message<fhn::IoError>([&] { const fhn::OutputFolder folder(dir); });
}

// The folder's entries other than the lock file and the list of what fhn wrote (the holder's).
std::vector<std::string> written(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().filename() != fhn::OutputFolder::kLockFile &&
        entry.path().filename() != fhn::OutputFolder::kWrittenList)
      names.push_back(entry.path().filename().string());
  return names;
}

}  // namespace

TEST_CASE("an output folder is locked while it is held, and free again afterwards") {
  TempDir dir;
  const fs::path out = dir / "a" / "b";
  {
    const fhn::OutputFolder held(out);
    CHECK(fs::is_directory(out));
    const std::string lock = fhn::test::read_text(out / ".fhn.lock");
    CHECK(lock.rfind("pid " + std::to_string(getpid()) + " on host ", 0) == 0);
    CHECK(contains(lock, ", started as: "));
    const std::string message = refusal(out);
    CAPTURE(message);
    const std::string pid = std::to_string(getpid());
    CHECK(contains(message, out.string() + ": the output folder is in use by another fhn "
                                           "process (pid " + pid + " on host "));
    CHECK(contains(message, "wait for it to end, or choose another --output"));
  }
  CHECK(refusal(out).empty());
}

TEST_CASE("an output folder's lock is released when its holder is killed with SIGKILL") {
  TempDir dir;
  const fs::path out = dir / "out";
  const int child = fhn::test::fork_child([&] {
    const fhn::OutputFolder held(out);
    write_text(dir / "ready", "");
    pause();
    return 0;
  });
  fhn::test::wait_until([&] { return fs::exists(dir / "ready"); }, 600,
                        std::chrono::milliseconds(10));
  REQUIRE(fs::exists(dir / "ready"));
  const std::string pid = std::to_string(child);
  CHECK(contains(refusal(out), "in use by another fhn process (pid " + pid + " "));
  kill(child, SIGKILL);
  CHECK(fhn::test::wait_exit_code(child) == -SIGKILL);
  CHECK(refusal(out).empty());
}

TEST_CASE("fhn run, sweep and converge into a folder in use stop with exit 4, writing nothing") {
  TempDir dir;
  const fs::path out = dir / "out";
  const fhn::OutputFolder held(out);
  const std::string cable = write_text(dir / "cable.yaml",
                                       "name: cable\n"
                                       "domain: {length: 20, nodes: 41}\n"
                                       "time: {end: 2, dt: 0.1}\n"
                                       "output: {every: 0.5, probes: [10], vtk: false, "
                                       "spacetime: false}\n");
  const std::string sweep =
      write_text(dir / "s.yaml", "base: cable.yaml\naxes: [{key: model.a, values: [0.1]}]\n");
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"run", cable},
        {"sweep", sweep},
        {"converge", fhn::test::source_path("configs/studies/explicit_dt.yaml")}}) {
    std::vector<std::string> command = args;
    command.insert(command.end(), {"--output", out.string()});
    const auto r = fhn::test::run_cli(command);
    CAPTURE(args[0]);
    CAPTURE(r.err);
    CHECK(r.code == 4);
    CHECK(contains(r.err, "fhn: error: " + out.string() +
                              ": the output folder is in use by another fhn process (pid " +
                              std::to_string(getpid())));
    CHECK(written(out).empty());
  }
}

TEST_CASE("a restart into a folder in use stops with exit code 4 and leaves its files alone") {
  TempDir dir;
  const std::string cable = write_text(dir / "cable.yaml",
                                       "name: cable\n"
                                       "domain: {length: 20, nodes: 41}\n"
                                       "time: {end: 2, dt: 0.1}\n"
                                       "output: {every: 0.5, probes: [10], vtk: false, "
                                       "spacetime: false, checkpoint_every: 1}\n");
  const fs::path out = dir / "out";
  REQUIRE(fhn::test::run_cli({"run", cable, "--quiet", "--output", out.string()}).code == 0);
  const std::string probes = fhn::test::read_text(out / "probes.csv");
  const fhn::OutputFolder held(out);
  const auto r =
      fhn::test::run_cli({"run", cable, "--quiet", "--output", out.string(), "--set", "time.end=3",
                          "--restart", (out / "checkpoints" / "cable_0000000010.chk").string()});
  CAPTURE(r.err);
  CHECK(r.code == 4);
  CHECK(contains(r.err, "the output folder is in use by another fhn process"));
  CHECK(fhn::test::read_text(out / "probes.csv") == probes);
}
