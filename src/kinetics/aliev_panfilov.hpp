#pragma once
// The Aliev-Panfilov form (model.form: aliev_panfilov), R. R. Aliev and A. V. Panfilov, "A simple
// two-variable model of cardiac excitation", Chaos, Solitons & Fractals 7(3):293-301, 1996:
//   f(v, w) = -k v (v - a)(v - 1) - v w,
//   g(v, w) = e(v, w) r(v, w),   e = eps0 + mu1 w / (v + mu2),   r = -w - k v (v - a - 1),
// with the paper's k = 8, a = 0.15, eps0 = 0.002, mu1 = 0.2, mu2 = 0.3 (v dimensionless in
// [0, 1], a time unit of 12.9 ms). The w-dependent rate e makes g quadratic in w, so the form
// has no closed-form trapezoidal w update (no `Trapezoidal` member): Crank-Nicolson and ADI
// recover w+ per node by Newton's iteration (schemes/trapezoidal_w_point.hpp). It is the
// registry's five-parameter form. docs/ARCHITECTURE.md section 4 says what each member computes.
//
// Invariant region: with w >= 0, f(0, w) = 0 and f(1, w) = -w <= 0, so v stays in [0, 1]; at
// w = 0, g = eps0 k v (1 + a - v) >= 0 there, so w stays >= 0, and it grows only while
// r > 0, i.e. w < k v (1 + a - v) <= k (1 + a)^2 / 4 = w_max. Outside [0, 1] f pulls v back
// (f > 0 below 0, f < 0 above 1), so a scheme's overshoot decays: no projection (kConfined
// false). v = -mu2 is a pole of e, far outside the region.
#include <algorithm>

#include "core/interval.hpp"
#include "kinetics/kinetics_types.hpp"

namespace fhn {

struct AlievPanfilovKinetics {
  static constexpr const char* kName = "aliev_panfilov";
  static constexpr bool kConfined = false;
  // f = k (...): k sets v's time scale (kinetics/cubic.hpp).
  static constexpr const char* kTimeScaleKey = "k";

  real k = 8.0;
  real a = 0.15;
  real eps0 = 0.002;
  real mu1 = 0.2;
  real mu2 = 0.3;

  template <class Self, class Visit>
  FHN_HOST_DEVICE static constexpr void parameters(Self& kin, Visit&& visit) {
    visit("k", kin.k, positive());
    visit("a", kin.a, closed(0.0, 1.0));
    visit("eps0", kin.eps0, positive());
    visit("mu1", kin.mu1, non_negative());
    visit("mu2", kin.mu2, positive());
  }

  // F(v) = -k v (v - a)(v - 1), f's part in v alone, and F'(v) = -k (3 v^2 - 2 (1 + a) v + a).
  FHN_HOST_DEVICE real cubic(real v) const { return -k * v * (v - a) * (v - 1.0); }
  FHN_HOST_DEVICE real cubic_slope(real v) const {
    return -k * ((3.0 * v - 2.0 * (1.0 + a)) * v + a);
  }
  // The recovery rate e(v, w) and the restoring term r(v, w) of g = e r.
  FHN_HOST_DEVICE real rate(real v, real w) const { return eps0 + mu1 * w / (v + mu2); }
  FHN_HOST_DEVICE real restoring(real v, real w) const { return -w - k * v * (v - a - 1.0); }

  FHN_HOST_DEVICE real f(real v, real w) const { return cubic(v) - v * w; }
  FHN_HOST_DEVICE real g(real v, real w) const { return rate(v, w) * restoring(v, w); }
  // f_v = F'(v) - w, f_w = -v; g_v = e_v r + e r_v, g_w = e_w r + e r_w with
  // e_v = -mu1 w / (v + mu2)^2, e_w = mu1 / (v + mu2), r_v = -k (2 v - a - 1), r_w = -1.
  FHN_HOST_DEVICE Jacobian jacobian(real v, real w) const {
    const real inv = 1.0 / (v + mu2);
    const real e = rate(v, w), r = restoring(v, w);
    return {cubic_slope(v) - w, -v, -mu1 * w * inv * inv * r - e * k * (2.0 * v - a - 1.0),
            mu1 * inv * r - e};
  }

  FHN_HOST_DEVICE NodeState rest() const { return {0.0, 0.0}; }
  // (0, 0) is a fixed point for every parameter set (f = 0 at v = 0, r = 0 at v = w = 0). The
  // others lie where e = 0, i.e. w = -eps0 (v + mu2) / mu1 < 0 for v > -mu2 (a negative recovery
  // rate, outside the invariant region above): e.g. (0, -eps0 mu2 / mu1). Where w >= 0, f = 0
  // away from v = 0 needs w = k (v - a)(1 - v) and g = 0 needs w = k v (1 + a - v): equal only
  // for a = 0, when the two nullclines coincide in a curve of fixed points.
  RestIssue rest_issue() const {
    if (a == 0.0)
      return {"model.a", "model.a = 0: the nullclines w = k v (1 - v) of f and g coincide, so "
                         "the medium has no single resting state"};
    return {};
  }
  // Activation and tip levels (kinetics/cubic.hpp): v = 1/2, w = 1/2. A wave's loop runs up at
  // w near 0, along the excited branch w = k (v - a)(1 - v) up to its fold (v = (1 + a)/2,
  // w = k (1 - a)^2 / 4 = 1.445 for the paper's values), back to v = 0 and down to rest.
  NodeState levels() const { return {0.5, 0.5}; }
  FHN_HOST_DEVICE real confine(real v) const { return v; }

  FHN_HOST_DEVICE real add_f(real sum, real v, real w) const { return sum + f(v, w); }

  // The invariant region above: v in [0, 1], w in [0, w_max], w_max = k (1 + a)^2 / 4. f_v is
  // F'(v) - w, F' a downward parabola: its minimum over [lo, hi] x [0, w_max] is at an end of
  // [lo, hi] with w = w_max, its maximum at v = (1 + a) / 3, w = 0: k (1 - a + a^2) / 3.
  ReactionRange reaction_range() const { return {0.0, 1.0}; }
  real w_max() const { return 0.25 * k * (1.0 + a) * (1.0 + a); }
  real min_df_dv(real lo, real hi) const {
    return std::min(cubic_slope(lo), cubic_slope(hi)) - w_max();
  }
  real max_df_dv() const { return k * (1.0 - a + a * a) / 3.0; }
};

}  // namespace fhn
