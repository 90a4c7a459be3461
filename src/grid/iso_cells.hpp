#pragma once
// The cells of a sheet where two iso-lines may cross: v = v_iso and w = w_iso each pass through
// the cell (their corner values straddle the level). A spiral tip lies in such a cell
// (study/spiral_tips.hpp solves for it); finding the cells is a sign test per cell, written
// once for the host (straddling_cells) and the GPU (the sweep's member batch, which returns the
// same cells with their corners so that the host solves for the tips exactly as fhn run does).
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

// Cell (i, j) of a sheet, corners (i, j), (i + 1, j), (i, j + 1), (i + 1, j + 1) in that order,
// with their values of v and w.
struct IsoCell {
  index_t i = 0, j = 0;
  real v[4] = {}, w[4] = {};
};

// Appends to `out` the cells of the sheet `domain` (v, w in node order i + N_x j) where both
// v - v_iso and w - w_iso change sign over the corners, in the order j, then i. A cell with a
// corner where `outside` is non-zero is skipped (nullptr: none).
void straddling_cells(const Domain& domain, const real* v, const real* w,
                      const std::uint8_t* outside, real v_iso, real w_iso,
                      std::vector<IsoCell>& out);

// The nodes of v (n values) at or above v_iso where `outside` is zero (nullptr: every node): the
// excitation a tip tracker compares frame to frame.
index_t excited_nodes(const real* v, index_t n, const std::uint8_t* outside, real v_iso);

}  // namespace fhn
