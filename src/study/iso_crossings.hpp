#pragma once
// Where the iso-lines v = v_iso and w = w_iso cross inside one grid cell (a square of four nodes):
// the common zeros of the two bilinear interpolants. Spiral tips on a sheet (spiral_tips.hpp)
// and filaments in a box (filaments.hpp: each cell face is such a square) are found with it.
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/types.hpp"
#include "grid/iso_cells.hpp"  // changes_sign

namespace fhn {

// A root may lie this far outside its cell (in cell widths) and still count: it is then put on
// the edge, where the neighbouring cell finds it too.
constexpr real kEdgeTolerance = 1e-9;

// The common zeros (s, r) in [0, 1]^2 of the bilinear interpolants of V and W over one cell,
// from their corner values V_sr; calls found(s, r) for each.
template <class Found>
inline void cell_crossings(real v00, real v10, real v01, real v11, real w00, real w10,
                           real w01, real w11, Found found) {
  // V(s, r) = a0 + a1 s + a2 r + a3 s r,  W(s, r) = b0 + b1 s + b2 r + b3 s r
  const real a0 = v00, a1 = v10 - v00, a2 = v01 - v00, a3 = v11 - v10 - v01 + v00;
  const real b0 = w00, b1 = w10 - w00, b2 = w01 - w00, b3 = w11 - w10 - w01 + w00;
  // For fixed s both are linear in r: [P(s) Q(s); R(s) S(s)] (1, r)^T = 0 with
  //   P = a0 + a1 s, Q = a2 + a3 s, R = b0 + b1 s, S = b2 + b3 s,
  // which has a solution only where P S - Q R = 0:  q2 s^2 + q1 s + q0 = 0 with
  const real q2 = a1 * b3 - b1 * a3;
  const real q1 = a0 * b3 + a1 * b2 - b0 * a3 - b1 * a2;
  const real q0 = a0 * b2 - b0 * a2;
  // q2 = q1 = 0: no isolated root (q0 != 0: none; q0 = 0: the iso-lines coincide). The a_k and
  // b_k carry rounding errors of order eps max|V_sr| and eps max|W_sr|, so a q_k below
  // 64 eps max|V_sr| max|W_sr| is rounding alone: taking such a q2 and q1 for coefficients would
  // turn coincident iso-lines into roots made of rounding.
  const real scale = 64.0 * std::numeric_limits<real>::epsilon() *
                     std::max({std::abs(v00), std::abs(v10), std::abs(v01), std::abs(v11)}) *
                     std::max({std::abs(w00), std::abs(w10), std::abs(w01), std::abs(w11)});
  if (std::abs(q2) <= scale && std::abs(q1) <= scale) return;
  // D = q1^2 - 4 q2 q0 < 0: the iso-lines do not meet (a touching pair, D = 0, is kept).
  const real discriminant = q1 * q1 - 4.0 * q2 * q0;
  if (discriminant < 0.0) return;
  // Without cancellation: q = -(q1 + sign(q1) sqrt(D)) / 2, then s = q0 / q and s = q / q2
  // (as q2 -> 0, q0 / q -> -q0 / q1, the linear root, and q / q2 leaves the cell; q = 0 only
  // for q1 = D = 0, where q0 = 0 and s = 0 = q / q2). A double root (D = 0) comes out twice and
  // is merged with the other duplicates.
  const real q = -0.5 * (q1 + std::copysign(std::sqrt(discriminant), q1));
  real roots[2];
  int count = 0;
  if (q != 0.0) roots[count++] = q0 / q;
  if (q2 != 0.0) roots[count++] = q / q2;
  auto inside = [](real u) { return u >= -kEdgeTolerance && u <= 1.0 + kEdgeTolerance; };
  for (int k = 0; k < count; ++k) {
    const real s = roots[k];
    if (!inside(s)) continue;
    // r from the better-conditioned row: r = -P / Q or r = -R / S. Q = S = 0 leaves r free: the
    // iso-lines run together along s = const, no isolated crossing.
    const real qs = a2 + a3 * s, ss = b2 + b3 * s;
    if (qs == 0.0 && ss == 0.0) continue;
    const real r = std::abs(qs) >= std::abs(ss) ? -(a0 + a1 * s) / qs : -(b0 + b1 * s) / ss;
    if (!inside(r)) continue;
    found(std::clamp(s, 0.0, 1.0), std::clamp(r, 0.0, 1.0));
  }
}

}  // namespace fhn
