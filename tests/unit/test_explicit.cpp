// The explicit forward Euler scheme: one step against hand-computed values, symmetry, and the
// observed orders of accuracy (1 in time, 2 in space).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "schemes/explicit_cpu.hpp"
#include "study/convergence.hpp"
#include "support.hpp"

namespace {

// Five nodes, dx = 1, dt = 0.1, a = 0.1, eps = 0.5, gamma = 2, D = 1;
// v = (0, 0.5, 1, 0.5, 0), w = 0.2 everywhere.
fhn::Problem five_node_problem() {
  fhn::Problem p;
  p.model = {fhn::CubicKinetics{0.1, 0.5, 2.0}, 1.0};
  p.domain = fhn::cable(5, 1.0);
  p.time.dt = 0.1;
  p.v0 = {0.0, 0.5, 1.0, 0.5, 0.0};
  p.w0 = std::vector<double>(5, 0.2);
  return p;
}

fhn::Snapshot one_step(const fhn::Problem& p) {
  fhn::ExplicitCpu scheme(p);
  scheme.advance(1);
  fhn::Snapshot s;
  scheme.snapshot(s);
  return s;
}

void check_values(const std::vector<double>& got, const std::vector<double>& expected) {
  REQUIRE(got.size() == expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    CAPTURE(i);
    CHECK(got[i] == doctest::Approx(expected[i]).epsilon(1e-14));
  }
}

}  // namespace

TEST_CASE("explicit step matches hand-computed values") {
  // Node 2: L_h v = 0.5 - 2 + 0.5 = -1, f(1) = 0      -> v+ = 1 + 0.1 (-1 + 0 - 0.2) = 0.88
  //         w+ = 0.2 + 0.1 * 0.5 (1 - 2 * 0.2) = 0.23
  // Node 1: L_h v = 0 - 1 + 1 = 0, f(0.5) = 0.5 * 0.5 * 0.4 = 0.1 -> v+ = 0.5 + 0.1 (0.1 - 0.2) = 0.49
  //         w+ = 0.2 + 0.05 (0.5 - 0.4) = 0.205
  // Node 0 (ghost mirror): L_h v = 2 (0.5 - 0) = 1 -> v+ = 0.1 (1 - 0.2) = 0.08,
  //         w+ = 0.2 + 0.05 (0 - 0.4) = 0.18
  const fhn::Snapshot s = one_step(five_node_problem());
  check_values(s.v, {0.08, 0.49, 0.88, 0.49, 0.08});
  check_values(s.w, {0.18, 0.205, 0.23, 0.205, 0.18});
  CHECK(s.step == 1);
  CHECK(s.t == doctest::Approx(0.1));
}

TEST_CASE("first-order no-flux copies the neighbour, Dirichlet holds the value") {
  fhn::Problem p = five_node_problem();
  p.boundary.no_flux_order = 1;
  check_values(one_step(p).v, {0.49, 0.49, 0.88, 0.49, 0.49});

  p = five_node_problem();
  p.boundary.left = {fhn::BoundaryType::dirichlet, 1.0};
  const fhn::Snapshot s = one_step(p);
  check_values(s.v, {1.0, 0.49, 0.88, 0.49, 0.08});
  CHECK(s.w[0] == doctest::Approx(0.18));  // w keeps following its ODE at a Dirichlet node
}

TEST_CASE("a stimulus adds dt * amplitude while it is on") {
  fhn::Problem p = five_node_problem();
  fhn::Stimulus on{1.5, 2.5, 0.0, 1.0, 0.5, 0.0, 1};
  p.stimuli = fhn::StimulusSchedule({on}, p.domain, p.time.dt);
  check_values(one_step(p).v, {0.08, 0.49, 0.93, 0.49, 0.08});

  fhn::Stimulus later{1.5, 2.5, 0.1, 1.0, 0.5, 0.0, 1};  // starts after the first step
  p.stimuli = fhn::StimulusSchedule({later}, p.domain, p.time.dt);
  check_values(one_step(p).v, {0.08, 0.49, 0.88, 0.49, 0.08});
}

