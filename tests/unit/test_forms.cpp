// The kinetics forms other than the cubic one (FitzHugh's), run by the schemes: a spatially
// uniform state follows the ODE of the form's kinetics (against RK4 written here from the
// published formulas, not from src/kinetics/) at each scheme's order, and the FitzHugh
// oscillator's limit-cycle period matches the ODE's to 0.1%.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "config/loader.hpp"
#include "model/problem.hpp"
#include "schemes/scheme.hpp"
#include "support.hpp"

namespace {

using fhn::real;

struct Point {
  real v, w;
};
using Rhs = std::function<Point(real, real)>;

// Classic RK4 from (v, w) over `steps` steps of h; record(t, v) after every step.
Point rk4(Rhs f, Point x, real h, long steps, const std::function<void(real, real)>& record = {}) {
  for (long n = 0; n < steps; ++n) {
    const Point k1 = f(x.v, x.w);
    const Point k2 = f(x.v + 0.5 * h * k1.v, x.w + 0.5 * h * k1.w);
    const Point k3 = f(x.v + 0.5 * h * k2.v, x.w + 0.5 * h * k2.w);
    const Point k4 = f(x.v + h * k3.v, x.w + h * k3.w);
    x.v += h / 6.0 * (k1.v + 2.0 * k2.v + 2.0 * k3.v + k4.v);
    x.w += h / 6.0 * (k1.w + 2.0 * k2.w + 2.0 * k3.w + k4.w);
    if (record) record(static_cast<real>(n + 1) * h, x.v);
  }
  return x;
}

// The mean period of the upward crossings of v = level after t_from (linear interpolation).
struct Crossings {
  Crossings(real level_, real t_from_) : level(level_), t_from(t_from_) {}
  real level, t_from;
  real last_t = 0.0, last_v = 0.0;
  std::vector<real> times;
  void operator()(real t, real v) {
    if (t > t_from && last_v < level && v >= level)
      times.push_back(last_t + (level - last_v) / (v - last_v) * (t - last_t));
    last_t = t;
    last_v = v;
  }
  real period() const {
    REQUIRE(times.size() >= 3);
    return (times.back() - times.front()) / static_cast<real>(times.size() - 1);
  }
};

// v at node `node` after every step of the config's scheme, through record(t, v).
fhn::Snapshot run(const fhn::Config& c, fhn::index_t node,
                  const std::function<void(real, real)>& record = {}) {
  const fhn::Problem p = fhn::make_problem(c);
  auto scheme = fhn::make_scheme(c, p);
  fhn::Snapshot s;
  for (fhn::index_t n = 0; n < p.time.steps; ++n) {
    scheme->advance(1);
    if (record) {
      scheme->snapshot(s);
      record(s.t, s.v[static_cast<std::size_t>(node)]);
    }
  }
  scheme->snapshot(s);
  return s;
}

const char* kSchemes[][2] = {{"explicit", "scheme: {type: explicit}\n"},
                             {"crank_nicolson", "scheme: {type: crank_nicolson}\n"},
                             {"adi", "scheme: {type: crank_nicolson, crank_nicolson: {formulation: adi}}\n"}};

}  // namespace

TEST_CASE("a uniform state of each form follows the form's ODE at each scheme's order") {
  // FitzHugh (1961) kinetics as published, with a constant current I on v (a stimulus covering
  // the cable for the whole run).
  struct Form {
    const char* model;
    real v0, w0, current, end;
    Rhs rhs;
  };
  const Form forms[] = {
      {"model: {form: fitzhugh}\n", -1.0, -0.4, 0.5, 20.0,
       [](real v, real w) { return Point{v - v * v * v / 3.0 - w + 0.5, (v + 0.7 - 0.8 * w) / 12.5}; }},
  };
  for (const Form& form : forms) {
    const std::string model = form.model;
    CAPTURE(model);
    const Point exact = rk4(form.rhs, {form.v0, form.w0}, 1e-4, static_cast<long>(form.end / 1e-4));
    for (const auto& scheme : kSchemes) {
      const std::string name = scheme[0];
      CAPTURE(name);
      const bool explicit_scheme = name == "explicit";
      // Errors at dt and dt/2: their ratio is 2^order.
      real errors[2];
      for (int k = 0; k < 2; ++k) {
        const real dt = (explicit_scheme ? 0.004 : 0.02) / static_cast<real>(1 << k);
        std::string yaml = std::string(form.model) + scheme[1] +
                           "domain: {length: 2, nodes: 5}\n"
                           "initial: {v: {type: constant, value: " + std::to_string(form.v0) +
                           "}, w: {type: constant, value: " + std::to_string(form.w0) + "}}\n"
                           "time: {end: " + std::to_string(form.end) + ", dt: " +
                           std::to_string(dt) + "}\n"
                           "output: {every: " + std::to_string(form.end) + "}\n";
        if (form.current != 0.0)
          yaml += "stimulus: [{x_min: 0, x_max: 2, start: 0, duration: 1000, amplitude: " +
                  std::to_string(form.current) + "}]\n";
        const fhn::Snapshot s = run(fhn::test::config_from(yaml), 2);
        for (std::size_t i = 1; i < s.v.size(); ++i)  // still uniform, to the solves' rounding
          CHECK(std::abs(s.v[i] - s.v[0]) <= 1e-12);
        errors[k] = std::max(std::abs(s.v[2] - exact.v), std::abs(s.w[2] - exact.w));
      }
      const real order = std::log2(errors[0] / errors[1]);
      MESSAGE(model, name, ": error ", errors[0], " at dt, ", errors[1], " at dt/2, order ", order);
      CAPTURE(errors[0]);
      CAPTURE(errors[1]);
      CHECK(order == doctest::Approx(explicit_scheme ? 1.0 : 2.0).epsilon(0.1));
      CHECK(errors[1] < (explicit_scheme ? 0.05 : 5e-3));
    }
  }
}

