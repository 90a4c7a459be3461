#pragma once
// Per-node algebra of the split Crank-Nicolson scheme (scheme.crank_nicolson.formulation: adi),
// shared by the CPU loops and the CUDA kernels. One step of length k from t:
//
//   1. reaction, k/2:  (v, w)' = (f(v, w) + I, g(v, w)) by the trapezoidal rule, I the stimuli's
//                      mean over the half-step (stimulus_mean, model/stimulus.hpp) at both ends
//   2. diffusion, k:   v' = D lap(v), Crank-Nicolson on a cable; Peaceman-Rachford on a sheet:
//        (I - (k/2) D dxx) v* = (I + (k/2) D dyy) v,   (I - (k/2) D dyy) v+ = (I + (k/2) D dxx) v*
//   3. reaction, k/2:  as 1, from t + k/2
//
// On a box the diffusion is Douglas's ADI in its Crank-Nicolson form (Douglas 1962, Numer. Math.
// 4, 41-63; Douglas and Gunn 1964): with A_a = D d_aa / h^2 along axis a and r = k D / h^2,
//        (I - (k/2) A_x) u1 = (I + (k/2) A_x + k A_y + k A_z) v
//        (I - (k/2) A_y) u2 = u1 - (k/2) A_y v
//        (I - (k/2) A_z) v+ = u2 - (k/2) A_z v
// second order and unconditionally stable in three dimensions (Peaceman-Rachford is not). The
// GPU takes the same step in its increment form (the "delta form" of Douglas and Gunn 1964):
// with d1 = u1 - v, d2 = u2 - v, d3 = v+ - v, each line's (I - (k/2) A_a) v subtracted,
//        (I - (k/2) A_x) d1 = k (A_x + A_y + A_z) v
//        (I - (k/2) A_y) d2 = d1
//        (I - (k/2) A_z) d3 = d2,      v+ = v + d3:
// one right side instead of three, the same solution up to rounding (a Dirichlet node, held at
// its value, takes d = 0).
//
// Strang splitting keeps second order in time; every sub-step is second order and A-stable, the
// diffusion unconditionally stable. The diffusion matrices have constant coefficients (factored
// once per run); d is the 1-D second difference of a line with its mirrored ghost node at a
// no-flux end (as the explicit scheme's axis_difference).
#include "core/types.hpp"
#include "kinetics/kinetics_types.hpp"
#include "schemes/trapezoidal_w_point.hpp"

namespace fhn {

struct ReactionParams {
  real h = 0.0;  // the sub-step, k / 2
  real tolerance = 1e-10;  // Newton stops when |du| < tolerance
  int max_iterations = 20;
};

struct ReactionResult {
  real v, w;
  int iterations;
  bool converged;
};

// One trapezoidal reaction sub-step at a node, from (v0, w0) with the currents i0 at its start
// and i1 at its end:
//   w1 = W(v1)  (the trapezoidal rule with k = h: p + c v1, or Newton's root;
//                trapezoidal_w_point.hpp)
//   G(u) = u - v0 - (h/2) [(f(v0, w0) + i0) + (f(u, W(u)) + i1)] = 0,
//   G'(u) = 1 - (h/2) d/du f(u, W(u));
// with f(u, W(u)) = moving(u) + fixed (the form's split; fixed = 0 without a closed form), the
// terms that do not move with u are summed once into `known`. Newton from u = v0: u -= G/G', until |du| < tolerance (at most
// max_iterations). The iteration is a stepper, so that a caller can unroll its loop (the GPU
// keeps per-iteration maxima in registers); reaction_half_step below is the plain loop.
template <class K>
struct ReactionNewton {
  TrapezoidalW<K> trap;
  real p, known, half_h, u;

  FHN_HOST_DEVICE ReactionNewton(real v0, real w0, real i0, real i1, const ReactionParams& q,
                                 const K& kin)
      : trap(trapezoidal_w(kin, q.h)),
        p(trapezoidal_offset(trap, v0, w0, kin)),
        known(v0 + 0.5 * q.h * (kin.f(v0, w0) + i0 + i1 + trapezoidal_fixed(kin, p, trap.c))),
        half_h(0.5 * q.h),
        u(v0) {}

