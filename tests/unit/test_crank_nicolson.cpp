// The Crank-Nicolson / Newton scheme: the discrete equations hold after a step, Newton
// converges quadratically, the scheme is second order in time and space, and it is stable far
// beyond the explicit limit.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "config/loader.hpp"
#include "core/error.hpp"
#include "schemes/scheme.hpp"
#include "study/convergence.hpp"
#include "support.hpp"

namespace {

const char* kSmallCase =
    "domain: {length: 20}\n"
    "initial: {v: {type: gaussian, center: 8, width2: 4}}\n"
    "time: {end: 1}\n"
    "scheme: {type: crank_nicolson}\n"
    "output: {every: 1}\n";

class RecordingLog final : public fhn::NewtonLog {
 public:
  void record(const fhn::NewtonIteration& it) override { iterations.push_back(it); }
  std::vector<fhn::NewtonIteration> iterations;
};

fhn::Snapshot run_steps(const fhn::Config& c, fhn::index_t steps, fhn::NewtonLog* log = nullptr) {
  const fhn::Problem problem = fhn::make_problem(c);
  auto scheme = fhn::make_scheme(c, problem, log);
  scheme->advance(steps);
  fhn::Snapshot s;
  scheme->snapshot(s);
  return s;
}

}  // namespace

TEST_CASE("after a step the Crank-Nicolson equations hold at every node") {
  // Written out independently of the scheme's code:
  //   (v1 - v0)/k = 1/2 [D L v1 + f(v1) - w1] + 1/2 [D L v0 + f(v0) - w0]
  //   (w1 - w0)/k = eps/2 [(v0 - gamma w0) + (v1 - gamma w1)]
  // with the ghost-node Laplacian at the no-flux ends.
  const fhn::Config c = fhn::test::config_from(
      "domain: {length: 20, nodes: 41}\n"
      "model: {epsilon: 0.2}\n"
      "initial: {v: {type: gaussian, center: 8, width2: 4}, w: {type: constant, value: 0.05}}\n"
      "time: {end: 1, dt: 0.5}\n"
      "scheme: {type: crank_nicolson, crank_nicolson: {newton: {tolerance: 1e-13}}}\n"
      "output: {every: 1}\n");
  const fhn::Problem p = fhn::make_problem(c);
  const fhn::Snapshot s = run_steps(c, 1);
  const fhn::CubicKinetics& model = c.model.form<fhn::CubicKinetics>();
  const double k = c.time.dt, h2 = c.domain.dx * c.domain.dx, a = model.a, eps = model.epsilon,
               gamma = model.gamma;
  const std::size_t n = s.v.size();
  auto lap = [&](const std::vector<double>& u, std::size_t i) {
    const double left = i == 0 ? u[1] : u[i - 1];
    const double right = i + 1 == n ? u[n - 2] : u[i + 1];
    return (left - 2.0 * u[i] + right) / h2;
  };
  auto f = [&](double v) { return v * (1.0 - v) * (v - a); };
  double worst_v = 0.0, worst_w = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double rv = (s.v[i] - p.v0[i]) / k - 0.5 * (lap(s.v, i) + f(s.v[i]) - s.w[i]) -
                      0.5 * (lap(p.v0, i) + f(p.v0[i]) - p.w0[i]);
    const double rw = (s.w[i] - p.w0[i]) / k -
                      0.5 * eps * ((p.v0[i] - gamma * p.w0[i]) + (s.v[i] - gamma * s.w[i]));
    worst_v = std::max(worst_v, std::abs(rv));
    worst_w = std::max(worst_w, std::abs(rw));
  }
  CHECK(worst_v < 1e-11);
  CHECK(worst_w < 1e-14);
  CHECK(s.v != p.v0);
}

TEST_CASE("Newton converges quadratically on the pulse case") {
  const fhn::Config c = fhn::load_config(fhn::test::source_path("configs/pulse_split_cn.yaml"));
  RecordingLog log;
  run_steps(c, 500, &log);
  // Within each step: ||du_{k+1}|| <= C ||du_k||^2, checked where du_{k+1} is above round-off.
  int pairs = 0;
  double worst_constant = 0.0;
  for (std::size_t i = 1; i < log.iterations.size(); ++i) {
    const auto& before = log.iterations[i - 1];
    const auto& after = log.iterations[i];
    if (after.step != before.step || after.du_inf < 1e-13) continue;
    worst_constant = std::max(worst_constant, after.du_inf / (before.du_inf * before.du_inf));
    ++pairs;
  }
  CHECK(pairs > 500);
  CHECK(worst_constant < 1.0);  // measured about 0.1
  for (const auto& it : log.iterations) CHECK(it.iteration <= 4);
}