TEST_CASE("the FitzHugh oscillator's limit-cycle period matches the ODE's to 0.1%") {
  // FitzHugh (1961): a = 0.7, b = 0.8, tau_w = 12.5, I = 0.5, from near the rest state of I = 0.
  const auto ode = [](real v, real w) {
    return Point{v - v * v * v / 3.0 - w + 0.5, (v + 0.7 - 0.8 * w) / 12.5};
  };
  Crossings reference(0.0, 100.0);
  rk4(ode, {-1.2, -0.6}, 1e-3, 400000, std::ref(reference));
  const real period = reference.period();
  CHECK(period > 30.0);
  CHECK(period < 45.0);
  Crossings scheme(0.0, 100.0);
  run(fhn::test::config_from("model: {form: fitzhugh}\n"
                             "domain: {length: 2, nodes: 5}\n"
                             "initial: {v: {type: constant, value: -1.2}, w: {type: constant, value: -0.6}}\n"
                             "stimulus: [{x_min: 0, x_max: 2, start: 0, duration: 1000, amplitude: 0.5}]\n"
                             "time: {end: 400, dt: 0.01}\n"
                             "scheme: {type: crank_nicolson}\n"
                             "output: {every: 400}\n"),
      2, std::ref(scheme));
  MESSAGE("limit-cycle period: RK4 (h = 1e-3) ", period, ", crank_nicolson (dt = 0.01) ",
          scheme.period());
  CHECK(scheme.period() == doctest::Approx(period).epsilon(1e-3));
}

TEST_CASE("initial: {type: rest} starts from the form's resting state") {
  // FitzHugh's (a = 0.7, b = 0.8): v - v^3/3 = (v + a)/b, w = (v + a)/b; about (-1.1994, -0.6243).
  const fhn::Problem fitzhugh = fhn::make_problem(fhn::test::config_from(
      "model: {form: fitzhugh}\n"
      "initial: {v: {type: rest}, w: {type: rest}}\n"
      "time: {dt: 0.05}\n"));
  const real v = fitzhugh.v0[7], w = fitzhugh.w0[7];
  CHECK(v - v * v * v / 3.0 - w == doctest::Approx(0.0).scale(1.0).epsilon(1e-14));
  CHECK(v + 0.7 - 0.8 * w == doctest::Approx(0.0).scale(1.0).epsilon(1e-14));
  CHECK(v == doctest::Approx(-1.1994).epsilon(1e-4));
  CHECK(w == doctest::Approx(-0.6243).epsilon(1e-4));
  for (std::size_t i = 0; i < fitzhugh.v0.size(); ++i) CHECK(fitzhugh.v0[i] == v);
  // The cubic form rests at 0; a key on a rest profile is a located error.
  const fhn::Problem cubic =
      fhn::make_problem(fhn::test::config_from("initial: {v: {type: rest}, w: {type: rest}}\n"));
  CHECK(cubic.v0[3] == 0.0);
  CHECK(cubic.w0[3] == 0.0);
  CHECK(fhn::test::contains(
      fhn::test::config_error("initial: {v: {type: rest, value: 1}}\n"),
      "initial.v.value: not a parameter of a 'rest' profile (its only key: type)"));
}
