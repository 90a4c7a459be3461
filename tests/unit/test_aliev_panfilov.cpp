// The Aliev-Panfilov form (kinetics/aliev_panfilov.hpp): a form with five parameters whose g is
// not affine in w, added with one header and one registry line. Its trapezoidal w update is the
// schemes' Newton recovery (schemes/trapezoidal_w_point.hpp), which on an affine form agrees
// with that form's closed form to round-off; explicit, Crank-Nicolson (cable) and ADI (sheet)
// run the form and converge at their orders. Its pieces against its f and g are in
// test_kinetics.cpp and its uniform state against the ODE in test_forms.cpp, with every form's.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "kinetics/kinetics.hpp"
#include "model/excursion.hpp"
#include "schemes/trapezoidal_w_point.hpp"
#include "support.hpp"

namespace {

using fhn::real;

// The recovery of w+ on an affine form K by Newton's iteration against K's closed form, at
// random states: W(u) and W'(u) = c agree to a few units of round-off.
template <class K>
void check_newton_against_closed_form(const K& kin) {
  static_assert(fhn::kClosedFormW<K>);
  std::mt19937_64 rng(46);
  std::uniform_real_distribution<real> state(-0.5, 1.5), step(1e-3, 1.0);
  for (int sample = 0; sample < 500; ++sample) {
    const real v = state(rng), w = 0.5 * state(rng), u = state(rng), k = step(rng);
    CAPTURE(v);
    CAPTURE(w);
    CAPTURE(u);
    CAPTURE(k);
    const auto trap = kin.trapezoidal(k);
    const real closed = trap.offset(v, w) + trap.c * u;
    const real h = 0.5 * k;  // the Newton recovery's c
    const real p = w + h * kin.g(v, w);
    const real newton = fhn::newton_w(kin, u, p, h);
    CHECK(std::abs(newton - closed) <= 1e-14 * (1.0 + std::abs(closed)));
    const real slope = fhn::newton_w_slope(kin.jacobian(u, newton), h);
    CHECK(std::abs(slope - trap.c) <= 1e-14 * std::abs(trap.c));
    // A leapfrog step (c = 0) knows w+ beforehand: W(u) = p, exactly.
    CHECK(fhn::newton_w(kin, u, p, 0.0) == p);
  }
}

}  // namespace

TEST_CASE("the Newton recovery of w+ agrees with the closed form on every affine form") {
  check_newton_against_closed_form(fhn::CubicKinetics{});
  check_newton_against_closed_form(fhn::CubicKinetics{0.13, 0.2, 3.0});
  check_newton_against_closed_form(fhn::FitzHughKinetics{});
  check_newton_against_closed_form(fhn::BarkleyKinetics{});
}

TEST_CASE("Aliev-Panfilov has five parameters and no closed-form w update") {
  static_assert(fhn::parameter_count<fhn::AlievPanfilovKinetics>() == 5);
  static_assert(fhn::parameter_count<fhn::CubicKinetics>() == 3);
  static_assert(fhn::parameter_count<fhn::FitzHughKinetics>() == 4);
  static_assert(fhn::kMaxFormParameters == 5);
  static_assert(!fhn::kClosedFormW<fhn::AlievPanfilovKinetics>);
  const fhn::Config c = fhn::test::config_from(
      "model: {form: aliev_panfilov, k: 7, a: 0.1, eps0: 0.01, mu1: 0.12, mu2: 0.25}\n"
      "time: {dt: 0.01}\n");
  const auto& kin = c.model.form<fhn::AlievPanfilovKinetics>();
  CHECK(kin.k == 7.0);
  CHECK(kin.a == 0.1);
  CHECK(kin.eps0 == 0.01);
  CHECK(kin.mu1 == 0.12);
  CHECK(kin.mu2 == 0.25);
  CHECK(fhn::kinetics_parameters_text(c.model.kinetics) ==
        "k = 7, a = 0.1, eps0 = 0.01, mu1 = 0.12, mu2 = 0.25");
  CHECK(fhn::test::contains(
      fhn::test::config_error("model: {form: aliev_panfilov, mu2: 0}\ntime: {dt: 0.01}\n"),
      "model.mu2"));
  // a = 0: f's and g's nullclines coincide; a `rest` start refuses it by the key.
  CHECK(fhn::test::contains(
      fhn::test::config_error("model: {form: aliev_panfilov, a: 0}\n"
                              "initial: {v: {type: rest}, w: {type: rest}}\n"
                              "time: {dt: 0.01}\n"),
      "model.a = 0: the nullclines w = k v (1 - v) of f and g coincide"));
}

