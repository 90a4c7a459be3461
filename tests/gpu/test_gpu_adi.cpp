// Crank-Nicolson by ADI on the GPU against the CPU oracle (AdiCpu with batched Thomas): sheets
// and cables, every batched GPU backend, Dirichlet sides, stimuli; Newton statistics and the
// newton.csv rows of both reaction half-steps; restarts continue bit for bit; a masked sheet
// with D and a kinetics parameter per node.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "config/loader.hpp"
#include "core/cuda/device_buffer.hpp"
#include "schemes/adi_setup.hpp"
#include "schemes/cuda/device_fields.cuh"
#include "schemes/scheme.hpp"
#include "solvers/batched_tridiagonal.hpp"
#include "sheet_support.hpp"
#include "support.hpp"

namespace {

using fhn::test::max_state_difference;
using fhn::test::run_scheme;

class RecordingLog final : public fhn::NewtonLog {
 public:
  void record(const fhn::NewtonIteration& it) override { rows.push_back(it); }
  std::vector<fhn::NewtonIteration> rows;
};

const char* kSheet =
    "domain: {length: [30, 17], dx: 0.5}\n"
    "boundary: {left: {type: dirichlet, value: 0.1}, top: {type: dirichlet, value: 0}}\n"
    "initial: {v: {type: rectangle, x_min: 10, x_max: 14, y_min: 4, y_max: 9}, w: {type: step, axis: y, position: 12, left: 0, right: 0.05}}\n"
    "stimulus: [{x_min: 20, x_max: 24, y_min: 2, y_max: 6, start: 3, duration: 2, amplitude: 0.6, period: 10, count: 3}]\n"
    "scheme: {type: crank_nicolson}\n"
    "time: {end: 25, dt: 0.25}\n"
    "output: {vtk: false, probes: []}\n";

}  // namespace

TEST_CASE("the batched GPU solvers solve the ADI line systems (Dirichlet and ghost rows) as Thomas does") {
  const fhn::Config c = fhn::test::config_from(kSheet);
  const fhn::Problem problem = fhn::make_problem(c);
  const fhn::AdiSetup setup = fhn::adi_setup(problem, c.scheme.crank_nicolson);
  const fhn::index_t nx = problem.domain.nodes[0], ny = problem.domain.nodes[1];
  std::vector<double> rhs(static_cast<std::size_t>(nx * ny));
  for (std::size_t k = 0; k < rhs.size(); ++k) rhs[k] = std::sin(0.37 * static_cast<double>(k)) + 0.1;
  for (const int axis : {0, 1}) {
    CAPTURE(axis);
    const auto layout = axis == 0 ? fhn::solvers::BatchLayout::rows(nx, ny) : fhn::solvers::BatchLayout::columns(nx, ny);
    auto thomas = fhn::solvers::make_batched_tridiagonal_solver(fhn::solvers::TridiagonalBackend::thomas);
    thomas->set_matrix(setup.lower[axis].data(), setup.diag[axis].data(), setup.upper[axis].data(), layout.n);
    std::vector<double> truth = rhs;
    thomas->solve(layout, truth.data());
    for (const auto backend : {fhn::solvers::TridiagonalBackend::partitioned, fhn::solvers::TridiagonalBackend::cusparse}) {
      CAPTURE(fhn::solvers::backend_name(backend));
      auto gpu = fhn::solvers::make_batched_tridiagonal_solver(backend);
      gpu->set_matrix(setup.lower[axis].data(), setup.diag[axis].data(), setup.upper[axis].data(), layout.n);
      fhn::cuda::DeviceBuffer<double> x(rhs.size(), "rhs");
      x.upload(rhs.data(), rhs.size());
      gpu->solve(layout, x.data());
      const std::vector<double> got = fhn::cuda::to_host(x);
      double worst = 0.0;
      for (std::size_t k = 0; k < got.size(); ++k) worst = std::max(worst, std::abs(got[k] - truth[k]));
      CHECK(worst < 1e-12);
    }
  }
}