TEST_CASE("Newton statistics: iterations and the observed q-order") {
  const fhn::Config c = fhn::load_config(fhn::test::source_path("configs/pulse_split_cn.yaml"));
  const fhn::Problem problem = fhn::make_problem(c);
  auto scheme = fhn::make_scheme(c, problem);
  scheme->advance(300);
  const fhn::NewtonStats* stats = scheme->newton_stats();
  REQUIRE(stats != nullptr);
  CHECK(stats->steps() == 300);
  CHECK(stats->mean_iterations() >= 2.0);
  CHECK(stats->mean_iterations() <= 4.0);
  CHECK(stats->convergence_order() == doctest::Approx(2.0).epsilon(0.1));

  fhn::NewtonStats synthetic;
  synthetic.add_step({1e-2, 1e-4, 1e-8, 1e-16});  // q = 2 from (1e-2, 1e-4, 1e-8)
  CHECK(synthetic.convergence_order() == doctest::Approx(2.0));
  CHECK(synthetic.max_iterations() == 4);
}

TEST_CASE("Crank-Nicolson (trapezoidal w) is second order in time") {
  fhn::test::check_orders(fhn::test::refinement(kSmallCase, {"domain.nodes=81"}, "time.dt",
                                                {"0.25", "0.125", "0.0625", "0.03125"}),
                          2.0);
}

TEST_CASE("Crank-Nicolson is second order in space") {
  fhn::test::check_orders(fhn::test::refinement(kSmallCase, {"time.dt=0.01"}, "domain.nodes",
                                                {"41", "81", "161", "321"}),
                          2.0);
}

TEST_CASE("the leapfrog w update (the reference blog's) runs; its order in time is recorded") {
  // Measured 1.89 and 1.93: second order, approached from below (the trapezoidal first step
  // and the parasitic leapfrog mode). epsilon = 0.5 so that w matters on this short run.
  const auto orders = fhn::test::check_orders(
      fhn::test::refinement(kSmallCase,
                            {"domain.nodes=81", "scheme.crank_nicolson.w_update=leapfrog",
                             "model.epsilon=0.5"},
                            "time.dt", {"0.25", "0.125", "0.0625", "0.03125"}),
      2.0, 0.2);
  MESSAGE("leapfrog w update, observed orders in time: " << orders[0] << ", " << orders[1]);
}

TEST_CASE("Crank-Nicolson stays bounded and Newton converges up to dt/dx^2 = 10") {
  for (const double ratio : {0.5, 1.0, 2.0, 5.0, 10.0}) {
    CAPTURE(ratio);
    const double dt = ratio * 0.25;  // dx = 0.5
    const fhn::Config c = fhn::load_config(
        fhn::test::source_path("configs/pulse_split_cn.yaml"),
        {"time.dt=" + std::to_string(dt), "time.end=" + std::to_string(dt * std::round(100.0 / dt)),
         "output.every=" + std::to_string(dt)});
    fhn::Snapshot s;
    REQUIRE_NOTHROW(s = fhn::final_state(c));
    const auto [lo, hi] = std::minmax_element(s.v.begin(), s.v.end());
    CHECK(*hi < 1.1);
    CHECK(*lo > -0.4);
    CHECK(*hi > 0.5);  // the pulses are still travelling at t ~ 100
  }
}

TEST_CASE("Crank-Nicolson and the explicit scheme agree as dt shrinks") {
  const std::string base =
      "domain: {length: 40, nodes: 161}\n"
      "initial: {v: {type: gaussian, center: 20, width2: 4}}\n"
      "time: {end: 10, dt: 0.005}\n"
      "output: {every: 1}\n";
  const fhn::Snapshot cn = fhn::final_state(fhn::test::config_from(base + "scheme: {type: crank_nicolson}\n"));
  const fhn::Snapshot ex = fhn::final_state(fhn::test::config_from(base + "scheme: {type: explicit}\n"));
  CHECK(fhn::distance_on_common_nodes(cn, ex, fhn::Norm::max) < 2e-3);
}

TEST_CASE("Dirichlet ends, first-order no-flux and stimuli under Crank-Nicolson") {
  const fhn::Config c = fhn::test::config_from(
      "domain: {length: 20, nodes: 41}\n"
      "boundary: {left: {type: dirichlet, value: 0.3}, no_flux_order: 1}\n"
      "initial: {v: {type: constant, value: 0}}\n"
      "stimulus: [{x_min: 15, x_max: 20, start: 0, duration: 1, amplitude: 0.2}]\n"
      "time: {end: 2, dt: 0.1}\n"
      "scheme: {type: crank_nicolson}\n"
      "output: {every: 1}\n");
  const fhn::Snapshot s = fhn::final_state(c);
  CHECK(s.v.front() == 0.3);           // held
  CHECK(s.v[39] == doctest::Approx(s.v[40]).epsilon(1e-12));  // v_{N-1} = v_{N-2}
  CHECK(s.v[35] > 0.1);                // the stimulus raised v on [15, 20]
  CHECK(s.v[20] < 0.05);
}

