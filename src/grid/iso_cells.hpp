#pragma once
// The grid squares where two iso-lines may cross: v = v_iso and w = w_iso each pass through the
// square (their corner values straddle the level). A sheet's squares are its cells, where a
// spiral tip lies (study/spiral_tips.hpp solves for it); a box's are the faces of its cubes,
// where a scroll wave's filament passes (study/filaments.hpp joins them). Finding them is a sign
// test per square, written once for the host (straddling_cells) and the GPU (a device scheme's
// and the sweep's member batch's scans, which return the same squares with their corners so
// that the host solves for the tips and filaments exactly as it does from a frame).
#include <cstdint>
#include <vector>

#include "core/types.hpp"
#include "grid/domain.hpp"

namespace fhn {

// Whether the four corner values include both signs (or a zero). Comparisons only, in this
// order, on the host and the device alike.
FHN_HOST_DEVICE inline bool changes_sign(real c00, real c10, real c01, real c11) {
  const real low = c00 < c10 ? (c00 < c01 ? (c00 < c11 ? c00 : c11) : (c01 < c11 ? c01 : c11))
                             : (c10 < c01 ? (c10 < c11 ? c10 : c11) : (c01 < c11 ? c01 : c11));
  const real high = c00 > c10 ? (c00 > c01 ? (c00 > c11 ? c00 : c11) : (c01 > c11 ? c01 : c11))
                              : (c10 > c01 ? (c10 > c11 ? c10 : c11) : (c01 > c11 ? c01 : c11));
  return low <= 0.0 && high >= 0.0;
}

// The square at node (i, j, k) normal to axis `normal`, spanned by the other two axes a < b:
// corners (i, j, k), + e_a, + e_b, + e_a + e_b in that order, with their values of v and w. A
// sheet's cell (i, j) is the square at (i, j, 0) normal to z (a = x, b = y).
struct IsoCell {
  index_t i = 0, j = 0, k = 0;
  int normal = 2;
  real v[4] = {}, w[4] = {};
};

// The axes spanning a square normal to `normal`: a < b.
FHN_HOST_DEVICE inline int span_a(int normal) { return normal == 0 ? 1 : 0; }
FHN_HOST_DEVICE inline int span_b(int normal) { return normal == 2 ? 1 : 2; }

// The square at node `at` normal to `normal`, its corners c[4] (node indices, in IsoCell's order)
// read from v and w: what the host's scan and the device's keep of a square found.
FHN_HOST_DEVICE inline void take_square(IsoCell& out, const index_t at[3], int normal,
                                        const real* v, const real* w, const index_t c[4]) {
  out.i = at[0];
  out.j = at[1];
  out.k = at[2];
  out.normal = normal;
  for (int q = 0; q < 4; ++q) {
    out.v[q] = v[c[q]];
    out.w[q] = w[c[q]];
  }
}

// Appends to `out` the squares of `domain` (v, w in node order i + N_x (j + N_y k)) where both
// v - v_iso and w - w_iso change sign over the corners: a sheet's cells, in the order j, then i;
// a box's cube faces, by normal (x, y, z), then k, j, i. A square with a corner where `outside`
// is non-zero is skipped (nullptr: none).
void straddling_cells(const Domain& domain, const real* v, const real* w,
                      const std::uint8_t* outside, real v_iso, real w_iso,
                      std::vector<IsoCell>& out);

// The nodes of v (n values) at or above v_iso where `outside` is zero (nullptr: every node): the
// excitation a tip tracker compares frame to frame.
index_t excited_nodes(const real* v, index_t n, const std::uint8_t* outside, real v_iso);

}  // namespace fhn
