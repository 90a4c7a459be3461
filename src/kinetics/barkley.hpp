#pragma once
// The Barkley form (model.form: barkley), Barkley (1991), Physica D 49, 61-70:
//   f(v, w) = v (1 - v) (v - (w + b) / a) / eps,   g(v, w) = v - w,
// with a = 0.75, b = 0.02, eps = 0.02 by default (rigidly rotating spirals: the parameters of
// Barkley's Scholarpedia article, Scholarpedia 3(11):1877, 2008). v = 0 is the resting state and
// v = 1 the excited one; (w + b) / a is the threshold.
//
// The square [0, 1] x [0, 1] is invariant for the kinetics (f = 0 at v = 0 and v = 1, and
// diffusion keeps a maximum principle), but only that square: once v > 1 while the threshold is
// above 1 (w > a - b, which happens at every wave back), f > 0 drives v up to the threshold, w
// follows and the pair runs away. A scheme that overshoots v = 1 by round-off or by its own
// oscillation (Crank-Nicolson's trapezoidal rule when dt |f_v| > 2, i.e. dt > 2 eps / (1 - b/a))
// would destroy the solution, so this form confines v to [0, 1] after each update (`confine`).
// The exact solution lies in [0, 1], so the projection never increases a node's error; where the
// scheme does not overshoot (every dt in the convergence range) it changes nothing.
//
// g is affine in w, so the trapezoidal w update is exact in closed form as for every form; f
// depends on w through the threshold, so the reaction Newton carries the whole f along
// w = p + c u (f_fixed = 0). docs/ARCHITECTURE.md section 4 says what each member computes.
#include <algorithm>

#include "core/interval.hpp"
#include "kinetics/kinetics_types.hpp"

namespace fhn {

struct BarkleyKinetics {
  static constexpr const char* kName = "barkley";
  static constexpr bool kConfined = true;
  static constexpr const char* kTimeScaleKey = "eps";  // f = ... / eps (kinetics/cubic.hpp)

  real a = 0.75;
  real b = 0.02;
  real eps = 0.02;

  template <class Self, class Visit>
  FHN_HOST_DEVICE static constexpr void parameters(Self& k, Visit&& visit) {
    visit("a", k.a, positive());
    visit("b", k.b, any_number());
    visit("eps", k.eps, positive());
  }

  // Divisions are products with the reciprocals 1/a and 1/eps: a kernel computes those once
  // from its (constant) parameters instead of dividing at every node, which made the GPU's
  // temporally blocked kernels 2.5x slower than the cubic form's.
  FHN_HOST_DEVICE real inv_a() const { return 1.0 / a; }
  FHN_HOST_DEVICE real inv_eps() const { return 1.0 / eps; }
  // The threshold u_th(w) = (w + b) / a: f = v (1 - v) (v - u_th) / eps.
  FHN_HOST_DEVICE real threshold(real w) const { return (w + b) * inv_a(); }
  // df/dv = (-3 v^2 + 2 (1 + u_th) v - u_th) / eps,  df/dw = -v (1 - v) / (a eps).
  FHN_HOST_DEVICE real df_dv(real v, real w) const {
    const real u = threshold(w);
    return ((-3.0 * v + 2.0 * (1.0 + u)) * v - u) * inv_eps();
  }
  FHN_HOST_DEVICE real df_dw(real v) const { return -v * (1.0 - v) * (inv_a() * inv_eps()); }

  FHN_HOST_DEVICE real f(real v, real w) const {
    return v * (1.0 - v) * (v - threshold(w)) * inv_eps();
  }
  FHN_HOST_DEVICE real g(real v, real w) const { return v - w; }
  FHN_HOST_DEVICE Jacobian jacobian(real v, real w) const {
    return {df_dv(v, w), df_dw(v), 1.0, -1.0};
  }
  FHN_HOST_DEVICE NodeState rest() const { return {0.0, 0.0}; }
  // (0, 0) is a fixed point for every parameter set (f = 0 at v = 0, and w follows v); the others,
  // (1, 1) and v = w = b / (a - 1) on the threshold, are the excited state and the threshold.
  RestIssue rest_issue() const { return {}; }
  // Activation and tip levels (kinetics/cubic.hpp): v = 1/2 and the threshold nullcline's w
  // there, w = a/2 - b, the tip Barkley's EZ-Spiral tracks.
  NodeState levels() const { return {0.5, 0.5 * a - b}; }

  // v projected onto [0, 1] (see above).
  FHN_HOST_DEVICE real confine(real v) const { return v < 0.0 ? 0.0 : (v > 1.0 ? 1.0 : v); }

  FHN_HOST_DEVICE real add_f(real sum, real v, real w) const { return sum + f(v, w); }

  // The trapezoidal rule for w_t = v - w solved for w+ (h = k/2):
  //   w+ (1 + h) = w (1 - h) + h (v + u)
  //   => w+ = p + c u,  p = keep w + c v,  keep = (1 - h) / (1 + h),  c = h / (1 + h).
  struct Trapezoidal {
    real keep, c;
    FHN_HOST_DEVICE real offset(real v, real w) const { return keep * w + c * v; }
  };
  FHN_HOST_DEVICE Trapezoidal trapezoidal(real k) const {
    const real h = 0.5 * k;
    return {(1.0 - h) / (1.0 + h), h / (1.0 + h)};
  }

  // Along w = p + c u the whole f moves: d/du f(u, p + c u) = f_v + c f_w.
  FHN_HOST_DEVICE Moving f_moving(real u, real p, real c) const {
    const real w = p + c * u;
    return {f(u, w), df_dv(u, w) + c * df_dw(u)};
  }
  FHN_HOST_DEVICE real f_fixed(real, real) const { return 0.0; }

  FHN_HOST_DEVICE real add_minus_half_df(real sum, real u, real w, real c) const {
    return sum - 0.5 * (df_dv(u, w) + c * df_dw(u));
  }

  // v and w stay in [0, 1]. f_v is a downward parabola in v and linear in w, so its minimum over
  // [lo, hi] x [0, 1] is at a corner; its maximum over v at w = 0 lies at v = (1 + u_th) / 3.
  ReactionRange reaction_range() const { return {0.0, 1.0}; }
  real min_df_dv(real lo, real hi) const {
    return std::min({df_dv(lo, 0.0), df_dv(hi, 0.0), df_dv(lo, 1.0), df_dv(hi, 1.0)});
  }
  real max_df_dv() const { return df_dv((1.0 + threshold(0.0)) / 3.0, 0.0); }
};

}  // namespace fhn