  // One update; returns |du| and sets g_abs = |G(u)| before it.
  FHN_HOST_DEVICE real iterate(const K& kin, real& g_abs) {
    const Moving moving = trapezoidal_moving(kin, u, p, trap.c);
    const real g = u - half_h * moving.value - known;
    const real slope = 1.0 - half_h * moving.slope;
    const real du = g / slope;
    u -= du;
    g_abs = g < 0.0 ? -g : g;
    return du < 0.0 ? -du : du;
  }
  // After the last iteration: u confined to the form's invariant interval (identity for most
  // forms; kinetics/barkley.hpp), before w() reads it.
  FHN_HOST_DEVICE void confine(const K& kin) { u = kin.confine(u); }
  FHN_HOST_DEVICE real w(const K& kin) const { return trapezoidal_w_at(kin, u, p, trap.c); }
};

// The whole sub-step; record(k, |du|, |g|) sees every iteration k = 0, 1, ...
template <class K, class Record>
FHN_HOST_DEVICE inline ReactionResult reaction_half_step(real v0, real w0, real i0, real i1,
                                                         const ReactionParams& q, const K& kin,
                                                         Record&& record) {
  ReactionNewton<K> newton(v0, w0, i0, i1, q, kin);
  for (int k = 0; k < q.max_iterations; ++k) {
    real g = 0.0;
    const real du = newton.iterate(kin, g);
    record(k, du, g);
    if (du < q.tolerance) {
      newton.confine(kin);
      return {newton.u, newton.w(kin), k + 1, true};
    }
  }
  newton.confine(kin);
  return {newton.u, newton.w(kin), q.max_iterations, false};
}

// The right side of a Peaceman-Rachford (or cable Crank-Nicolson) half: u + (r/2) d, with
// r = k D / h^2 and d the second difference across the lines being solved (axis_difference).
FHN_HOST_DEVICE inline real adi_rhs(real centre, real difference, real r) {
  return centre + 0.5 * r * difference;
}

// The first right side of Douglas's box step (above): v + (r/2) d_x + r (d_y + d_z), the d_a the
// second differences of v along each axis (axis_difference).
FHN_HOST_DEVICE inline real douglas_rhs(real centre, real dx, real dy, real dz, real r) {
  return centre + 0.5 * r * dx + r * (dy + dz);
}

// The later right sides: u - (r/2) d, d the second difference of v (the step's start) along the
// axis about to be solved.
FHN_HOST_DEVICE inline real douglas_correction(real u, real difference, real r) {
  return u - 0.5 * r * difference;
}

// The increment form's right side (above): r (d_x + d_y + d_z), the d_a the second differences
// of v along each axis.
FHN_HOST_DEVICE inline real douglas_increment_rhs(real dx, real dy, real dz, real r) {
  return r * (dx + dy + dz);
}

// Row `i` of I - (k/2) D d on a line of n nodes (r = k D / h^2): interior (-r/2, 1 + r, -r/2);
// a no-flux end's ghost node doubles the inner neighbour, (1 + r, -r); a Dirichlet end holds
// its value, (1, 0). lower of row 0 and upper of row n-1 are 0.
struct AdiRow {
  real lower, diag, upper;
};
FHN_HOST_DEVICE inline AdiRow adi_row(index_t i, index_t n, real r, bool low_dirichlet,
                                      bool high_dirichlet) {
  if (i == 0) return low_dirichlet ? AdiRow{0.0, 1.0, 0.0} : AdiRow{0.0, 1.0 + r, -r};
  if (i == n - 1) return high_dirichlet ? AdiRow{0.0, 1.0, 0.0} : AdiRow{-r, 1.0 + r, 0.0};
  return {-0.5 * r, 1.0 + r, -0.5 * r};
}

// ---- Sheets with a tissue mask or D per node (tissue:, fields:) --------------------------------
// The finite volumes of the explicit scheme (node_updates.hpp, "Tissue masks" and "Heterogeneous
// sheets") split by axis, D (L u) = L_x u + L_y u with, at node P (quadrant byte: face weights
// e, w, n, s and h^2 / V),
//   L_x u = (h^2 / V) [e D^x_E (u_E - u) + w D^x_W (u_W - u)] / h^2,
//   L_y u = (h^2 / V) [n D^y_N (u_N - u) + s D^y_S (u_S - u)] / h^2,
// D^x_E the face's coefficient (the harmonic mean of its nodes' D, or the uniform D). Peaceman-
// Rachford as above with L_x, L_y in place of D dxx, D dyy:
//   (I - (k/2) L_x) v* = (I + (k/2) L_y) v,   (I - (k/2) L_y) v+ = (I + (k/2) L_x) v*.
// The row of node P in its line along x is
//   lower = -a_W, diag = 1 + a_W + a_E, upper = -a_E,   a_E = (k / 2h^2)(h^2 / V) e D^x_E,
// (a_W likewise; along y a_S, a_N): diagonally dominant, and 0 off the diagonal where no flux
// crosses the face (a side, the tissue's edge, D = 0), so every line breaks into segments of
// tissue with no-flux ends. A node outside the tissue or held by a Dirichlet side has the row
// (0, 1, 0) on both axes: it keeps the value of its right side. The right side of the other
// half-step takes the same coefficients of the other axis, u + a_S (u_S - u) + a_N (u_N - u).
// Since V L_x and V L_y are symmetric with zero row sums, sum_P V_P u_P is the same after each
// half-step (pure diffusion conserves the total of v to round-off), and each half-step is
// unconditionally stable in the V-weighted norm.

// The right side u + (k/2) L u at array index c along the axis of array step `stride`, from the
// node's row (lower, upper) in that axis' line: u - lower (u_below - u) - upper (u_above - u); a
// neighbour behind a zero coefficient is not read.
FHN_HOST_DEVICE inline real adi_medium_rhs(const real* u, index_t c, index_t stride, real lower,
                                           real upper) {
  const real centre = u[c];
  const real below = lower != 0.0 ? lower * (u[c - stride] - centre) : 0.0;
  const real above = upper != 0.0 ? upper * (u[c + stride] - centre) : 0.0;
  return centre - (below + above);
}

}  // namespace fhn
