// Crank-Nicolson/Newton cables on GPU slabs (make_cuda_slab_scheme): every Newton system solved
// across the ranks, the blocks by a GPU solver and the reduced system on the root. The partition
// method orders the elimination differently from one solve of the whole system, so the gathered
// state agrees with the one-rank GPU run and with the CPU run to round-off (1e-12), with the same
// Newton iterations in every step. Run under mpirun -np 2 (the ranks share the one GPU of a test
// machine: halos through host memory) and -np 3; one process runs the whole-cable path.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "config/loader.hpp"
#include "model/problem.hpp"
#include "parallel/decomposition.hpp"
#include "run/checkpoint.hpp"
#include "run/run.hpp"
#include "schemes/cuda_schemes.hpp"
#include "schemes/scheme.hpp"
#include "support.hpp"
#include "tests/mpi/world.hpp"

namespace fs = std::filesystem;

namespace fhn {
namespace {

constexpr double kRoundOff = 1e-12;
constexpr index_t kNodes = 241;  // domain.length 60, dx 0.25

// A cable with a right Dirichlet end, a stimulus at x = 28..33 and one across every boundary
// between this run's slabs (a slab's first node is at x = first dx).
std::string cable_yaml(int ranks) {
  std::string stimuli = "  - {x_min: 28, x_max: 33, start: 3, duration: 2, amplitude: 0.5}\n";
  for (int r = 1; r < ranks; ++r) {
    const double x = 0.25 * static_cast<double>(split_range(kNodes, r, ranks).first);
    stimuli += "  - {x_min: " + std::to_string(x - 1.5) + ", x_max: " + std::to_string(x + 1.5) +
               ", start: 1, duration: 2, amplitude: 0.5}\n";
  }
  return R"(
name: cable
domain: {length: 60, dx: 0.25}
scheme: {type: crank_nicolson}
initial: {v: {type: rectangle, x_min: 0, x_max: 4, value: 1}}
boundary: {right: {type: dirichlet, value: 0.1}}
time: {end: 20, dt: 0.1}
output: {every: 1, vtk: false, spacetime: false, probes: [10, 30, 59], checkpoint_every: 5,
         newton_log: true}
stimulus:
)" + stimuli;
}

// Every Newton iteration's (step, iteration).
class IterationLog final : public NewtonLog {
 public:
  void record(const NewtonIteration& it) override { rows.emplace_back(it.step, it.iteration); }
  std::vector<std::pair<index_t, index_t>> rows;
};

double largest_difference(const std::vector<real>& a, const std::vector<real>& b) {
  REQUIRE(a.size() == b.size());
  double largest = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) largest = std::max(largest, std::abs(a[i] - b[i]));
  return largest;
}

// A scheme's state arrays ("v", "w", "w_previous") by name.
std::map<std::string, std::vector<real>> arrays_of(const SchemeState& state) {
  return {state.arrays.begin(), state.arrays.end()};
}

// The slab scheme's arrays gathered on the root in node order (the other ranks: empty).
std::map<std::string, std::vector<real>> gathered(const Scheme& slab, Communicator& comm) {
  const SchemeState state = slab.save_state();
  std::map<std::string, std::vector<real>> all;
  for (const auto& [name, values] : state.arrays) all[name] = comm.gather(values);
  return all;
}

// The state of a one-process run of `config` after `steps` steps, and its iterations.
std::map<std::string, std::vector<real>> one_process(const Config& config, index_t steps,
                                                     IterationLog& log) {
  const Problem problem = make_problem(config);
  auto scheme = make_scheme(config, problem, &log);
  scheme->advance(steps);
  return arrays_of(scheme->save_state());
}

TEST_CASE("a Crank-Nicolson cable on GPU slabs agrees with one GPU and with the CPU to "
          "round-off, with the same Newton iterations") {
  Communicator& comm = test::world();
  const std::string yaml = cable_yaml(comm.size());
  // Trapezoidal w with the second-order no-flux end; leapfrog with the blog's first-order one
  // (row 0 replaced by v_0 - v_1).
  for (const char* w_update : {"trapezoidal", "leapfrog"}) {
    for (const char* solver : {"partitioned", "cyclic_reduction", "cusparse", "cusparse_pivot"}) {
      CAPTURE(w_update);
      CAPTURE(solver);
      const bool leapfrog = std::string(w_update) == "leapfrog";
      const std::vector<std::string> model{
          std::string("scheme.crank_nicolson.w_update=") + w_update,
          std::string("boundary.no_flux_order=") + (leapfrog ? "1" : "2")};
      std::vector<std::string> gpu = model, cpu = model;
      gpu.push_back("scheme.backend=cuda");
      gpu.push_back(std::string("scheme.crank_nicolson.tridiagonal=") + solver);
      cpu.push_back("scheme.backend=cpu");
      const Config c = test::config_from(yaml, gpu);
      const Problem problem = make_problem(c);

      // 60 steps, then a fresh slab scheme continues from the first's state for 140 more (the
      // owned v, w and previous w restored; the halos refreshed by the steps).
      IterationLog slab_log;
      NewtonLog* log = comm.root() ? &slab_log : nullptr;
      auto first = make_cuda_slab_scheme(problem, c.scheme, comm, log);
      if (comm.size() > 1) {
        const std::string name = first->name();
        CHECK(test::contains(name, "slab " + std::to_string(comm.rank() + 1) + " of " +
                                       std::to_string(comm.size())));
        CHECK(test::contains(name, std::string(solver) + " blocks partitioned over ranks"));
      }
      CHECK(comm.sum(static_cast<double>(first->node_count())) == static_cast<double>(kNodes));
      first->advance(60);
      const SchemeState middle = first->save_state();
      first.reset();
      auto second = make_cuda_slab_scheme(problem, c.scheme, comm, log);
      second->restore_state(middle);
      second->advance(140);
      CHECK(second->steps_done() == 200);
      CHECK(second->first_non_finite() == -1);
      const auto slabs = gathered(*second, comm);
      if (!comm.root()) continue;

      IterationLog gpu_log, cpu_log;
      const auto whole_gpu = one_process(c, 200, gpu_log);
      const auto whole_cpu = one_process(test::config_from(yaml, cpu), 200, cpu_log);
      const std::vector<std::string> names =
          leapfrog ? std::vector<std::string>{"v", "w", "w_previous"}
                   : std::vector<std::string>{"v", "w"};
      for (const std::string& name : names) {
        CAPTURE(name);
        REQUIRE(slabs.count(name) == 1);
        REQUIRE(slabs.at(name).size() == static_cast<std::size_t>(kNodes));
        CHECK(largest_difference(slabs.at(name), whole_gpu.at(name)) < kRoundOff);
        CHECK(largest_difference(slabs.at(name), whole_cpu.at(name)) < kRoundOff);
      }
      CHECK(slab_log.rows.size() > 200);  // at least one iteration per step
      CHECK(slab_log.rows == gpu_log.rows);
      CHECK(slab_log.rows == cpu_log.rows);
    }
  }
}