TEST_CASE("stimulus schedule: pulses, periods and edges on step boundaries") {
  const double dt = 0.1;
  fhn::Stimulus s{0.0, 1.0, 1.0, 0.5, 1.0, 2.0, 3};  // on [1, 1.5), [3, 3.5), [5, 5.5)
  const fhn::StimulusSchedule schedule({s}, fhn::cable(11, 0.5), dt);
  const fhn::NodeStimulus& ns = schedule.stimuli().front();
  CHECK(ns.first == 0);
  CHECK(ns.last == 2);  // x = 0, 0.5, 1.0
  auto on_at = [&](int step) { return schedule.active(ns, step * dt); };
  CHECK_FALSE(on_at(9));
  CHECK(on_at(10));
  CHECK(on_at(14));
  CHECK_FALSE(on_at(15));
  CHECK(on_at(30));
  CHECK(on_at(54));
  CHECK_FALSE(on_at(55));
  CHECK_FALSE(on_at(70));  // a fourth pulse would start at t = 7, but count = 3
}

TEST_CASE("a centred Gaussian stays symmetric to round-off") {
  const fhn::Config c = fhn::test::config_from("time: {end: 50, dt: 0.1}\n");
  const fhn::Snapshot s = fhn::final_state(c);
  const std::size_t n = s.v.size();
  double worst = 0.0;
  for (std::size_t i = 0; i < n; ++i) worst = std::max(worst, std::abs(s.v[i] - s.v[n - 1 - i]));
  CHECK(worst < 1e-13);
  CHECK(*std::max_element(s.v.begin(), s.v.end()) > 0.5);  // the pulses are still there
}

namespace {
// A smooth suprathreshold bump on a short axon, run to t = 1.
const char* kSmallCase =
    "domain: {length: 20}\n"
    "initial: {v: {type: gaussian, center: 8, width2: 4}}\n"
    "time: {end: 1}\n"
    "output: {every: 1}\n";
}  // namespace

TEST_CASE("explicit scheme is first order in time") {
  fhn::test::check_orders(fhn::test::refinement(kSmallCase, {"domain.nodes=81"}, "time.dt",
                                                {"0.025", "0.0125", "0.00625", "0.003125"}),
                          1.0);
}

TEST_CASE("explicit scheme is second order in space") {
  // dt fixed at the finest grid's diffusion limit, so the time error is common to all levels and
  // cancels (above the limit with the reaction's slope, 0.0019512: a mode growing by at most
  // e^(1 - a) over t = 1 does not show).
  fhn::test::check_orders(fhn::test::refinement(kSmallCase, {"time.dt=0.001953125", "scheme.explicit_limit=diffusion"}, "domain.nodes",
                                                {"41", "81", "161", "321"}),
                          2.0);
}

TEST_CASE("observed order and common-node distance on a known error") {
  // u_h = x^2 + h^2 on grids of spacing h and h/2: the difference is 3 h^2 / 4 everywhere.
  fhn::Snapshot coarse, fine;
  coarse.domain = fhn::cable(5, 0.5);
  fine.domain = fhn::cable(9, 0.25);
  for (int i = 0; i <= 4; ++i) coarse.v.push_back(0.25 * i * i + 0.25);
  for (int i = 0; i <= 8; ++i) fine.v.push_back(0.0625 * i * i + 0.0625);
  CHECK(fhn::distance_on_common_nodes(coarse, fine, fhn::Norm::max) == doctest::Approx(0.1875));
  CHECK(fhn::distance_on_common_nodes(coarse, fine, fhn::Norm::rmse) == doctest::Approx(0.1875));
  CHECK(fhn::observed_order(0.1875, 0.1875 / 4.0) == doctest::Approx(2.0));
}
