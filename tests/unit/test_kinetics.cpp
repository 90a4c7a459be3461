// Every kinetics form against its own f and g: the pieces the schemes combine (add_f, the
// trapezoidal recovery w+ = W(u) in closed form or by Newton's iteration, the split along it, the
// Newton diagonal, the Jacobian) are what they claim to be, checked at random states for each form
// in the registry, and the cubic form's pieces keep the evaluation order of the formulas the
// schemes used before the forms (bit for bit).
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <string>
#include <tuple>
#include <variant>

#include "kinetics/kinetics.hpp"
#include "schemes/trapezoidal_w_point.hpp"

namespace {

using fhn::real;

// The registry's forms as a doctest type list.
template <class Variant>
struct FormList;
template <class... Forms>
struct FormList<std::variant<Forms...>> {
  using type = std::tuple<Forms...>;
};
using Forms = FormList<fhn::Kinetics>::type;

// Central difference of a function of one variable, step h.
template <class F>
real slope(F&& f, real x, real h = 1e-6) {
  return (f(x + h) - f(x - h)) / (2.0 * h);
}

}  // namespace

TEST_CASE_TEMPLATE_DEFINE("a kinetics form's pieces agree with its f and g", Form, form_pieces) {
  const Form kin{};
  std::mt19937_64 rng(20261125);
  // v > -0.1: the Aliev-Panfilov rate has a pole at v = -mu2 = -0.3.
  std::uniform_real_distribution<real> state(-0.1, 1.2), small(0.0, 0.3), step(1e-3, 0.5);
  for (int sample = 0; sample < 200; ++sample) {
    const real v = state(rng), w = small(rng), u = state(rng), sum = state(rng), k = step(rng);
    CAPTURE(v);
    CAPTURE(w);
    CAPTURE(u);
    CHECK(kin.add_f(sum, v, w) == doctest::Approx(sum + kin.f(v, w)).epsilon(1e-13));
    // The Jacobian against central differences.
    const fhn::Jacobian j = kin.jacobian(v, w);
    CHECK(j.f_v == doctest::Approx(slope([&](real x) { return kin.f(x, w); }, v)).epsilon(1e-7));
    CHECK(j.f_w == doctest::Approx(slope([&](real x) { return kin.f(v, x); }, w)).epsilon(1e-7));
    CHECK(j.g_v == doctest::Approx(slope([&](real x) { return kin.g(x, w); }, v)).epsilon(1e-7));
    CHECK(j.g_w == doctest::Approx(slope([&](real x) { return kin.g(v, x); }, w)).epsilon(1e-7));
    // w+ = W(u) solves the trapezoidal rule w+ = w + (k/2) (g(v, w) + g(u, w+)).
    const auto trap = fhn::trapezoidal_w(kin, k);
    const real p = fhn::trapezoidal_offset(trap, v, w, kin);
    const real w_new = fhn::trapezoidal_w_at(kin, u, p, trap.c);
    CHECK(w_new == doctest::Approx(w + 0.5 * k * (kin.g(v, w) + kin.g(u, w_new))).epsilon(1e-13));
    // f along w = W(u): the moving and fixed parts sum to f, the slope is d/du.
    auto along = [&](real x) { return kin.f(x, fhn::trapezoidal_w_at(kin, x, p, trap.c)); };
    const fhn::Moving moving = fhn::trapezoidal_moving(kin, u, p, trap.c);
    CHECK(moving.value + fhn::trapezoidal_fixed(kin, p, trap.c) ==
          doctest::Approx(along(u)).epsilon(1e-12));
    CHECK(moving.slope == doctest::Approx(slope(along, u)).epsilon(1e-7));
    // Crank-Nicolson's Newton diagonal: sum - (1/2) d/du f(u, W(u)).
    CHECK(fhn::trapezoidal_minus_half_df(kin, sum, u, w_new, trap.c) ==
          doctest::Approx(sum - 0.5 * slope(along, u)).epsilon(1e-7));
  }
  // The resting state is a fixed point.
  const fhn::NodeState rest = kin.rest();
  CHECK(kin.f(rest.v, rest.w) == doctest::Approx(0.0));
  CHECK(kin.g(rest.v, rest.w) == doctest::Approx(0.0));
  // Its parameters are named once each and the registry finds it by name.
  fhn::Kinetics made;
  REQUIRE(fhn::make_kinetics(Form::kName, made));
  CHECK(std::holds_alternative<Form>(made));
}
TEST_CASE_TEMPLATE_APPLY(form_pieces, Forms);

TEST_CASE("the cubic form evaluates in the order the schemes used before the forms") {
  const fhn::CubicKinetics kin{0.13, 0.02, 1.7};
  const real a = kin.a, eps = kin.epsilon, gamma = kin.gamma;
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<real> x(-0.3, 1.2);
  for (int sample = 0; sample < 100; ++sample) {
    const real v = x(rng), w = 0.2 * x(rng), d = x(rng), k = 0.1 + 0.01 * x(rng), c = 0.01 * x(rng);
    const real cubic = v * (1.0 - v) * (v - a);
    const real slope = (-3.0 * v + 2.0 * (1.0 + a)) * v - a;
    CHECK(kin.add_f(d, v, w) == d + cubic - w);
    CHECK(kin.g(v, w) == eps * (v - gamma * w));
    const real denominator = 1.0 + 0.5 * k * eps * gamma;
    const auto trap = kin.trapezoidal(k);
    CHECK(trap.keep == (1.0 - 0.5 * k * eps * gamma) / denominator);
    CHECK(trap.c == 0.5 * k * eps / denominator);
    CHECK(trap.offset(v, w) == trap.keep * w + trap.c * v);
    CHECK(kin.f_moving(v, w, c).value == cubic - c * v);
    CHECK(kin.f_moving(v, w, c).slope == slope - c);
    CHECK(d + kin.f_fixed(w, c) == d - w);
    CHECK(kin.add_minus_half_df(d, v, w, c) == d + 0.5 * c - 0.5 * slope);
  }
  CHECK(kin.max_df_dv() == doctest::Approx((1.0 - 0.13 + 0.13 * 0.13) / 3.0));
  CHECK(fhn::kinetics_names() ==
        std::vector<std::string>{"cubic", "fitzhugh", "barkley", "aliev_panfilov"});
}
