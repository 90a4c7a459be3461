#pragma once
// The classic FitzHugh form (model.form: fitzhugh), FitzHugh (1961), Biophys. J. 1, 445-466:
//   f(v, w) = (v - v^3/3 - w) / tau_v,   g(v, w) = (v + a - b w) / tau_w,
// with the textbook values a = 0.7, b = 0.8, tau_v = 1, tau_w = 12.5 (FitzHugh's w' = 0.08 (v +
// 0.7 - 0.8 w)). A stimulus adds to v_t outside f, as for every form: FitzHugh's constant current
// I is a stimulus. Winfree's scaling (Winfree 1991, Chaos 1, 303-334),
//   u_t = (u - u^3/3 - v) / eps + lap u,   v_t = eps (u + beta - gamma v),
// is this form with tau_v = eps, tau_w = 1 / eps, a = beta, b = gamma (configs/README.md).
// docs/ARCHITECTURE.md section 4 says what each member computes.
#include <algorithm>
#include <cmath>

#include "core/interval.hpp"
#include "kinetics/kinetics_types.hpp"

namespace fhn {

struct FitzHughKinetics {
  static constexpr const char* kName = "fitzhugh";
  static constexpr bool kConfined = false;
  static constexpr const char* kTimeScaleKey = "tau_v";  // f = (F(v) - w) / tau_v (cubic.hpp)

  real a = 0.7;
  real b = 0.8;
  real tau_v = 1.0;
  real tau_w = 12.5;

  template <class Self, class Visit>
  FHN_HOST_DEVICE static constexpr void parameters(Self& k, Visit&& visit) {
    visit("a", k.a, any_number());
    visit("b", k.b, non_negative());
    visit("tau_v", k.tau_v, positive());
    visit("tau_w", k.tau_w, positive());
  }

  // F(v) = v - v^3/3 and F'(v) = 1 - v^2: f = (F(v) - w) / tau_v. v^3/3 is a product with the
  // rounded 1/3 (a division per node costs the GPU's temporally blocked kernels 1.6x).
  FHN_HOST_DEVICE static real cubic(real v) { return v - v * v * v * (1.0 / 3.0); }
  FHN_HOST_DEVICE static real cubic_slope(real v) { return 1.0 - v * v; }

  // Divisions by tau_v and tau_w are products with their reciprocals: a kernel computes those
  // once from its (constant) parameters instead of dividing at every node.
  FHN_HOST_DEVICE real inv_tau_v() const { return 1.0 / tau_v; }
  FHN_HOST_DEVICE real inv_tau_w() const { return 1.0 / tau_w; }

  FHN_HOST_DEVICE real f(real v, real w) const { return (cubic(v) - w) * inv_tau_v(); }
  FHN_HOST_DEVICE real g(real v, real w) const { return (v + a - b * w) * inv_tau_w(); }
  FHN_HOST_DEVICE Jacobian jacobian(real v, real) const {
    return {cubic_slope(v) * inv_tau_v(), -inv_tau_v(), inv_tau_w(), -b * inv_tau_w()};
  }

  // The resting state: w = (v + a) / b on the w-nullcline and F(v) = w, i.e. the root of
  //   h(v) = F(v) - (v + a) / b,   h' = 1 - v^2 - 1/b
  // (for b = 0 the line v = -a). h runs from +inf to -inf and its roots are those of
  // v^3 + 3 p v + 3 q = 0 (p = 1/b - 1, q = a/b), so |v| <= R = 2 max(sqrt(3 |p|), (3 |q| / 2)^(1/3))
  // (Fujiwara's bound) and [-R, R] brackets a root. Newton from v = -a, kept inside the bracket
  // (a step that leaves it, or is not a number where h' = 0, bisects instead; a = 0, b = 1 starts
  // at h = h' = 0, the root) until a step is below 1e-15 of v: with b < 1, h' < 0 and the root is
  // unique, which Newton reaches without leaving the bracket (h is concave for v > 0 and convex
  // below); rest_issue() says when it is not unique. w is read off the w-nullcline, unless its slope 1/b exceeds
  // 16 max(1, |F'(v)|): then v's rounding, amplified 1/b times, would cost w more than 4 bits, and
  // w = F(v) on the v-nullcline is the accurate value (as b -> 0, v -> -a and (v + a) / b is 0/0).
  // Host code: the stability bound, `initial: {type: rest}`, a spiral start's excursion.
  NodeState rest() const {
    if (b == 0.0) return {-a, cubic(-a)};
    const real bound = 2.0 * std::max(std::sqrt(3.0 * std::abs(1.0 / b - 1.0)),
                                      std::cbrt(1.5) * std::cbrt(std::abs(a)) / std::cbrt(b));
    real lo = -bound, hi = bound;  // h(lo) >= 0 >= h(hi)
    real v = std::min(std::max(0.0 - a, lo), hi);  // -a, and +0 for a = 0
    for (int k = 0; k < 200; ++k) {
      const real h = cubic(v) - (v + a) / b;
      if (h == 0.0) break;
      (h > 0.0 ? lo : hi) = v;
      const real dv = h / (cubic_slope(v) - 1.0 / b);
      const real next = v - dv;
      const bool converged = std::isfinite(next) && std::abs(dv) <= 1e-15 * std::abs(next);
      if (converged || (next > lo && next < hi)) {
        v = next;
        if (converged) break;
        continue;
      }
      const real middle = 0.5 * lo + 0.5 * hi;
      if (middle == lo || middle == hi) break;  // two neighbouring numbers: v is one of them
      v = middle;
    }
    const bool steep = 1.0 / b > 16.0 * std::max(1.0, std::abs(cubic_slope(v)));
    return {v, steep ? cubic(v) : (v + a) / b};
  }

