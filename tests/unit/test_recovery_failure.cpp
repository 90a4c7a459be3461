// The Newton recovery of the trapezoidal w+ (schemes/trapezoidal_w_point.hpp) where its equation
//   phi(x) = x - h g(u, x) - p = 0
// has no real root: newton_w returns NaN rather than its last iterate, and the Crank-Nicolson
// and ADI Newton iterations fail the step through their stopping rule (a norm that is not a
// number), naming it. Where a root exists the recovery finds it.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "core/error.hpp"
#include "model/problem.hpp"
#include "schemes/scheme.hpp"
#include "schemes/trapezoidal_w_point.hpp"
#include "support.hpp"

namespace {

using fhn::real;

// A test-only form with g(v, w) = w^2 + 1 (f and v play no part in the recovery): no closed
// form, so newton_w iterates on
//   phi(x) = x - h (x^2 + 1) - p,   i.e.   h x^2 - x + (h + p) = 0,
// whose discriminant is 1 - 4 h (h + p). Negative: phi = -h [(x - 1/(2h))^2 + (4h(h + p) - 1)
// / (4h^2)] stays below 0, no root. Positive: the root Newton reaches from x = p (left of phi's
// vertex 1/(2h), where phi' = 1 - 2 h x > 0) is the smaller one,
//   x = (1 - sqrt(1 - 4 h (h + p))) / (2h) = 2 (h + p) / (1 + sqrt(1 - 4 h (h + p))),
// the second spelling free of the cancellation of the first for small h.
struct SquareRecovery {
  real g(real, real w) const { return w * w + 1.0; }
  fhn::Jacobian jacobian(real, real w) const { return {0.0, 0.0, 0.0, 2.0 * w}; }
};
static_assert(!fhn::kClosedFormW<SquareRecovery>);

real discriminant(real h, real p) { return 1.0 - 4.0 * h * (h + p); }

}  // namespace

TEST_CASE("the Newton recovery of w+ returns NaN where phi has no real root") {
  struct Case {
    real h, p;
  };
  // Discriminants -3, -1, -0.25 and -0.04: phi's largest value is -3/4, -1/2, -1/4, -1/10.
  // (0.25, 1) steps from x = p = 1 onto the vertex x = 2, where phi' = 0: an infinite step.
  for (const Case c : {Case{1.0, 0.0}, Case{0.5, 0.5}, Case{0.25, 1.0}, Case{0.1, 2.5}}) {
    CAPTURE(c.h);
    CAPTURE(c.p);
    REQUIRE(discriminant(c.h, c.p) < 0.0);
    CHECK(std::isnan(fhn::newton_w(SquareRecovery{}, 0.0, c.p, c.h)));
    // What the schemes call: trapezoidal_w_at (w+) and trapezoidal_moving (f and its slope).
    CHECK(std::isnan(fhn::trapezoidal_w_at(SquareRecovery{}, 0.0, c.p, c.h)));
  }
}

TEST_CASE("the Newton recovery of w+ finds phi's root where it has one") {
  struct Case {
    real h, p;
  };
  // Discriminants 0.96, 0.9596, 1.64 and 0.8.
  for (const Case c : {Case{0.1, 0.0}, Case{0.01, 1.0}, Case{0.2, -1.0}, Case{0.05, 0.95}}) {
    CAPTURE(c.h);
    CAPTURE(c.p);
    const real d = discriminant(c.h, c.p);
    REQUIRE(d > 0.0);
    const real root = 2.0 * (c.h + c.p) / (1.0 + std::sqrt(d));
    const real w = fhn::newton_w(SquareRecovery{}, 0.0, c.p, c.h);
    CHECK(std::abs(w - root) <= 1e-14 * (1.0 + std::abs(root)));
  }
}

TEST_CASE("Crank-Nicolson and ADI fail the step whose recovery of w+ has no root, naming it") {
  // Aliev-Panfilov (kinetics/aliev_panfilov.hpp) at rest in v, v = 0, with w = -1 below its
  // invariant region: g(0, w) = e(0, w) r(0, w) = (eps0 + (mu1/mu2) w)(-w), so with the paper's
  // eps0 = 0.002 and mu1/mu2 = 2/3, and c the recovery's h (k/2 for Crank-Nicolson's step k;
  // k/4 for ADI's, whose reaction half-steps are k/2 long),
  //   p = w + c g(0, w) = -1 + c (0.002 - 2/3),
  //   phi(x) = x - c (eps0 + (2/3) x)(-x) - p = (2/3) c x^2 + (1 + 0.002 c) x - p,
  // a parabola with discriminant (1 + 0.002 c)^2 + (8/3) c p. At c = 1/2 (Crank-Nicolson's
  // k = 1, ADI's k = 2): p = -1.3323..., discriminant 1.002001 - 1.7764... = -0.7744... < 0, so
  // phi has no root at the first Newton iterate u = v = 0 of every node.
  const std::string yaml =
      "model: {form: aliev_panfilov, diffusion: 1}\n"
      "domain: {length: 10, nodes: 11}\n"
      "initial: {v: {type: constant, value: 0}, w: {type: constant, value: -1}}\n"
      "time: {end: 4}\n"
      "output: {every: 4}\n";
  auto failure = [&](const std::vector<std::string>& scheme) {
    const fhn::Config c = fhn::test::config_from(yaml, scheme);
    const std::unique_ptr<fhn::Scheme> s = fhn::make_scheme(c, fhn::make_problem(c));
    return fhn::test::thrown_message<fhn::NumericalError>([&] { s->advance(1); });
  };
  const std::string cn = failure({"scheme.type=crank_nicolson", "time.dt=1"});
  CHECK(fhn::test::contains(cn, "Newton did not converge in step 0 (t = 0 -> 1): "));
  CHECK(fhn::test::contains(cn, "iteration 1: ||du||_inf = nan, ||F||_inf = nan"));
  const std::string adi = failure(
      {"scheme.type=crank_nicolson", "scheme.crank_nicolson.formulation=adi", "time.dt=2"});
  CHECK(fhn::test::contains(adi, "Newton did not converge in step 0 (t = 0 -> 2): "));
  CHECK(fhn::test::contains(adi, "iteration 1: ||du||_inf = nan, ||F||_inf = nan"));
  // At c = 1/4 (Crank-Nicolson's k = 1/2): p = -1.1661..., discriminant 1.0005^2 - (2/3)
  // 1.1661... = 0.2236... > 0, and the same state steps.
  CHECK(failure({"scheme.type=crank_nicolson", "time.dt=0.5"}).empty());
}
