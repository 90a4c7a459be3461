// Faults while writing output: a full disk or file size limit, and the output folder removed
// during the run. Each stops the run with exit code 4 and a message naming the file, and what was
// written before stays valid. Each case runs the command line in a child process.
#include <doctest/doctest.h>

#include <sys/resource.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "io/vtk_writers.hpp"
#include "support.hpp"

using fhn::test::contains;

namespace fs = std::filesystem;

TEST_CASE("a file size limit (ulimit -f) stops the run with exit code 4 and keeps what was written") {
  fhn::test::TempDir dir;
  const std::string config = fhn::test::write_text(dir / "big.yaml",
                                                   "name: big\n"
                                                   "domain: {length: 200, nodes: 401}\n"
                                                   "time: {end: 40, dt: 0.1}\n"
                                                   "output: {every: 0.5, spacetime: false}\n");
  // A frame file is about 6 KiB; probes.csv grows by about 350 bytes a frame and reaches the
  // 12 KiB limit after some 30 frames.
  std::vector<std::string> args{"run", config, "--quiet", "--output", (dir / "out").string(), "--set",
                                "output.probes=[0, 25, 50, 75, 100, 125, 150, 175, 200]"};
  if (!fhn::vtk_compiled()) args.insert(args.end(), {"--set", "output.vtk=false"});
  const int code = fhn::test::wait_exit_code(fhn::test::spawn_cli(args, dir / "err.txt", [] {
    const rlimit limit{12 * 1024, 12 * 1024};
    setrlimit(RLIMIT_FSIZE, &limit);
  }));
  CHECK(code == 4);
  const std::string err = fhn::test::read_text(dir / "err.txt");
  CAPTURE(err);
  CHECK(contains(err, "fhn: error: "));
  CHECK(contains(err, "File too large"));
  // What was written stays readable: whole probe rows, and a collection that parses.
  const std::string probes = fhn::test::read_text(dir / "out" / "probes.csv");
  CHECK(probes.rfind("t,v@0,", 0) == 0);
  if (fhn::vtk_compiled()) {
    const std::string pvd = fhn::test::read_text(dir / "out" / "big.pvd");
    CHECK(contains(pvd, "</VTKFile>"));
    CHECK(contains(pvd, "big_000001.vtu"));
  }
}

TEST_CASE("the output folder removed during a run stops it with exit code 4 and a clear message") {
  fhn::test::TempDir dir;
  const auto args = fhn::test::slow_run_args(dir.path(), "slow", 100, false);
  const int child = fhn::test::spawn_cli(args, dir / "err.txt");
  const fs::path probes = dir / "out" / "probes.csv";
  fhn::test::wait_until([&] { return fs::exists(probes); }, 600);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  fs::remove_all(dir / "out");
  CHECK(fhn::test::wait_exit_code(child) == 4);
  const std::string err = fhn::test::read_text(dir / "err.txt");
  CAPTURE(err);
  CHECK(contains(err, "fhn: error: "));
  CHECK(contains(err, (dir / "out").string()));
}