TEST_CASE("Newton that does not converge stops with the residual history") {
  const fhn::Config c = fhn::load_config(fhn::test::source_path("configs/pulse_split_cn.yaml"),
                                         {"scheme.crank_nicolson.newton.max_iterations=2"});
  CHECK_THROWS_WITH_AS(fhn::final_state(c),
                       doctest::Contains("Newton did not converge in step 0 (t = 0 -> 0.1)"),
                       fhn::NumericalError);
  try {
    fhn::final_state(c);
  } catch (const fhn::NumericalError& e) {
    const std::string message = e.what();
    CHECK(message.find("iteration 1: ||du||_inf = ") != std::string::npos);
    CHECK(message.find("iteration 2: ||du||_inf = ") != std::string::npos);
    CHECK(message.find("Hint: reduce time.dt") != std::string::npos);
  }
}

TEST_CASE("a time step that breaks diagonal dominance is refused clearly") {
  // J_ii - |off-diagonals| = 1/k - f'(u)/2 + c/2 < 0 once k > 2 / max f' ~ 6.
  const fhn::Config c = fhn::load_config(fhn::test::source_path("configs/pulse_split_cn.yaml"),
                                         {"time.dt=10", "output.every=10"});
  CHECK_THROWS_WITH_AS(fhn::final_state(c), doctest::Contains("not diagonally dominant"),
                       fhn::NumericalError);
  CHECK_THROWS_WITH_AS(fhn::final_state(c),
                       doctest::Contains("the Newton matrix of step 0 (t = 0 -> 10), iteration 1, could not "
                                         "be solved: thomas: the matrix is not diagonally dominant at row"),
                       fhn::NumericalError);
  // At rest J is dominant; the stimulus from t = 20 (its mean over step 2 in that step's right
  // side) breaks it in step 2's second iteration: the message names that step, its time and the
  // iteration.
  const fhn::Config later = fhn::load_config(
      fhn::test::source_path("configs/pulse_split_cn.yaml"),
      {"time.dt=10", "output.every=10", "initial.v={type: constant, value: 0}",
       "stimulus=[{x_min: 90, x_max: 110, start: 20, duration: 10, amplitude: 1}]"});
  CHECK_THROWS_WITH_AS(fhn::final_state(later),
                       doctest::Contains("the Newton matrix of step 2 (t = 20 -> 30), iteration 2, could not "
                                         "be solved: thomas: the matrix is not diagonally dominant at row 168"),
                       fhn::NumericalError);
}

TEST_CASE("config: GPU tridiagonal solvers need the cuda backend; newton_log needs Newton") {
  CHECK(fhn::test::config_error("scheme: {type: crank_nicolson, crank_nicolson: {tridiagonal: cusparse}}\n")
            .find("scheme.crank_nicolson.tridiagonal: 'cusparse' solves on the GPU and needs scheme.backend: cuda") !=
        std::string::npos);
  CHECK(fhn::test::config_error("output: {newton_log: true}\n")
            .find("output.newton_log: Newton iterations exist only with scheme.type: crank_nicolson") !=
        std::string::npos);
  CHECK(fhn::test::config_error("scheme: {crank_nicolson: {w_update: euler}}\n")
            .find("expected one of: trapezoidal, leapfrog") != std::string::npos);
  CHECK(fhn::test::config_error("scheme: {type: crank_nicolson, backend: cuda, crank_nicolson: {tridiagonal: thomas}}\n")
            .find("'thomas' runs on the CPU; with scheme.backend: cuda use partitioned, cyclic_reduction, cusparse or cusparse_pivot") !=
        std::string::npos);
  CHECK(fhn::test::config_from("scheme: {type: crank_nicolson, backend: cuda}\n").scheme.crank_nicolson.tridiagonal ==
        fhn::solvers::TridiagonalBackend::partitioned);
  CHECK(fhn::test::config_from("scheme: {type: crank_nicolson}\n").scheme.crank_nicolson.tridiagonal ==
        fhn::solvers::TridiagonalBackend::thomas);
  // The explicit limit does not apply to the implicit scheme.
  CHECK_NOTHROW(fhn::test::config_from("scheme: {type: crank_nicolson}\ntime: {dt: 1}\n"));
}
