#pragma once
// Values between the nodes of a grid: linear on a cable's (possibly non-uniform) nodes, bilinear
// on a sheet. Used by the probes and by the adaptive grid when it moves the solution.
#include <cstdint>

#include "core/types.hpp"
#include "grid/domain.hpp"

namespace fhn {

// The nodes a value at p is read from and the fractions that weigh them (a probe's stencil, read
// at every sample from the nodes alone: Scheme::read_nodes). `count` nodes: 1 where p lies on or
// beyond a cable's end, 2 between a cable's nodes, 2^dims the corners of p's cell on a sheet or a
// box, corner c the high node along axis a where bit a of c is set; `s[a]` the fraction of p along
// axis a of its cell (of the interval on a cable); `outside[c]` non-zero for a corner without
// tissue. stencil_value below gives interpolate_at's and multilinear_at's values bit for bit.
struct NodeStencil {
  int count = 0;
  int axes = 1;  // the fractions s[0 .. axes) that weigh the nodes
  index_t nodes[8] = {};
  real s[kMaxAxes] = {};
  std::uint8_t outside[8] = {};
};

// The stencil of p on the increasing nodes x[0..n) (an array, or a frame's CablePositions):
// constant beyond the ends; with x_l <= p < x_r the nodes around p, s = (p - x_l) / (x_r - x_l).
template <class Positions>
NodeStencil line_stencil(const Positions& x, index_t n, real p) {
  NodeStencil st;
  st.count = 1;
  if (p <= x[0]) return st;
  if (p >= x[n - 1]) {
    st.nodes[0] = n - 1;
    return st;
  }
  index_t lo = 0, hi = n - 1;  // bisection, keeping x[lo] <= p < x[hi]
  while (hi - lo > 1) {
    const index_t mid = lo + (hi - lo) / 2;
    (x[mid] <= p ? lo : hi) = mid;
  }
  st.count = 2;
  st.nodes[0] = lo;
  st.nodes[1] = hi;
  st.s[0] = (p - x[lo]) / (x[hi] - x[lo]);
  return st;
}

// The corners of p's cell on a sheet or a box (clamped to it), with the tissue mask `outside`
// (nullptr: every node is tissue).
NodeStencil cell_stencil(const Domain& domain, const Point& p, const std::uint8_t* outside);

// The value at the stencil's point from the values at its nodes (`at[c]` the value at
// nodes[c]): on a cable v_l + s (v_r - v_l); on a sheet or a box multilinear_at's formulas below.
real stencil_value(const NodeStencil& st, const real* at);

// Linear interpolation of values at position p on the increasing nodes x[0..n): the value of
// line_stencil(x, n, p), v(p) = v_l + (p - x_l) (v_r - v_l) / (x_r - x_l).
template <class Positions>
real interpolate_at(const Positions& x, const real* values, index_t n, real p) {
  const NodeStencil st = line_stencil(x, n, p);
  const real at[2] = {values[st.nodes[0]], values[st.nodes[st.count - 1]]};
  return stencil_value(st, at);
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
