// ADI (scheme.crank_nicolson.formulation: adi) on GPU slabs of a sheet or a box, one rank a GPU
// (or ranks sharing one): the slabs gathered equal the one-rank GPU run bit for bit (v, w, every
// Newton log row and statistic), on 2 ranks (ctest) or 3 (mpirun -np 3); `fhn run` over the ranks writes the
// probes, newton.csv and checkpoints of one process; a Newton failure on one rank's slab stops
// every rank alike. Where some rank sees no CUDA device the executable exits 77 on every rank
// before any case (tests/mpi/gpu_world.cpp).
//
// Bit for bit: every node takes the same kernels' expressions as on the whole domain, and the
// batched solvers solve each line by itself (the partitioned solver's arithmetic depends on the
// line's length only, not on how many lines a batch holds; cuSPARSE's batched routines solve
// each system alone too).
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "config/loader.hpp"
#include "core/cuda/cuda_check.hpp"
#include "core/error.hpp"
#include "parallel/cuda/device_halo_exchange.hpp"
#include "run/run.hpp"
#include "schemes/cuda_schemes.hpp"
#include "sheet_support.hpp"
#include "support.hpp"
#include "tests/mpi/world.hpp"

namespace fs = std::filesystem;

namespace fhn {
namespace {


// The transport every rank's slab names, as make_device_transport chooses it.
std::string expected_transport(Communicator& comm) {
  int devices = 0;
  FHN_CUDA_CHECK(cudaGetDeviceCount(&devices));
  const bool shared = comm.any(comm.local_size() > devices);
  if (!cuda::nccl_compiled()) return "halos and transposes through host memory (NCCL not compiled in)";
  return shared ? "halos and transposes through host memory (ranks share a GPU)"
                : "halos and transposes by NCCL";
}

// Every Newton iteration, as newton.csv gets it.
struct RecordingLog final : NewtonLog {
  std::vector<NewtonIteration> rows;
  void record(const NewtonIteration& row) override { rows.push_back(row); }
};

// Whether `value` is the same on every rank (a collective).
bool same_on_every_rank(Communicator& comm, double value) {
  return comm.max(value) == value && comm.max(-value) == -value;
}

// A 53 x 47 sheet (N_x odd; N_y shared by 2 ranks as 24 + 23 rows, by 3 as 16 + 16 + 15; the
// columns as 27 + 26 and 18 + 18 + 17): a bump of v across the middle rows, a step in w along y,
// and a stimulus over rows 10..36, crossing every slab boundary of 2 and 3 ranks; `boundary`
// sets the sides. Crank-Nicolson by ADI (the default on a sheet) at twice the explicit limit.
std::string adi_sheet(const std::string& boundary) {
  return "domain: {length: [26, 23], dx: 0.5}\n"
         "boundary: " + boundary + "\n"
         "initial: {v: {type: gaussian, center: [10, 14], width2: 6},\n"
         "          w: {type: step, axis: y, position: 11.5, left: 0, right: 0.02}}\n"
         "stimulus: [{x_min: 15, x_max: 26, y_min: 5, y_max: 18, start: 2, duration: 1.5, "
         "amplitude: 0.7}]\n"
         "scheme: {type: crank_nicolson, backend: cuda}\n"
         "time: {end: 40, dt: 0.1}\n"
         "output: {vtk: false, probes: []}\n";
}

// Config `c` on GPU slabs over the ranks against the one-rank GPU run, both advanced by
// `pieces` steps: the gathered v and w, every Newton log row and statistic bit for bit.
void check_slabs_against_one_rank(const Config& c, const std::vector<index_t>& pieces) {
  Communicator& comm = test::world();
  const Problem problem = make_problem(c);
  RecordingLog slab_log;
  auto slab = make_cuda_slab_scheme(problem, c.scheme, comm, comm.root() ? &slab_log : nullptr);
  test::check_slab_share(*slab, problem.domain.node_count());
  if (comm.size() > 1) CHECK(test::contains(slab->name(), expected_transport(comm)));
  for (const index_t steps : pieces) slab->advance(steps);
  Snapshot part;
  slab->snapshot(part);
  CHECK(slab->first_non_finite() == -1);
  // Every rank agrees on the Newton statistics (the maxima are taken over the ranks).
  const NewtonStats* stats = slab->newton_stats();
  REQUIRE(stats != nullptr);
  CHECK(same_on_every_rank(comm, static_cast<double>(stats->steps())));
  CHECK(same_on_every_rank(comm, static_cast<double>(stats->max_iterations())));
  CHECK(same_on_every_rank(comm, stats->mean_iterations()));
  CHECK(same_on_every_rank(comm, stats->convergence_order()));
  const std::vector<real> v = comm.gather(part.v), w = comm.gather(part.w);
  if (!comm.root()) return;
  RecordingLog whole_log;
  auto whole = make_cuda_scheme(problem, c.scheme, &whole_log);
  for (const index_t steps : pieces) whole->advance(steps);
  Snapshot expected;
  whole->snapshot(expected);
  CHECK(part.step == expected.step);
  CHECK(*std::max_element(expected.v.begin(), expected.v.end()) > 0.5);  // a wave is on
  CHECK(v == expected.v);
  CHECK(w == expected.w);
  REQUIRE(slab_log.rows.size() == whole_log.rows.size());
  for (std::size_t k = 0; k < whole_log.rows.size(); ++k) {
    CAPTURE(k);
    CHECK(slab_log.rows[k].step == whole_log.rows[k].step);
    CHECK(slab_log.rows[k].iteration == whole_log.rows[k].iteration);
    CHECK(slab_log.rows[k].stage == whole_log.rows[k].stage);
    CHECK(slab_log.rows[k].du_inf == whole_log.rows[k].du_inf);
    CHECK(slab_log.rows[k].residual_inf == whole_log.rows[k].residual_inf);
  }
  const NewtonStats& one = *whole->newton_stats();
  CHECK(stats->steps() == one.steps());
  CHECK(stats->max_iterations() == one.max_iterations());
  CHECK(stats->mean_iterations() == one.mean_iterations());
  CHECK(stats->convergence_order() == one.convergence_order());
}

TEST_CASE("ADI on GPU slabs, gathered, equals the one-rank GPU run bit for bit") {
  // Dirichlet left and bottom (the first slab's rows); right and top (the last slab's).
  const char* sides[] = {
      "{left: {type: dirichlet, value: 0.3}, bottom: {type: dirichlet, value: 0.8}}",
      "{right: {type: dirichlet, value: 1}, top: {type: dirichlet, value: -0.1}}"};
  for (const char* boundary : sides)
    for (const char* solver : {"partitioned", "cusparse"}) {
      CAPTURE(boundary);
      CAPTURE(solver);
      // 357 steps in pieces that cross the logs' batches of 256 steps inside a piece.
      check_slabs_against_one_rank(
          test::config_from(adi_sheet(boundary),
                            {std::string("scheme.crank_nicolson.tridiagonal=") + solver}),
          {100, 200, 57});
    }
}

TEST_CASE("Douglas ADI on a box's GPU slabs of z planes, gathered, equals the one-rank GPU run") {
  // The GPU tests' box (33 x 21 x 19 nodes: 10 + 9 planes on 2 ranks, 7 + 6 + 6 on 3; its 693
  // z lines as 347 + 346 and 231 each; Dirichlet left and back faces, the back one the last
  // slab's), at dt = 0.05: the stimulus block across the middle planes is on at steps 200..240.
  // 357 steps in pieces that cross the logs' batches of 256 steps.
  for (const char* solver : {"partitioned", "cusparse"}) {
    CAPTURE(solver);
    check_slabs_against_one_rank(
        test::config_from(test::box_yaml("cubic", "{type: crank_nicolson, backend: cuda}"),
                          {"time.dt=0.05", std::string("scheme.crank_nicolson.tridiagonal=") + solver}),
        {100, 200, 57});
  }
}

TEST_CASE("a GPU ADI sheet over the ranks writes what one GPU process writes, bit for bit") {
  Communicator& comm = test::world();
  const test::SharedFolder tmp;
  const fs::path dir = tmp.path();
  // 41 x 33 (N_x odd), a Dirichlet side, probes on every slab, a stimulus over rows 8..24
  // (across the slab boundaries of 2 and 3 ranks); 120 steps, checkpoints at steps 40 and 80.
  const Config c = test::config_from(R"(
name: sheet
model: {a: 0.1, epsilon: 0.01, gamma: 2.0, diffusion: 1.0}
domain: {length: [20, 16], dx: 0.5}
initial:
  v: {type: rectangle, x_min: 0, x_max: 3, y_min: 0, y_max: 16, value: 1}
boundary: {left: {type: dirichlet, value: 0.2}}
stimulus:
  - {x_min: 8, x_max: 12, y_min: 4, y_max: 12, start: 5, duration: 2, amplitude: 0.6}
scheme: {type: crank_nicolson, backend: cuda}
time: {end: 30, dt: 0.25}
output: {every: 2.5, vtk: false, probes: [[10, 2], [10, 8], [10, 14], [19, 8]],
         checkpoint_every: 10, newton_log: true}
)");
  RunOptions ranks;
  ranks.output_dir = dir / "ranks";
  ranks.quiet = true;
  ranks.comm = &comm;
  CHECK(run_simulation(c, ranks).steps == 120);
  if (!comm.root()) return;
  RunOptions one;
  one.output_dir = dir / "one";
  one.quiet = true;
  run_simulation(c, one);
  CHECK(test::read_text(ranks.output_dir / "probes.csv") == test::read_text(one.output_dir / "probes.csv"));
  CHECK(test::read_text(ranks.output_dir / "newton.csv") == test::read_text(one.output_dir / "newton.csv"));
  for (const index_t step : {40, 80})  // the checkpoints (none at the end)
    for (const char* name : {"v", "w"}) {
      CAPTURE(step);
      CAPTURE(name);
      const std::vector<real> a = test::checkpoint_arrays(ranks.output_dir, "sheet", step)[name];
      CHECK(a.size() == 41 * 33);
      CHECK(a == test::checkpoint_arrays(one.output_dir, "sheet", step)[name]);
    }
  if (comm.size() > 1)
    CHECK(test::contains(test::read_text(ranks.output_dir / "run.log"), "slab 1 of "));
}

TEST_CASE("a Newton failure in one rank's slab stops every rank alike, as one process stops") {
  Communicator& comm = test::world();
  // v = 0.5 on the bottom 3 rows (the first slab's, on 2 or 3 ranks) and one Newton iteration
  // allowed: the first reaction half-step fails there and converges at once everywhere else (a
  // node at rest has g = 0).
  const Config c = test::config_from(
      "domain: {length: [26, 23], dx: 0.5}\n"
      "initial: {v: {type: rectangle, x_min: 0, x_max: 26, y_min: 0, y_max: 1, value: 0.5}}\n"
      "scheme: {type: crank_nicolson, backend: cuda, crank_nicolson: {newton: {max_iterations: 1}}}\n"
      "time: {end: 1, dt: 0.1}\n"
      "output: {vtk: false, probes: []}\n");
  const Problem problem = make_problem(c);
  auto slab = make_cuda_slab_scheme(problem, c.scheme, comm, nullptr);
  std::string message = "no NumericalError";
  try {
    slab->advance(5);
  } catch (const NumericalError& e) {
    message = e.what();
  }
  CHECK(test::contains(message, "Newton did not converge in step 0 ("));
  // The root's message, on every rank.
  std::string root_message = message;
  comm.broadcast(root_message, 0);
  CHECK(message == root_message);
  if (!comm.root()) return;
  auto whole = make_cuda_scheme(problem, c.scheme, nullptr);
  std::string expected = "no NumericalError";
  try {
    whole->advance(5);
  } catch (const NumericalError& e) {
    expected = e.what();
  }
  CHECK(message == expected);
}

TEST_CASE("ADI on a GPU cable does not run on slabs, and says so on every rank") {
  Communicator& comm = test::world();
  const Config c = test::config_from(
      "domain: {length: 50, dx: 0.5}\n"
      "scheme: {type: crank_nicolson, backend: cuda, crank_nicolson: {formulation: adi}}\n"
      "time: {end: 1, dt: 0.1}\n"
      "output: {vtk: false}\n");
  const Problem problem = make_problem(c);
  // Refused before any device is touched or any collective is called.
  CHECK_THROWS_WITH_AS(make_slab_scheme(c, problem, comm),
                       doctest::Contains("scheme.type: crank_nicolson (formulation adi) on a "
                                         "cable with the cuda backend does not run on several "
                                         "ranks yet"),
                       ConfigError);
}

}  // namespace
}  // namespace fhn
