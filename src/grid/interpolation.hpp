#pragma once
// Values between the nodes of a grid: linear on a cable's (possibly non-uniform) nodes, bilinear
// on a sheet. Used by the probes and by the adaptive grid when it moves the solution.
#include <cstdint>

#include "core/types.hpp"
#include "grid/domain.hpp"

namespace fhn {

// Linear interpolation of values at position p on the increasing nodes x[0..n) (an array, or a
// frame's CablePositions); constant beyond the ends: with x_l <= p < x_r the nodes around p,
// v(p) = v_l + (p - x_l) (v_r - v_l) / (x_r - x_l).
template <class Positions>
real interpolate_at(const Positions& x, const real* values, index_t n, real p) {
  if (p <= x[0]) return values[0];
  if (p >= x[n - 1]) return values[n - 1];
  index_t lo = 0, hi = n - 1;  // bisection, keeping x[lo] <= p < x[hi]
  while (hi - lo > 1) {
    const index_t mid = lo + (hi - lo) / 2;
    (x[mid] <= p ? lo : hi) = mid;
  }
  const real s = (p - x[lo]) / (x[hi] - x[lo]);
  return values[lo] + s * (values[hi] - values[lo]);
}

// Bilinear interpolation of a sheet's node values (i + N_x j order) at p (clamped to the sheet):
// with s, r the fractions of the cell (i, j)-(i+1, j+1) where p lies,
//   v(p) = (1-s)(1-r) v_ij + s (1-r) v_{i+1,j} + (1-s) r v_{i,j+1} + s r v_{i+1,j+1};
// exact at the nodes.
real bilinear_at(const Domain& domain, const real* values, const Point& p);

// The same on a sheet, and on a box (i + N_x (j + N_y k) order) trilinear: with t the fraction
// of the layer k..k+1 where p lies, v(p) = (1 - t) B_k + t B_{k+1}, B the bilinear value in the
// plane; exact at the nodes (and B_k itself where t = 0).
real multilinear_at(const Domain& domain, const real* values, const Point& p);

// The same over the tissue alone (`outside`: one byte per node, non-zero where the node holds no
// tissue; nullptr: every node is tissue): with w_c the weights above of the corners c of p's
// cell, only the tissue corners count, renormalised,
//   v(p) = sum_{c tissue} w_c v_c / sum_{c tissue} w_c,
// so an outside node's value (the resting state it is kept at) never enters. Where every corner
// is tissue it is multilinear_at, bit for bit; NaN where the tissue corners carry no weight
// (tissue_weight(p) = 0: p on an outside node, or on an edge between two).
real multilinear_at(const Domain& domain, const real* values, const Point& p,
                    const std::uint8_t* outside);

// sum_{c tissue} w_c of p's cell: 1 where every corner is tissue, 0 where p reads no tissue.
real tissue_weight(const Domain& domain, const Point& p, const std::uint8_t* outside);

}  // namespace fhn