  // Why rest() is not the one resting state, naming the keys ({} when it is). With b > 1, h
  // (above) has its local minimum at -s and maximum at s, s = sqrt(1 - 1/b), where
  // h(+-s) = +-(2/3) s^3 - a/b: for |a| <= (2/3) b s^3 the nullclines cross three times (twice
  // at equality): two or three fixed points. A rest whose v^3 overflows is no resting state in
  // double precision (|a| / b beyond about 1e308).
  RestIssue rest_issue() const {
    const std::string values = "model.a = " + format_exact(a) + ", model.b = " + format_exact(b);
    if (b > 1.0) {
      const real s = std::sqrt(1.0 - 1.0 / b);
      const real crossing = 2.0 / 3.0 * b * s * s * s;
      if (std::abs(a) <= crossing)
        return {"model.b", values + ": the nullclines w = v - v^3/3 and w = (v + a)/b cross " +
                               std::string(std::abs(a) == crossing ? "twice" : "three times") +
                               " (b > 1 and |a| <= (2/3) b (1 - 1/b)^(3/2) = " +
                               format_exact(crossing) +
                               "), so the medium has no single resting state"};
    }
    const NodeState r = rest();
    if (!std::isfinite(r.v) || !std::isfinite(r.w) || !std::isfinite(cubic(r.v)))
      return {"model.a", values + ": the resting state, where v^3/3 is about 3 a/b, overflows "
                                  "double precision"};
    return {};
  }

  FHN_HOST_DEVICE real confine(real v) const { return v; }

  // Activation and tip levels (kinetics/cubic.hpp): (0, 0), on the middle branch of the cubic
  // nullcline w = F(v), which a wave's loop encircles (rest near v = -1.2, w = -0.62; the
  // excited branch near v = 2; the back at w up to about 2/3, F's local maximum).
  NodeState levels() const { return {0.0, 0.0}; }

  FHN_HOST_DEVICE real add_f(real sum, real v, real w) const { return sum + f(v, w); }

  // The trapezoidal rule for w_t = (v + a - b w) / tau_w solved for w+ (h = k / (2 tau_w)):
  //   w+ (1 + h b) = w (1 - h b) + h (v + u + 2 a)
  //   => w+ = p + c u,  p = keep w + c v + 2 a c,  keep = (1 - h b) / (1 + h b),  c = h / (1 + h b).
  struct Trapezoidal {
    real keep, c, shift;  // shift = 2 a c
    FHN_HOST_DEVICE real offset(real v, real w) const { return keep * w + c * v + shift; }
  };
  FHN_HOST_DEVICE Trapezoidal trapezoidal(real k) const {
    const real h = 0.5 * k / tau_w;
    const real denominator = 1.0 + h * b;
    const real c = h / denominator;
    return {(1.0 - h * b) / denominator, c, 2.0 * a * c};
  }

  // Along w = p + c u: f = (F(u) - c u)/tau_v + (-p/tau_v).
  FHN_HOST_DEVICE Moving f_moving(real u, real, real c) const {
    return {(cubic(u) - c * u) * inv_tau_v(), (cubic_slope(u) - c) * inv_tau_v()};
  }
  FHN_HOST_DEVICE real f_fixed(real p, real) const { return -p * inv_tau_v(); }

  // sum - (1/2) d/du f(u, p + c u) = sum - (F'(u) - c) / (2 tau_v).
  FHN_HOST_DEVICE real add_minus_half_df(real sum, real u, real, real c) const {
    return sum - 0.5 * (cubic_slope(u) - c) * inv_tau_v();
  }

  // v stays within the outer branches of the cubic nullcline during an excursion: for the
  // textbook values |v| < 2.1; the bound takes |v| <= 2.5. F' = 1 - v^2 is a downward parabola:
  // its minimum over an interval is at an end, its maximum 1 at v = 0.
  ReactionRange reaction_range() const { return {-2.5, 2.5}; }
  real min_df_dv(real lo, real hi) const {
    return std::min(cubic_slope(lo), cubic_slope(hi)) / tau_v;
  }
  real max_df_dv() const { return 1.0 / tau_v; }
};

}  // namespace fhn
