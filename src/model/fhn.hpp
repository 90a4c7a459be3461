#pragma once
// FitzHugh-Nagumo per-point physics, shared by the CPU loops and the CUDA kernels.
//   v_t = D v_xx + f(v) - w + I_stim,   f(v) = v (1 - v)(v - a)
//   w_t = epsilon (v - gamma w)
#include "core/types.hpp"

namespace fhn {

// f(v) = v (1 - v)(v - a)
FHN_HOST_DEVICE inline real reaction(real v, real a) { return v * (1.0 - v) * (v - a); }

// f'(v) = -3 v^2 + 2 (1 + a) v - a
FHN_HOST_DEVICE inline real reaction_derivative(real v, real a) {
  return (-3.0 * v + 2.0 * (1.0 + a)) * v - a;
}

// g(v, w) = epsilon (v - gamma w), the recovery rate
FHN_HOST_DEVICE inline real recovery(real v, real w, real epsilon, real gamma) {
  return epsilon * (v - gamma * w);
}

// One forward Euler step at a point, given the diffusion term diffusion_term = D (L_h v)_i:
//   v+ = v + k (D L_h v + f(v) - w + I),   w+ = w + k epsilon (v - gamma w)
struct ExplicitPointUpdate {
  real v;
  real w;
};
FHN_HOST_DEVICE inline ExplicitPointUpdate explicit_point_update(real v, real w, real diffusion_term,
                                                                 real current, real a, real epsilon,
                                                                 real gamma, real k) {
  return {v + k * (diffusion_term + reaction(v, a) - w + current),
          w + k * recovery(v, w, epsilon, gamma)};
}

}  // namespace fhn
