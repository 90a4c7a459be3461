#pragma once
// The trapezoidal rule for the recovery variable, shared by Crank-Nicolson's Newton rows
// (crank_nicolson_point.hpp, node_updates.hpp) and ADI's reaction sub-steps (adi_point.hpp), on
// the CPU and in the CUDA kernels. Over a step of length k from (v, w) to (u, w+), u the new v:
//
//   w+ = w + (k/2) [g(v, w) + g(u, w+)].                                                  (T)
//
// The schemes need w+ as a function W(u) of the new v, and d/du f(u, W(u)). Each form says at
// compile time which of two ways gives them (docs/ARCHITECTURE.md section 4):
//
// - Closed form: a form whose g is affine in w defines `Trapezoidal` (kinetics/cubic.hpp). (T)
//   solves to W(u) = p + c u with p = trap.offset(v, w) and the constant c = trap.c, and the form
//   splits f(u, p + c u) = moving(u) + fixed, its slope and the Newton diagonal in its own order
//   of operations (f_moving, f_fixed, add_minus_half_df). The functions below call exactly
//   these: such a form's results are those from before this header, bit for bit.
//
// - Newton recovery: every other form. With h = k/2 and p = w + h g(v, w) (the known part of
//   (T)), w+ = W(u) is the root of
//       phi(x) = x - h g(u, x) - p,        phi'(x) = 1 - h g_w(u, x),
//   found per node by Newton's iteration from x = p (newton_w). phi need not have a root: with
//   g quadratic in w (aliev_panfilov's) phi is a parabola in x, which misses 0 when the step is
//   too long for the state; then the iteration wanders and newton_w returns NaN, so that the
//   scheme's Newton sees a residual that is not a number and fails the step as it fails on any
//   non-finite norm (naming the step and t). Differentiating phi(W(u)) = 0
//   in u gives the slope
//       W'(u) = h g_v(u, W) / (1 - h g_w(u, W)),
//   and d/du f(u, W(u)) = f_v(u, W) + f_w(u, W) W'(u), which feeds Crank-Nicolson's Newton
//   diagonal and ADI's reaction Newton. The form supplies only g and its Jacobian.
//
// Both are carried as (p, c): p per node, c per step, with c = h for the Newton recovery. A
// leapfrog step (Crank-Nicolson's w_update: leapfrog) knows w+ beforehand and takes c = 0:
// W(u) = p, W' = 0 with either (phi(x) = x - p, one Newton step).
#include <limits>
#include <type_traits>

#include "core/types.hpp"
#include "kinetics/kinetics_types.hpp"

