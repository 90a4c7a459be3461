#pragma once
// Per-point algebra of the Crank-Nicolson / Newton scheme, shared by the CPU loop and the CUDA
// kernels. Notation: k = dt, u = the Newton iterate for v^{n+1}, (L_h u)_i the discrete
// Laplacian, f the FHN reaction term.
//
//   F_i(u) = u_i / k - 1/2 [D (L_h u)_i + f(u_i) - w+_i] - rhs_i
//   rhs_i  = v_i / k + 1/2 [D (L_h v)_i + f(v_i) - w_i] + 1/2 (I^n_i + I^{n+1}_i)
//   w+_i   = p_i + c u_i   (trapezoidal: c > 0; leapfrog: c = 0, w+ known beforehand)
//   J      = (1/k + c/2) I - (D/2) L_h - 1/2 diag f'(u)
#include "model/fhn.hpp"

namespace fhn {

// The trapezoidal rule for w_t = eps (v - gamma w):
//   w+ = w + (k eps / 2) [(v - gamma w) + (u - gamma w+)]
//   => w+ = p + c u,  p = ((1 - k eps gamma / 2) w + (k eps / 2) v) / (1 + k eps gamma / 2),
//                     c = (k eps / 2) / (1 + k eps gamma / 2).
struct TrapezoidalW {
  real keep;  // (1 - k eps gamma / 2) / (1 + k eps gamma / 2), multiplies w
  real c;     // (k eps / 2) / (1 + k eps gamma / 2), multiplies v and u
};
FHN_HOST_DEVICE inline TrapezoidalW trapezoidal_w(real k, real epsilon, real gamma) {
  const real denominator = 1.0 + 0.5 * k * epsilon * gamma;
  return {(1.0 - 0.5 * k * epsilon * gamma) / denominator, 0.5 * k * epsilon / denominator};
}

// The explicit part of the right-hand side at one node (current = 1/2 (I^n + I^{n+1})).
FHN_HOST_DEVICE inline real cn_rhs(real v, real w, real diffusion_term_v, real current, real a,
                                   real k) {
  return v / k + 0.5 * (diffusion_term_v + reaction(v, a) - w) + current;
}

// F_i(u) given D (L_h u)_i, and J_ii = 1/k + c/2 - f'(u_i)/2 + D/h^2 (r = D/h^2: the diagonal
// of -(D/2) L_h, the same in interior and ghost-node rows); inv_k = 1/k, computed once (a
// division per row would be the costliest instruction of the GPU's Newton passes).
struct NewtonPoint {
  real residual;
  real diag;
};
FHN_HOST_DEVICE inline NewtonPoint cn_newton_point(real u, real diffusion_term_u, real p, real c,
                                                   real rhs, real a, real inv_k, real r) {
  const real w_new = p + c * u;
  return {u * inv_k - 0.5 * (diffusion_term_u + reaction(u, a) - w_new) - rhs,
          inv_k + 0.5 * c - 0.5 * reaction_derivative(u, a) + r};
}

}  // namespace fhn