TEST_CASE("GPU adi matches the CPU after 100 steps with every batched backend") {
  const fhn::Snapshot cpu_sheet = run_scheme(fhn::test::config_from(kSheet), 100).state;
  const fhn::Snapshot cpu_cable =
      run_scheme(fhn::test::config_from("domain: {length: 60, dx: 0.25}\n"
                                 "boundary: {right: {type: dirichlet, value: 1}}\n"
                                 "scheme: {type: crank_nicolson, crank_nicolson: {formulation: adi}}\n"
                                 "time: {end: 25, dt: 0.25}\n"
                                 "output: {spacetime: false, vtk: false}\n"),
          100)
          .state;
  CHECK(*std::max_element(cpu_sheet.v.begin(), cpu_sheet.v.end()) > 0.5);
  for (const char* solver : {"partitioned", "cusparse"}) {
    CAPTURE(solver);
    const std::vector<std::string> gpu{"scheme.backend=cuda", std::string("scheme.crank_nicolson.tridiagonal=") + solver};
    CHECK(max_state_difference(run_scheme(fhn::test::config_from(kSheet, gpu), 100).state, cpu_sheet) < 1e-10);
    CHECK(max_state_difference(run_scheme(fhn::test::config_from("domain: {length: 60, dx: 0.25}\n"
                                                    "boundary: {right: {type: dirichlet, value: 1}}\n"
                                                    "scheme: {type: crank_nicolson, crank_nicolson: {formulation: adi}}\n"
                                                    "time: {end: 25, dt: 0.25}\n"
                                                    "output: {spacetime: false, vtk: false}\n",
                                                    gpu),
                             100)
                             .state,
                         cpu_cable) < 1e-10);
  }
}

TEST_CASE("GPU adi logs both reaction half-steps as the CPU does") {
  RecordingLog cpu_log, gpu_log;
  run_scheme(fhn::test::config_from(kSheet), 10, &cpu_log);
  run_scheme(fhn::test::config_from(kSheet, {"scheme.backend=cuda"}), 10, &gpu_log);
  REQUIRE(cpu_log.rows.size() == gpu_log.rows.size());
  for (std::size_t k = 0; k < cpu_log.rows.size(); ++k) {
    CHECK(gpu_log.rows[k].step == cpu_log.rows[k].step);
    CHECK(gpu_log.rows[k].iteration == cpu_log.rows[k].iteration);
    CHECK(gpu_log.rows[k].stage == cpu_log.rows[k].stage);
    // The last update of each half-step is of the order of rounding: compared in absolute terms.
    CHECK(gpu_log.rows[k].du_inf == doctest::Approx(cpu_log.rows[k].du_inf).epsilon(1e-6).scale(1e-8));
  }
}

TEST_CASE("GPU adi continues bit for bit from its saved state") {
  const fhn::Config c = fhn::test::config_from(kSheet, {"scheme.backend=cuda"});
  fhn::test::SchemeRun straight = run_scheme(c, 60);
  fhn::test::SchemeRun first = run_scheme(c, 25);
  const fhn::SchemeState saved = first.scheme->save_state();
  const fhn::Problem problem = fhn::make_problem(c);
  auto resumed = fhn::make_scheme(c, problem);
  resumed->restore_state(saved);
  resumed->advance(35);
  fhn::Snapshot s;
  resumed->snapshot(s);
  CHECK(s.v == straight.state.v);
  CHECK(s.w == straight.state.w);
}

