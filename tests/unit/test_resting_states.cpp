// Resting states (issue 45, item 6): every form's rest() is a fixed point across its
// parameters' intervals, or says why there is none.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "config/loader.hpp"
#include "model/excursion.hpp"
#include "model/initial.hpp"
#include "model/problem.hpp"
#include "support.hpp"

namespace {

using fhn::test::contains;

// `s` lies on both of FitzHugh's nullclines, F(v) = w and v + a = b w, to round-off relative to
// the terms of each.
void check_fixed_point(const fhn::FitzHughKinetics& k, const fhn::NodeState& s) {
  REQUIRE(std::isfinite(s.v));
  REQUIRE(std::isfinite(s.w));
  const double f = fhn::FitzHughKinetics::cubic(s.v);
  CHECK(std::abs(f - s.w) <= 1e-13 * std::max({1.0, std::abs(f), std::abs(s.w)}));
  CHECK(std::abs(s.v + k.a - k.b * s.w) <=
        1e-13 * std::max({1.0, std::abs(s.v), std::abs(k.a), std::abs(k.b * s.w)}));
}

}  // namespace

TEST_CASE("FitzHugh's rest is its fixed point at the ends of the parameters' intervals") {
  // a = 0, b = 1: Newton from v = -a starts where h = h' = 0 (the root): the rest is (0, 0),
  // not NaN. b -> 0: v -> -a and w = (v + a) / b is 0/0; w comes from the v-nullcline then.
  const double cases[][2] = {{0.7, 0.8},  {0.0, 1.0},   {0.5, 1.0},   {-3.0, 1.0},
                             {0.7, 0.0},  {0.7, 1e-9},  {0.7, 1e-300}, {0.7, 5e-324},
                             {-0.7, 1e-20}, {1e300, 1.0}, {-1e300, 1.0}, {2.0, 3.0},
                             {1e-300, 1.0}, {0.3, 0.999999}, {1e6, 1e-6}, {30.0, 40.0}};
  for (const auto& c : cases) {
    const fhn::FitzHughKinetics k{c[0], c[1], 1.0, 12.5};
    CAPTURE(c[0]);
    CAPTURE(c[1]);
    CHECK(k.rest_issue().key.empty());
    check_fixed_point(k, k.rest());
  }
  const fhn::NodeState zero = fhn::FitzHughKinetics{0.0, 1.0, 1.0, 12.5}.rest();
  CHECK(zero.v == 0.0);
  CHECK(zero.w == 0.0);
  // b -> 0: w is F(-a), the v-nullcline's, not the 0 that (v + a) / b rounds to.
  CHECK(fhn::FitzHughKinetics{0.7, 1e-300, 1.0, 12.5}.rest().w ==
        doctest::Approx(-0.7 + 0.343 / 3.0).epsilon(1e-15));

  // `initial: rest` with a = 0, b = 1 rests at 0 (before, NaN everywhere, blamed on time.dt).
  const fhn::Problem problem = fhn::make_problem(fhn::test::config_from(
      "model: {form: fitzhugh, a: 0, b: 1}\ndomain: {length: [20, 20], dx: 0.5}\n"
      "time: {end: 1, dt: 0.01}\ninitial: {v: {type: rest}, w: {type: rest}}\n"));
  CHECK(problem.v0 == std::vector<double>(problem.v0.size(), 0.0));
  CHECK(problem.w0 == std::vector<double>(problem.w0.size(), 0.0));
}

TEST_CASE("FitzHugh with b > 1 and three fixed points has no single rest, said at model.b") {
  // b = 2: s = sqrt(1/2), (2/3) b s^3 = 0.4714: |a| <= that gives three crossings.
  const fhn::FitzHughKinetics three{0.1, 2.0, 1.0, 12.5};
  const fhn::RestIssue issue = three.rest_issue();
  CHECK(issue.key == "model.b");
  CHECK(contains(issue.text, "model.a = 0.1, model.b = 2: the nullclines"));
  CHECK(contains(issue.text, "cross three times"));
  CHECK(fhn::FitzHughKinetics{0.5, 2.0, 1.0, 12.5}.rest_issue().key.empty());  // one crossing
  check_fixed_point(fhn::FitzHughKinetics{0.5, 2.0, 1.0, 12.5},
                    fhn::FitzHughKinetics{0.5, 2.0, 1.0, 12.5}.rest());
}

TEST_CASE("the cubic and Barkley forms rest at (0, 0), a fixed point at their intervals' ends") {
  for (const double a : {0.0, 1.0})
    for (const double epsilon : {0.0, 1e300})
      for (const double gamma : {0.0, 1e300}) {
        const fhn::CubicKinetics k{a, epsilon, gamma};
        CHECK(k.rest_issue().key.empty());
        CHECK(k.rest().v == 0.0);
        CHECK(k.rest().w == 0.0);
        CHECK(k.f(0.0, 0.0) == 0.0);
        CHECK(k.g(0.0, 0.0) == 0.0);
      }
  for (const double a : {5e-324, 1e300})
    for (const double b : {-1e300, 0.0, 1e300})
      for (const double eps : {5e-324, 1e300}) {
        const fhn::BarkleyKinetics k{a, b, eps};
        CHECK(k.rest_issue().key.empty());
        CHECK(k.rest().v == 0.0);
        CHECK(k.rest().w == 0.0);
        CHECK(k.g(0.0, 0.0) == 0.0);
      }
}