namespace fhn {

// The Newton recovery's rule for one step: c = h = k/2 (0 in a leapfrog step).
struct NewtonTrapezoidal {
  real c;
};

// TrapezoidalOf<K>::type: the form's Trapezoidal, or NewtonTrapezoidal for a form without one.
template <class K, class = void>
struct TrapezoidalOf {
  using type = NewtonTrapezoidal;
  static constexpr bool closed_form = false;
};
template <class K>
struct TrapezoidalOf<K, std::void_t<typename K::Trapezoidal>> {
  using type = typename K::Trapezoidal;
  static constexpr bool closed_form = true;
};
template <class K>
using TrapezoidalW = typename TrapezoidalOf<K>::type;
template <class K>
constexpr bool kClosedFormW = TrapezoidalOf<K>::closed_form;

// Newton's iteration for phi(x) = 0 stops when a step is below kRecoveryTolerance (1 + |x|), or
// fails after kRecoveryIterations (quadratic convergence from x = p, which is within O(h |g|) of
// the root, takes 2 to 4; an affine g takes one step and a second of round-off size).
constexpr real kRecoveryTolerance = 1e-15;
constexpr int kRecoveryIterations = 50;
// What a recovery that did not converge returns (a quiet NaN, host and device: a constexpr
// value, as core/interval.hpp's kInf).
constexpr real kRecoveryFailed = std::numeric_limits<real>::quiet_NaN();

// W(u) by Newton's iteration on phi (above), for any form (the closed form's W(u) = p + c u is
// its root too: tests/unit/test_aliev_panfilov.cpp compares the two). Not converged in
// kRecoveryIterations (phi has no root near p, or none at all): NaN, never the last iterate,
// a w+ that satisfies no trapezoidal rule (tests/unit/test_recovery_failure.cpp).
template <class K>
FHN_HOST_DEVICE inline real newton_w(const K& kin, real u, real p, real c) {
  real x = p;
  for (int it = 0; it < kRecoveryIterations; ++it) {
    const real phi = x - c * kin.g(u, x) - p;
    const real dx = phi / (1.0 - c * kin.jacobian(u, x).g_w);
    x -= dx;
    const real size = dx < 0.0 ? -dx : dx;
    const real scale = 1.0 + (x < 0.0 ? -x : x);
    // Converged; or x stopped being finite (a NaN step, or an infinite one where phi' = 0),
    // which no later step mends: then NaN too (x - x is 0 for a finite x, NaN otherwise).
    if (!(size > kRecoveryTolerance * scale)) return x - x == 0.0 ? x : kRecoveryFailed;
  }
  return kRecoveryFailed;
}

// W'(u) = h g_v / (1 - h g_w) at (u, W(u)), from the Jacobian there (h = c).
FHN_HOST_DEVICE inline real newton_w_slope(const Jacobian& j, real c) {
  return c * j.g_v / (1.0 - c * j.g_w);
}

// The step's rule: the form's trapezoidal(k), or c = k/2.
template <class K>
FHN_HOST_DEVICE inline TrapezoidalW<K> trapezoidal_w(const K& kin, real k) {
  if constexpr (kClosedFormW<K>) {
    return kin.trapezoidal(k);
  } else {
    return NewtonTrapezoidal{0.5 * k};
  }
}

// p at a node from its (v, w): the form's offset, or w + h g(v, w).
template <class K>
FHN_HOST_DEVICE inline real trapezoidal_offset(const TrapezoidalW<K>& trap, real v, real w,
                                               const K& kin) {
  if constexpr (kClosedFormW<K>) {
    return trap.offset(v, w);
  } else {
    return w + trap.c * kin.g(v, w);
  }
}

// w+ = W(u): p + c u, or Newton's root.
template <class K>
FHN_HOST_DEVICE inline real trapezoidal_w_at(const K& kin, real u, real p, real c) {
  if constexpr (kClosedFormW<K>) {
    return p + c * u;
  } else {
    return newton_w(kin, u, p, c);
  }
}

// f(u, W(u)) = moving(u) + fixed and the slope d/du f(u, W(u)) (moving's): the form's split, or
// the whole f moving (fixed = 0) with slope f_v + f_w W'.
template <class K>
FHN_HOST_DEVICE inline Moving trapezoidal_moving(const K& kin, real u, real p, real c) {
  if constexpr (kClosedFormW<K>) {
    return kin.f_moving(u, p, c);
  } else {
    const real w = newton_w(kin, u, p, c);
    const Jacobian j = kin.jacobian(u, w);
    return {kin.f(u, w), j.f_v + j.f_w * newton_w_slope(j, c)};
  }
}
template <class K>
FHN_HOST_DEVICE inline real trapezoidal_fixed(const K& kin, real p, real c) {
  if constexpr (kClosedFormW<K>) {
    return kin.f_fixed(p, c);
  } else {
    return 0.0;
  }
}

// sum - (1/2) d/du f(u, W(u)) at w = W(u) (Crank-Nicolson's Newton diagonal).
template <class K>
FHN_HOST_DEVICE inline real trapezoidal_minus_half_df(const K& kin, real sum, real u, real w,
                                                      real c) {
  if constexpr (kClosedFormW<K>) {
    return kin.add_minus_half_df(sum, u, w, c);
  } else {
    const Jacobian j = kin.jacobian(u, w);
    return sum - 0.5 * (j.f_v + j.f_w * newton_w_slope(j, c));
  }
}

}  // namespace fhn