TEST_CASE("Aliev-Panfilov rests at (0, 0) and its excursion from there returns to rest") {
  // (0, 0) is a fixed point at the ends of the parameters' intervals (a > 0).
  for (const real k : {1e-3, 8.0, 100.0})
    for (const real a : {1e-3, 0.15, 1.0})
      for (const real mu1 : {0.0, 0.2, 5.0}) {
        const fhn::AlievPanfilovKinetics kin{k, a, 0.002, mu1, 0.3};
        const fhn::NodeState rest = kin.rest();
        CHECK(kin.f(rest.v, rest.w) == 0.0);
        CHECK(kin.g(rest.v, rest.w) == 0.0);
        CHECK(kin.rest_issue().key.empty());
      }
  // The kick above levels().v = 1/2 fires an action potential whose path leaves the invariant
  // region [0, 1] x [0, k (1 + a)^2 / 4] nowhere and ends back near rest (a spiral start lays it
  // out, model/excursion.hpp).
  const fhn::AlievPanfilovKinetics kin{};
  const fhn::Excursion e = fhn::form_excursion(kin);
  CHECK(e.states.size() == 2048);
  CHECK(e.states.front().v == 0.75);
  CHECK(std::abs(e.states.back().v) < 0.01);
  real v_max = 0.0, w_max = 0.0;
  for (const fhn::NodeState& s : e.states) {
    CHECK(s.v >= 0.0);
    CHECK(s.w >= 0.0);
    v_max = std::max(v_max, s.v);
    w_max = std::max(w_max, s.w);
  }
  CHECK(v_max <= 1.0);
  CHECK(v_max > 0.9);  // excited
  CHECK(w_max <= kin.w_max());
  CHECK(w_max > kin.levels().w);  // the wave's loop encircles the tip level
  MESSAGE("Aliev-Panfilov excursion: duration ", e.duration, ", largest w ", w_max);
}

TEST_CASE("Aliev-Panfilov runs explicit, Crank-Nicolson and ADI and converges at their orders") {
  // A bump above the threshold a = 0.15 starting a wave, to t = 2 (the upstroke and the front's
  // first steps); the time step halved on a fixed grid: explicit first order, Crank-Nicolson on
  // a cable and ADI (Strang splitting, Peaceman-Rachford) on a sheet second order.
  const std::string model = "model: {form: aliev_panfilov, diffusion: 1}\n"
                            "time: {end: 2}\n"
                            "output: {every: 2}\n";
  const std::string cable = model +
                            "domain: {length: 10, nodes: 41}\n"
                            "initial: {v: {type: gaussian, center: 5, width2: 2, amplitude: 0.6},"
                            " w: {type: constant, value: 0}}\n";
  const std::string sheet = model +
                            "domain: {length: [5, 5], nodes: [21, 21]}\n"
                            "initial: {v: {type: gaussian, center: [2.5, 2.5], width2: 1,"
                            " amplitude: 0.6}, w: {type: constant, value: 0}}\n";
  const auto explicit_orders = fhn::test::check_orders(
      fhn::test::refinement(cable + "scheme: {type: explicit}\n", {}, "time.dt",
                            {"0.008", "0.004", "0.002", "0.001"}),
      1.0);
  const auto cn_orders = fhn::test::check_orders(
      fhn::test::refinement(cable + "scheme: {type: crank_nicolson}\n", {}, "time.dt",
                            {"0.04", "0.02", "0.01", "0.005"}),
      2.0);
  const auto adi_orders = fhn::test::check_orders(
      fhn::test::refinement(
          sheet + "scheme: {type: crank_nicolson, crank_nicolson: {formulation: adi}}\n", {},
          "time.dt", {"0.04", "0.02", "0.01", "0.005"}),
      2.0);
  MESSAGE("orders in time: explicit ", explicit_orders[0], ", ", explicit_orders[1],
          "; crank_nicolson ", cn_orders[0], ", ", cn_orders[1], "; adi ", adi_orders[0], ", ",
          adi_orders[1]);
}