// The whole run on the ranks (DistributedScheme, newton.csv written by the root), restarted from
// a one-process GPU checkpoint at step 100: leapfrog needs the previous w, scattered to the
// slabs; the ranks' checkpoint at step 150 holds what the one process's does.
TEST_CASE("a leapfrog cable continues on GPU slabs from a one-process checkpoint and ends where "
          "the run would have") {
  Communicator& comm = test::world();
  const test::SharedFolder tmp;
  const fs::path dir = tmp.path();
  const Config c = test::config_from(
      cable_yaml(comm.size()), {"scheme.backend=cuda", "scheme.crank_nicolson.w_update=leapfrog"});
  if (comm.root()) {
    RunOptions one;
    one.output_dir = dir / "one";
    one.quiet = true;
    CHECK(run_simulation(c, one).steps == 200);
    // Its checkpoints at steps 100 and 150 (the two most recent); the ranks write their own 150.
    fs::copy(dir / "one", dir / "ranks", fs::copy_options::recursive);
    fs::remove(checkpoint_path(dir / "ranks", "cable", 150));
  }
  RunOptions ranks;
  ranks.output_dir = dir / "ranks";
  ranks.quiet = true;
  ranks.comm = &comm;
  ranks.restart = checkpoint_path(dir / "ranks", "cable", 100);
  CHECK(run_simulation(c, ranks).steps == 200);  // the whole run's
  if (!comm.root()) return;

  const auto restarted = test::checkpoint_arrays(dir / "ranks", "cable", 150);
  const auto expected = test::checkpoint_arrays(dir / "one", "cable", 150);
  for (const char* name : {"v", "w", "w_previous"}) {
    CAPTURE(name);
    REQUIRE(restarted.count(name) == 1);
    REQUIRE(restarted.at(name).size() == static_cast<std::size_t>(kNodes));
    CHECK(largest_difference(restarted.at(name), expected.at(name)) < kRoundOff);
  }
  // The same iterations in every step: newton.csv's step and iteration columns.
  auto iterations = [](const fs::path& file) {
    std::istringstream lines(test::read_text(file));
    std::string out;
    for (std::string line; std::getline(lines, line);)
      out += line.substr(0, line.find(',', line.find(',') + 1)) + "\n";
    return out;
  };
  CHECK(iterations(dir / "ranks/newton.csv") == iterations(dir / "one/newton.csv"));
  if (comm.size() > 1)
    CHECK(test::contains(test::read_text(dir / "ranks/run.log"), "blocks partitioned over ranks"));
}

// dt = 10 at v = 0.37: 1/k + c/2 - f'(v)/2 < 0, so |J_ii| < D/h^2 = |J_i,i-1| + |J_i,i+1| on every
// row without a replaced end; the first such row is node 0 (the mirrored ghost node's row). Each
// rank finds its own first bad row; all agree on the smallest and stop alike.
TEST_CASE("GPU slabs stop alike, naming the first global row, when the Newton matrix is not "
          "diagonally dominant") {
  Communicator& comm = test::world();
  const Config c = test::config_from(R"(
name: stiff
domain: {length: 10, dx: 0.25}
scheme: {type: crank_nicolson, backend: cuda}
initial: {v: {type: constant, value: 0.37}}
time: {end: 10, dt: 10}
output: {every: 10, vtk: false, spacetime: false}
)");
  const Problem problem = make_problem(c);
  auto slab = make_cuda_slab_scheme(problem, c.scheme, comm, nullptr);
  CHECK_THROWS_WITH_AS(slab->advance(1),
                       doctest::Contains("the Newton matrix is not diagonally dominant at row 0 "
                                         "in step 0"),
                       NumericalError);
}

}  // namespace
}  // namespace fhn
