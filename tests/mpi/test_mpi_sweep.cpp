// fhn sweep with its members split across the ranks of the test run: the same files as the sweep
// run by one process, each member's own files written by the rank that ran it, and errors that
// stop every rank rather than leave some waiting.
#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>

#include "config/sweep_config.hpp"
#include "core/error.hpp"
#include "parallel/decomposition.hpp"
#include "support.hpp"
#include "sweep/sweep.hpp"
#include "tests/mpi/world.hpp"

namespace fhn {
namespace {

namespace fs = std::filesystem;
using test::contains;
using test::read_text;

// Five members of a short cable over the S1 amplitude, two at a time: member 3 is stimulated so
// hard that Newton fails (a numerical_failure row); members 1 and 4 write their own files. On 2
// ranks, rank 0 runs members 0..2 (two batches) and rank 1 members 3..4.
const char* kSweep = R"(
name: ranks
config:
  model: {a: 0.1, epsilon: 0.01, gamma: 2.0, diffusion: 1.0}
  domain: {length: 40.0, dx: 0.5}
  initial: {v: {type: constant, value: 0.0}, w: {type: constant, value: 0.0}}
  stimulus:
    - {x_min: 0.0, x_max: 2.0, start: 0.0, duration: 2.0, amplitude: 0.5}
  time: {end: 100.0, dt: 0.5}
  scheme: {type: crank_nicolson}
  output: {every: 1.0, vtk: false, spacetime: false, probes: [10.0, 30.0]}
axes: [{key: 'stimulus[0].amplitude', values: [0.02, 0.3, 0.5, 1.0e6, 0.8]}]
measure: {probes: [10, 30]}
output: {members: [1, 4]}
batch: 2
)";

SweepOptions on_world(const fs::path& output_dir) {
  SweepOptions options;
  options.output_dir = output_dir;
  options.quiet = true;
  options.comm = &test::world();
  return options;
}

TEST_CASE("a sweep split across the ranks writes the one-process sweep's files, byte for byte") {
  Communicator& comm = test::world();
  const test::SharedFolder shared;
  const fs::path dir = shared.path();
  const SweepConfig sweep = load_sweep_text(kSweep, "ranks.yaml");
  std::ostringstream out;
  const SweepResult result = run_sweep(sweep, on_world(dir / "ranks"), out);
  // The whole sweep's counts on every rank.
  CHECK(result.members == 5);
  CHECK(result.failed == 1);
  if (!comm.root()) return;

  // The same sweep by this process alone (no communication: the root runs it by itself).
  const auto serial = make_serial_communicator();
  SweepOptions one = on_world(dir / "one");
  one.comm = serial.get();
  CHECK(run_sweep(sweep, one, out).failed == 1);
  const std::string csv = read_text(dir / "ranks" / "sweep.csv");
  CHECK(csv == read_text(dir / "one" / "sweep.csv"));  // sweep.csv has no timing columns
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 6);
  CHECK(contains(csv, "\n3,1e+06,numerical_failure,"));
  CHECK(read_text(dir / "ranks" / "config.yaml") == read_text(dir / "one" / "config.yaml"));
  for (const char* m : {"1", "4"})  // member 4: rank 1's on 2 ranks
    for (const char* file : {"probes.csv", "config.yaml"}) {
      CAPTURE(m);
      CAPTURE(file);
      const std::string written = read_text(dir / "ranks" / "members" / m / file);
      CHECK_FALSE(written.empty());
      CHECK(written == read_text(dir / "one" / "members" / m / file));
    }

  // run.log names the ranks, their members and the other ranks' batches and failures.
  const std::string log = read_text(dir / "ranks" / "run.log");
  CHECK(contains(log, "ranks: " + std::to_string(comm.size()) + " (" + comm.describe() + ")"));
  int owner_of_3 = 0;
  for (int r = 0; r < comm.size(); ++r) {
    const Range range = split_range(5, r, comm.size());
    CHECK(contains(log, "rank " + std::to_string(r) + ": " +
                            (range.count == 0 ? std::string("no members")
                                              : "members " + std::to_string(range.first) + ".." +
                                                    std::to_string(range.end() - 1)) +
                            "\n"));
    if (range.first <= 3 && 3 < range.end()) owner_of_3 = r;
  }
  const std::string prefix = owner_of_3 == 0 ? "" : "rank " + std::to_string(owner_of_3) + ": ";
  CHECK(contains(log, "\n" + prefix + "member 3 (stimulus[0].amplitude=1e+06) failed at step"));
  if (comm.size() == 2) CHECK(contains(log, "\nrank 1: batch 1/1: members 3..4 done"));

  const std::string summary = read_text(dir / "ranks" / "summary.json");
  CHECK(contains(summary, "\"members\": 5"));
  CHECK(contains(summary, "\"failed\": 1"));
  CHECK(contains(summary, "\"ranks\": " + std::to_string(comm.size())));
  if (comm.size() == 2) {
    CHECK(contains(summary, "\"batches\": 3"));  // 2 on rank 0, 1 on rank 1
    CHECK(contains(summary, "\"1\":{\"first_member\":3,\"members\":2,\"batches\":1,"));
  }
  // The propagation edge is the one-process sweep's (gathered as minima and maxima).
  const auto edge = [](const std::string& text) { return text.substr(text.find("\"propagation\"")); };
  CHECK(edge(summary) == edge(read_text(dir / "one" / "summary.json")));
}

TEST_CASE("an output folder the root cannot create stops every rank with its IoError") {
  const test::SharedFolder shared;
  const fs::path dir = shared.path();
  if (test::world().root()) test::write_text(dir / "a_file", "not a folder\n");
  const SweepConfig sweep = load_sweep_text(kSweep, "ranks.yaml");
  std::ostringstream out;
  CHECK_THROWS_WITH_AS(run_sweep(sweep, on_world(dir / "a_file" / "out"), out),
                       doctest::Contains("cannot create the output folder"), IoError);
}

TEST_CASE("--bench under several ranks is refused on every rank before anything runs") {
  if (test::world().size() == 1) return;  // one rank: --bench runs, as without mpirun
  const test::SharedFolder shared;
  const fs::path dir = shared.path();
  SweepOptions options = on_world(dir / "bench");
  options.bench_members = 1;
  std::ostringstream out;
  CHECK_THROWS_WITH_AS(run_sweep(load_sweep_text(kSweep, "ranks.yaml"), options, out),
                       doctest::Contains("run it without mpirun"), ConfigError);
  if (test::world().root()) CHECK_FALSE(fs::exists(dir / "bench"));
}

}  // namespace
}  // namespace fhn