TEST_CASE("GPU adi on a masked sheet with D and a kinetics parameter per node matches the CPU after 1000 steps") {
  // The per-node rows (adi_setup.hpp) through the per-system solves of both batched GPU
  // backends, the medium right sides and the per-node kinetics of the reaction kernels, with an
  // obstacle, a scar of D = 0, a Dirichlet side and a stimulus across the obstacle's edge
  // (tests/unit/test_adi_medium.cpp checks the CPU against exact values and the explicit scheme).
  const std::string yaml =
      "domain: {length: [30, 20], dx: 0.5}\n"
      "boundary: {left: {type: dirichlet, value: 0.3}}\n"
      "tissue: [{shape: disc, center: [15, 10], radius: 3}]\n"
      "fields:\n"
      "  - {parameter: diffusion, shape: polygon, points: [[20, 12], [26, 12], [23, 19]], value: 0}\n"
      "  - {parameter: diffusion, shape: disc, center: [8, 5], radius: 3, value: 2.5, edge: 2}\n"
      "  - {parameter: a, type: gradient, axis: x, from: 0.02, to: 0.2}\n"
      "initial: {v: {type: rectangle, x_min: 0, x_max: 3, value: 1}}\n"
      "stimulus: [{x_min: 9, x_max: 13, y_min: 0, y_max: 20, start: 10, duration: 2, amplitude: 0.5}]\n"
      "scheme: {type: crank_nicolson}\n"
      "time: {end: 20, dt: 0.02}\n"
      "output: {vtk: false, probes: []}\n";
  const fhn::Snapshot cpu = run_scheme(fhn::test::config_from(yaml), 1000).state;
  double largest = 0.0;
  for (std::size_t node = 0; node < cpu.v.size(); ++node)
    if (node % 61 > 12) largest = std::max(largest, cpu.v[node]);
  CHECK(largest > 0.5);  // the wave went beyond x = 6
  for (const char* solver : {"partitioned", "cusparse"}) {
    CAPTURE(solver);
    const auto gpu = run_scheme(fhn::test::config_from(yaml, {"scheme.backend=cuda", std::string("scheme.crank_nicolson.tridiagonal=") + solver}), 1000);
    CHECK(gpu.scheme->name().find("cuda") != std::string::npos);
    const double difference = max_state_difference(gpu.state, cpu);
    MESSAGE(std::string(solver), ": GPU against CPU after 1000 steps: ", difference);
    CHECK(difference < 1e-10);
  }
}

TEST_CASE("GPU box ADI (Douglas) matches the CPU after 1000 steps with every batched backend") {
  // 33 x 21 x 19 nodes: the lines along y are 33 a plane, so the partitioned solver's tiles of
  // 32 systems straddle planes; Dirichlet faces on x and z, an S1 slab, a stimulus block inside;
  // the cubic (to t = 25) and the Barkley form (to t = 2.5: its faster wave crosses the box by
  // t = 3.5).
  for (const char* form : {"cubic", "barkley"}) {
    CAPTURE(std::string(form));
    const std::string yaml = fhn::test::box_yaml(form, "{type: crank_nicolson}");
    const bool cubic = std::string(form) == "cubic";
    const std::vector<std::string> steps{cubic ? "time.end=25" : "time.end=2.5",
                                         cubic ? "time.dt=0.025" : "time.dt=0.0025"};
    const fhn::test::SchemeRun cpu = run_scheme(fhn::test::config_from(yaml, steps), 1000);
    const auto [lo, hi] = std::minmax_element(cpu.state.v.begin(), cpu.state.v.end());
    CHECK(*hi - *lo > 0.5);  // a wave under way, not a trivial state
    for (const char* solver : {"partitioned", "cusparse"}) {
      CAPTURE(solver);
      std::vector<std::string> gpu_overrides = steps;
      gpu_overrides.insert(gpu_overrides.end(),
                           {"scheme.backend=cuda", std::string("scheme.crank_nicolson.tridiagonal=") + solver});
      const fhn::test::SchemeRun gpu = run_scheme(fhn::test::config_from(yaml, gpu_overrides), 1000);
      CHECK(gpu.scheme->name().find("by Douglas ADI (cuda") != std::string::npos);
      CHECK(max_state_difference(cpu.state, gpu.state) < 1e-10);
    }
  }
}
