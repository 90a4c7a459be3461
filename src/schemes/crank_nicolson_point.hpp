#pragma once
// Per-point algebra of the Crank-Nicolson / Newton scheme, shared by the CPU loop and the CUDA
// kernels. Notation: k = dt, u = the Newton iterate for v^{n+1}, (L_h u)_i the discrete
// Laplacian, f and g the kinetics form's (src/kinetics/).
//
//   F_i(u) = u_i / k - 1/2 [D (L_h u)_i + f(u_i, w+_i)] - rhs_i
//   rhs_i  = v_i / k + 1/2 [D (L_h v)_i + f(v_i, w_i)] + Ibar_i
//   Ibar_i = (1/k) integral of I_i over [t, t + k]  (exact for the piecewise-constant stimuli,
//            stimulus_mean in model/stimulus.hpp; the trapezoid 1/2 (I^n + I^{n+1}) of a
//            current that switches inside the step is first order)
//   w+_i   = W(u_i)        (trapezoidal: p + c u for a form with the closed form, else Newton's
//                           root; leapfrog: c = 0, w+ = p known beforehand)
//   J      = (1/k) I - (D/2) L_h - 1/2 diag(d/du f(u, W(u))),  d/du f = f_v + f_w W'(u)
//            (cubic form: d/du f = F'(u) - c, so J = (1/k + c/2) I - (D/2) L_h - 1/2 diag F'(u))
#include "core/types.hpp"
#include "schemes/trapezoidal_w_point.hpp"

namespace fhn {

// The trapezoidal rule for w_t = g(v, w) gives w+ = W(u) (trapezoidal_w_point.hpp).

// The explicit part of the right-hand side at one node (current = Ibar, the step's mean).
template <class K>
FHN_HOST_DEVICE inline real cn_rhs(real v, real w, real diffusion_term_v, real current,
                                   const K& kin, real k) {
  return v / k + 0.5 * kin.add_f(diffusion_term_v, v, w) + current;
}

// F_i(u) given D (L_h u)_i, and J_ii = 1/k - (1/2) d/du f(u_i, W(u_i)) + D/h^2 (r = D/h^2:
// the diagonal of -(D/2) L_h, the same in interior and ghost-node rows); inv_k = 1/k, computed
// once (a division per row would be the costliest instruction of the GPU's Newton passes).
struct NewtonPoint {
  real residual;
  real diag;
};
template <class K>
FHN_HOST_DEVICE inline NewtonPoint cn_newton_point(real u, real diffusion_term_u, real p, real c,
                                                   real rhs, const K& kin, real inv_k, real r) {
  const real w_new = trapezoidal_w_at(kin, u, p, c);
  return {u * inv_k - 0.5 * kin.add_f(diffusion_term_u, u, w_new) - rhs,
          trapezoidal_minus_half_df(kin, inv_k, u, w_new, c) + r};
}

}  // namespace fhn
