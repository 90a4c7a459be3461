#pragma once
// Values between the nodes of a grid: linear on a cable's (possibly non-uniform) nodes, bilinear
// on a sheet. Used by the probes and by the adaptive grid when it moves the solution.
#include "core/types.hpp"
#include "grid/domain.hpp"

namespace fhn {

// Linear interpolation of values at position p on the increasing nodes x[0..n); constant beyond
// the ends: v(p) = v_l + (p - x_l) (v_r - v_l) / (x_r - x_l).
real interpolate_at(const real* x, const real* values, index_t n, real p);

// Bilinear interpolation of a sheet's node values (i + N_x j order) at p (clamped to the sheet):
// with s, r the fractions of the cell (i, j)-(i+1, j+1) where p lies,
//   v(p) = (1-s)(1-r) v_ij + s (1-r) v_{i+1,j} + (1-s) r v_{i,j+1} + s r v_{i+1,j+1};
// exact at the nodes.
real bilinear_at(const Domain& domain, const real* values, const Point& p);

}  // namespace fhn
