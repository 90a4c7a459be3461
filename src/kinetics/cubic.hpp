#pragma once
// The cubic FitzHugh-Nagumo form (model.form: cubic, the default):
//   f(v, w) = v (1 - v)(v - a) - w,   g(v, w) = epsilon (v - gamma w),
// with the threshold a in [0, 1], the recovery rate epsilon and the recovery gain gamma.
// docs/ARCHITECTURE.md section 4 says what each member computes and why the sums are spelt out.
#include <algorithm>

#include "core/interval.hpp"
#include "kinetics/kinetics_types.hpp"

namespace fhn {

struct CubicKinetics {
  static constexpr const char* kName = "cubic";
  // Whether the schemes must project v onto an invariant interval after each update (`confine`;
  // kinetics/barkley.hpp says why that form needs it). The cubic form's v needs no help.
  static constexpr bool kConfined = false;
  // The parameter that sets v's time scale, which a form too stiff to integrate names (a spiral
  // start's excursion, model/excursion.hpp): none here, f's slope is at most 1 in size.
  static constexpr const char* kTimeScaleKey = nullptr;

  real a = 0.01;
  real epsilon = 0.01;
  real gamma = 2.0;

  // The parameters as the config names them: visit(key, value, allowed range).
  template <class Self, class Visit>
  FHN_HOST_DEVICE static constexpr void parameters(Self& k, Visit&& visit) {
    visit("a", k.a, closed(0.0, 1.0));
    visit("epsilon", k.epsilon, non_negative());
    visit("gamma", k.gamma, non_negative());
  }

  // F(v) = v (1 - v)(v - a), the cubic without the coupling, and F'(v) = -3 v^2 + 2 (1 + a) v - a.
  FHN_HOST_DEVICE real cubic(real v) const { return v * (1.0 - v) * (v - a); }
  FHN_HOST_DEVICE real cubic_slope(real v) const { return (-3.0 * v + 2.0 * (1.0 + a)) * v - a; }

  FHN_HOST_DEVICE real f(real v, real w) const { return cubic(v) - w; }
  FHN_HOST_DEVICE real g(real v, real w) const { return epsilon * (v - gamma * w); }
  FHN_HOST_DEVICE Jacobian jacobian(real v, real) const {
    return {cubic_slope(v), -1.0, epsilon, -epsilon * gamma};
  }
  FHN_HOST_DEVICE NodeState rest() const { return {0.0, 0.0}; }
  // (0, 0) is a fixed point for every parameter set (F(0) = 0), the state the form is written
  // about; the others, where (1 - v)(v - a) = 1/gamma (gamma >= 4/(1 - a)^2), are excited states
  // on F's upper hump, not rests.
  RestIssue rest_issue() const { return {}; }
  // A point inside a wave's loop in the (v, w) plane, between rest and the excited state: the
  // default levels of an activation (v crossing levels().v upwards) and of a spiral tip (where
  // the iso-lines v = levels().v and w = levels().w cross). For the cubic form v = 1/2 and
  // w = 0.1 (below the w the wave back reaches for the shipped parameters).
  NodeState levels() const { return {0.5, 0.1}; }
  FHN_HOST_DEVICE real confine(real v) const { return v; }

  // sum + f(v, w), with the sum (the diffusion term) first: (sum + F(v)) - w.
  FHN_HOST_DEVICE real add_f(real sum, real v, real w) const { return sum + cubic(v) - w; }

  // The trapezoidal rule for w_t = g:  w+ = w + (k/2) [g(v, w) + g(u, w+)]  solved for w+:
  //   w+ = p + c u,   p = keep w + c v,
  //   keep = (1 - k eps gamma / 2) / (1 + k eps gamma / 2),   c = (k eps / 2) / (1 + k eps gamma / 2).
  struct Trapezoidal {
    real keep, c;
    FHN_HOST_DEVICE real offset(real v, real w) const { return keep * w + c * v; }
  };
  FHN_HOST_DEVICE Trapezoidal trapezoidal(real k) const {
    const real denominator = 1.0 + 0.5 * k * epsilon * gamma;
    return {(1.0 - 0.5 * k * epsilon * gamma) / denominator, 0.5 * k * epsilon / denominator};
  }

  // Along w = p + c u:  f(u, p + c u) = moving(u) + fixed, split so that a Newton iteration over
  // u evaluates the fixed part once:  moving = F(u) - c u (slope F'(u) - c),  fixed = -p.
  FHN_HOST_DEVICE Moving f_moving(real u, real, real c) const {
    return {cubic(u) - c * u, cubic_slope(u) - c};
  }
  FHN_HOST_DEVICE real f_fixed(real p, real) const { return -p; }

  // sum - (1/2) d/du f(u, p + c u) at w = p + c u: (sum + c/2) - F'(u)/2 (Crank-Nicolson's
  // Newton diagonal).
  FHN_HOST_DEVICE real add_minus_half_df(real sum, real u, real, real c) const {
    return sum + 0.5 * c - 0.5 * cubic_slope(u);
  }

  // Where forward Euler's stability bound looks for the steepest descent of f (model/stability):
  // v stays in [min(0, (2a - 1)/3), 1] (rest, excited state, the undershoot while recovering);
  // F' is a downward parabola, so its minimum over an interval is at an end.
  ReactionRange reaction_range() const { return {std::min(0.0, (2.0 * a - 1.0) / 3.0), 1.0}; }
  real min_df_dv(real lo, real hi) const { return std::min(cubic_slope(lo), cubic_slope(hi)); }
  // max_v df/dv = F'((1 + a)/3) = (1 - a + a^2)/3: the fastest growth of excitation.
  real max_df_dv() const { return (1.0 - a + a * a) / 3.0; }
};

}  // namespace fhn
