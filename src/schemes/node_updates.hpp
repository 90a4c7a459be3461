#pragma once
// The per-node updates of the uniform-grid schemes, boundary rows included, as host/device
// inline functions: the CPU loops and the CUDA kernels call exactly these, so both backends
// evaluate the same expressions in the same order. The kinetics form K (src/kinetics/) is a
// template parameter: `kin` holds its parameters.
#include <cstdint>

#include "config/config.hpp"
#include "grid/domain.hpp"
#include "kinetics/kinetics.hpp"
#include "model/problem.hpp"
#include "model/sides.hpp"
#include "schemes/crank_nicolson_point.hpp"

namespace fhn {

// Everything a node update needs to know besides the arrays (passed by value to kernels), one
// description for a cable, a sheet and a box: the nodes and the array strides along each axis,
// the planes of the slab axis the arrays hold, dt, D/h^2 and the ends of every axis.
//
// The slab axis is the last one of at least two (axis 1 of a cable and a sheet, axis 2 of a box):
// the arrays hold its planes [plane0, plane0 + planes), the whole grid (plane0 = 0, planes =
// n[slab axis]) or a rank's slab with its halo planes (parallel/decomposition.hpp); node (i, j)
// of a sheet is u[i + N_x (j - plane0)]. A cable is a sheet of one row.
struct NodeParams {
  int dims = 1;
  index_t n[kMaxAxes] = {0, 1, 1};       // nodes along each axis (1 beyond dims)
  index_t stride[kMaxAxes] = {1, 0, 0};  // array index step along each axis: 1, N_x, N_x N_y
  index_t plane0 = 0, planes = 1;
  real k = 0.0;      // dt
  real inv_k = 0.0;  // 1 / dt, once: the Newton rows multiply by it instead of dividing
  real r = 0.0;      // D / h^2
  Sides sides;       // the ends of every axis (model/sides.hpp)
  int no_flux_order = 2;  // cables: 2 the mirrored ghost node, 1 v_0 = v_1
};

// The grid of `d` (every plane of it), one step dt.
inline NodeParams node_params(const ModelParams& m, const BoundarySpec& bc, const Domain& d,
                              real dt) {
  NodeParams q;
  q.dims = d.dims;
  for (int a = 0; a < kMaxAxes; ++a) {
    q.n[a] = d.nodes[a];
    q.stride[a] = d.stride(a);
  }
  q.planes = q.n[d.dims >= 3 ? 2 : 1];
  q.k = dt;
  q.inv_k = 1.0 / dt;
  q.r = m.diffusion / (d.dx * d.dx);
  q.sides = sides_of(bc, d.dims);
  q.no_flux_order = bc.no_flux_order;
  return q;
}

// The whole grid of `problem`, one step dt of its time grid.
inline NodeParams node_params(const Problem& problem) {
  return node_params(problem.model, problem.boundary, problem.domain, problem.time.dt);
}

// A cable's end conditions: the type and value of its low (end 0, x = 0) or high end. A select,
// not an index: a kernel that keeps a mutable copy of NodeParams (the fused Newton rows) would
// otherwise put the whole copy in local memory (measured: a 256-byte stack frame, +20%).
FHN_HOST_DEVICE inline BoundaryType end_type(const NodeParams& q, int end) {
  return end == 0 ? q.sides.type[0][0] : q.sides.type[0][1];
}
FHN_HOST_DEVICE inline real end_value(const NodeParams& q, int end) {
  return end == 0 ? q.sides.value[0][0] : q.sides.value[0][1];
}

// D (L_h u)_i from the values u_{i-1}, u_i, u_{i+1}: D (u_{i-1} - 2 u_i + u_{i+1}) / h^2. The
// array forms below and the GPU kernels that keep u in registers share this expression.
FHN_HOST_DEVICE inline real diffusion_of(real left, real centre, real right, const NodeParams& q) {
  return q.r * (left - 2.0 * centre + right);
}

// D (L_h u) at an end from its value and its one neighbour's (mirrored ghost node):
// 2 D (u_inner - u_end) / h^2.
FHN_HOST_DEVICE inline real end_diffusion_of(real inner, real end, const NodeParams& q) {
  return q.r * 2.0 * (inner - end);
}

// D (L_h u)_i at an interior node: D (u_{i-1} - 2 u_i + u_{i+1}) / h^2.
FHN_HOST_DEVICE inline real interior_diffusion_term(const real* u, index_t i, const NodeParams& q) {
  return diffusion_of(u[i - 1], u[i], u[i + 1], q);
}

// D (L_h u)_i anywhere; at the ends the mirrored ghost node gives (L_h u)_0 = 2 (u_1 - u_0) / h^2.
FHN_HOST_DEVICE inline real diffusion_term(const real* u, index_t i, const NodeParams& q) {
  if (i == 0) return end_diffusion_of(u[1], u[0], q);
  if (i == q.n[0] - 1) return end_diffusion_of(u[i - 1], u[i], q);
  return interior_diffusion_term(u, i, q);
}

// Which end condition replaces row i: 0 none, 1 Dirichlet, 2 first-order no-flux copy.
FHN_HOST_DEVICE inline int replaced_row(index_t i, const NodeParams& q) {
  if (i != 0 && i != q.n[0] - 1) return 0;
  const BoundaryType type = end_type(q, i == 0 ? 0 : 1);
  if (type == BoundaryType::dirichlet) return 1;
  return q.no_flux_order == 1 ? 2 : 0;
}

// ---- Explicit forward Euler -------------------------------------------------------------------
// One forward Euler step at a point, given the diffusion term diffusion_term = D (L_h v)_i:
//   v+ = v + k (D L_h v + f(v, w) + I),   w+ = w + k g(v, w)
// (v+ confined to the form's invariant interval where the form has one: kinetics/barkley.hpp).
struct ExplicitPointUpdate {
  real v;
  real w;
};
template <class K>
FHN_HOST_DEVICE inline ExplicitPointUpdate explicit_point_update(real v, real w,
                                                                 real diffusion_term, real current,
                                                                 const K& kin, real k) {
  return {kin.confine(v + k * (kin.add_f(diffusion_term, v, w) + current)), w + k * kin.g(v, w)};
}

// Interior node (0 < i < n-1), branch-free for vectorising loops; explicit_node gives the same
// value there.
template <class K>
FHN_HOST_DEVICE inline ExplicitPointUpdate explicit_interior_node(const real* v, const real* w,
                                                                  const real* current, index_t i,
                                                                  const NodeParams& q,
                                                                  const K& kin) {
  return explicit_point_update(v[i], w[i], interior_diffusion_term(v, i, q),
                               current ? current[i] : 0.0, kin, q.k);
}

// v+ = v + k (D L_h v + f(v, w) + I),  w+ = w + k g(v, w); a Dirichlet end holds its value, a
// first-order no-flux end copies its neighbour's new v (v_0 = v_1).
template <class K>
FHN_HOST_DEVICE inline ExplicitPointUpdate explicit_node(const real* v, const real* w,
                                                         const real* current, index_t i,
                                                         const NodeParams& q, const K& kin) {
  auto update = [&](index_t j) {
    return explicit_point_update(v[j], w[j], diffusion_term(v, j, q), current ? current[j] : 0.0,
                                 kin, q.k);
  };
  ExplicitPointUpdate out = update(i);
  switch (replaced_row(i, q)) {
    case 1: out.v = end_value(q, i == 0 ? 0 : 1); break;
    case 2: out.v = update(i == 0 ? 1 : q.n[0] - 2).v; break;
    default: break;
  }
  return out;
}

// ---- Crank-Nicolson / Newton ------------------------------------------------------------------
// p of w+ = W(u): trapezoidal p = trapezoidal_offset (the form's offset, or w + (k/2) g(v, w);
// trapezoidal_w_point.hpp); leapfrog p = w- + 2 k g(v, w), c = 0.
template <class K>
FHN_HOST_DEVICE inline real cn_w_offset(real v, real w, real w_previous, bool leapfrog,
                                        const TrapezoidalW<K>& trap, const NodeParams& q,
                                        const K& kin) {
  return leapfrog ? w_previous + 2.0 * q.k * kin.g(v, w) : trapezoidal_offset(trap, v, w, kin);
}

// rhs_i = v_i/k + 1/2 [D (L_h v)_i + f(v_i, w_i)] + current_i, current = 1/2 (I^n + I^{n+1}).
template <class K>
FHN_HOST_DEVICE inline real cn_rhs_node(const real* v, const real* w, real current, index_t i,
                                        const NodeParams& q, const K& kin) {
  return cn_rhs(v[i], w[i], diffusion_term(v, i, q), current, kin, q.k);
}
template <class K>
FHN_HOST_DEVICE inline real cn_rhs_node(const real* v, const real* w, const real* current,
                                        index_t i, const NodeParams& q, const K& kin) {
  return cn_rhs_node(v, w, current ? current[i] : 0.0, i, q, kin);
}

// The values a row reads: u_{i-1}, u_i, u_{i+1} (left unused at i = 0, right at i = n-1).
struct Stencil {
  real left, centre, right;
};
// u_{i-1}, u_i, u_{i+1} of global node i held at array index a (a slab's arrays start at a node
// other than 0); the neighbours across the cable's ends are not read (0 there).
FHN_HOST_DEVICE inline Stencil array_stencil(const real* u, index_t a, index_t i,
                                             const NodeParams& q) {
  return {i > 0 ? u[a - 1] : 0.0, u[a], i + 1 < q.n[0] ? u[a + 1] : 0.0};
}
// D (L_h u)_i from a stencil, ends by the mirrored ghost node (as diffusion_term).
FHN_HOST_DEVICE inline real stencil_diffusion(const Stencil& u, index_t i, const NodeParams& q) {
  if (i == 0) return end_diffusion_of(u.right, u.centre, q);
  if (i == q.n[0] - 1) return end_diffusion_of(u.left, u.centre, q);
  return diffusion_of(u.left, u.centre, u.right, q);
}

// Row i of F(u) and J's diagonal: interior and ghost-node rows
//   F_i = u_i/k - 1/2 [D (L_h u)_i + f(u_i, p_i + c u_i)] - rhs_i,
//   J_ii = 1/k - (1/2) d/du f(u_i, p_i + c u_i) + D/h^2;
// a Dirichlet row is u_i - value (J row (1, 0)), a first-order no-flux row u_0 - u_1 (1, -1).
// An interior row (0 < i < n-1), without the tests for the ends: what cn_newton_row gives there.
template <class K>
FHN_HOST_DEVICE inline NewtonPoint cn_interior_newton_row(const Stencil& u, real p, real rhs,
                                                          real c, const NodeParams& q,
                                                          const K& kin) {
  return cn_newton_point(u.centre, diffusion_of(u.left, u.centre, u.right, q), p, c, rhs, kin,
                         q.inv_k, q.r);
}
template <class K>
FHN_HOST_DEVICE inline NewtonPoint cn_newton_row(const Stencil& u, real p, real rhs, real c,
                                                 index_t i, const NodeParams& q, const K& kin) {
  switch (replaced_row(i, q)) {
    case 1: return {u.centre - end_value(q, i == 0 ? 0 : 1), 1.0};
    case 2: return {u.centre - (i == 0 ? u.right : u.left), 1.0};
    default: break;
  }
  return cn_newton_point(u.centre, stencil_diffusion(u, i, q), p, c, rhs, kin, q.inv_k, q.r);
}
template <class K>
FHN_HOST_DEVICE inline NewtonPoint cn_newton_node(const real* u, const real* p, const real* rhs,
                                                  real c, index_t i, const NodeParams& q,
                                                  const K& kin) {
  return cn_newton_row(array_stencil(u, i, i, q), p[i], rhs[i], c, i, q, kin);
}

// J's off-diagonals in row i, constant in time: -(D/2) L_h gives -r/2 next to the diagonal; the
// ghost-node rows have -r towards their single neighbour; replaced rows are (1, 0) or (1, -1).
// lower of row 0 and upper of row n-1 are 0 (outside the matrix).
struct OffDiagonals {
  real lower;
  real upper;
};
FHN_HOST_DEVICE inline real cn_end_off_diagonal(index_t i, const NodeParams& q) {
  switch (replaced_row(i, q)) {
    case 1: return 0.0;
    case 2: return -1.0;
    default: return -q.r;
  }
}
FHN_HOST_DEVICE inline OffDiagonals cn_interior_off_diagonals(const NodeParams& q) {
  return {-0.5 * q.r, -0.5 * q.r};
}
FHN_HOST_DEVICE inline OffDiagonals cn_off_diagonal_row(index_t i, const NodeParams& q) {
  if (i == 0) return {0.0, cn_end_off_diagonal(0, q)};
  if (i == q.n[0] - 1) return {cn_end_off_diagonal(i, q), 0.0};
  return cn_interior_off_diagonals(q);
}

// All rows of J's off-diagonals into host arrays of n entries.
inline void cn_off_diagonals(const NodeParams& q, real* lower, real* upper) {
  for (index_t i = 0; i < q.n[0]; ++i) {
    const OffDiagonals row = cn_off_diagonal_row(i, q);
    lower[i] = row.lower;
    upper[i] = row.upper;
  }
}

// ---- Sheets (and the Laplacian on any grid) ------------------------------------------------------
// Node (i, j) of an N_x x N_y sheet is u[i + N_x j]. The Laplacian is the cable's second
// difference along each axis, summed (a loop over the axes, grid_diffusion below):
//   D (L_h u)_ij = D [d_xx + d_yy] / h^2,  d_xx = u_{i-1,j} - 2 u_ij + u_{i+1,j},  d_yy likewise;
// at a no-flux side the mirrored ghost node gives d = 2 (u_inner - u_side), as on a cable. For a
// planar wave (u constant along y) d_yy is exactly 0, so a sheet's row equals the cable bit for bit.
// A Dirichlet side holds v at its value; at a corner the first Dirichlet side of left, right,
// bottom, top wins (model/sides.hpp). A cable is the sheet of one row (N_y = 1).

// The second difference along one axis from the values below, at and above a node; `first` and
// `last` say the node is on the axis's low or high side (the mirrored ghost node).
FHN_HOST_DEVICE inline real axis_difference(real below, real centre, real above, bool first,
                                            bool last) {
  if (first) return 2.0 * (above - centre);
  if (last) return 2.0 * (below - centre);
  return below - 2.0 * centre + above;
}

// The interior 5-point second difference (d_xx + d_yy) from the four neighbours' values:
//   (u_W - 2 u + u_E) + (u_S - 2 u + u_N).
FHN_HOST_DEVICE inline real five_point_difference(real west, real east, real south, real north,
                                                  real centre) {
  return (west - 2.0 * centre + east) + (south - 2.0 * centre + north);
}

// D (L_h u)_ij from the four neighbours' values (those across a side are ignored there).
FHN_HOST_DEVICE inline real sheet_diffusion_of(real west, real east, real south, real north,
                                               real centre, index_t i, index_t j,
                                               const NodeParams& q) {
  return q.r * (axis_difference(west, centre, east, i == 0, i == q.n[0] - 1) +
                axis_difference(south, centre, north, j == 0, j == q.n[1] - 1));
}

// The array index of node (i, j).
FHN_HOST_DEVICE inline index_t sheet_index(index_t i, index_t j, const NodeParams& q) {
  return i + q.n[0] * (j - q.plane0);
}

// D (L_h u) at the node with index `at` along each axis and array index c, on any grid: the
// second difference along each axis, summed in axis order, neighbours from the arrays (those
// across a side are not read).
FHN_HOST_DEVICE inline real grid_diffusion(const real* u, index_t c, const index_t (&at)[kMaxAxes],
                                           const NodeParams& q) {
  real sum = 0.0;
  for (int a = 0; a < q.dims; ++a) {
    const bool first = at[a] == 0, last = at[a] == q.n[a] - 1;
    const real d = axis_difference(first ? 0.0 : u[c - q.stride[a]], u[c],
                                   last ? 0.0 : u[c + q.stride[a]], first, last);
    sum = a == 0 ? d : sum + d;
  }
  return q.r * sum;
}

// D (L_h u)_ij at any node of a sheet's arrays.
FHN_HOST_DEVICE inline real sheet_diffusion(const real* u, index_t i, index_t j,
                                            const NodeParams& q) {
  const index_t at[kMaxAxes] = {i, j, 0};
  return grid_diffusion(u, sheet_index(i, j, q), at, q);
}

// ---- Tissue masks (tissue:): finite volumes on the cells of the tissue ----------------------
// With a node-type mask the medium is the union of the grid cells whose four corners are tissue.
// Node (i, j) owns the quarter of each such cell at its corner (quadrants NE, NW, SE, SW; which
// of them are tissue is the node's quadrant byte, model/tissue.hpp tissue_quadrants, computed
// once); its control volume is V = (quadrants) h^2 / 4, and each of its four faces has the
// half-faces of the quadrants beside it, so that
//   D (L_h u) = D / (V h^2) sum over faces of (face length) h (u_nb - u) / h
//             = (D / h^2) [e (u_E - u) + w (u_W - u) + n (u_N - u) + s (u_S - u)] / (V / h^2),
//   e = (NE + SE) / 2, w = (NW + SW) / 2, n = (NE + NW) / 2, s = (SE + SW) / 2.
// Every face's flux enters its two nodes with opposite signs, so sum_i V_i (L_h u)_i = 0: pure
// diffusion conserves the total of v (weighted by V) to round-off, whatever the mask's shape, and
// no flux crosses the tissue's edge. Where all four quadrants are present this is the 5-point
// Laplacian; at a straight edge through a row of nodes it is the mirrored ghost node of a side
// (V = h^2 / 2, e = 1, n = s = 1/2: 2 (u_E - u) + (u_N - 2 u + u_S)), so a mask that cuts out a
// grid-aligned rectangle equals the run on that smaller domain to round-off. A node without a
// tissue quadrant (byte 0) is not part of the medium: it keeps its state.
struct MaskedStencil {
  real east, west, north, south;  // the face weights e, w, n, s
  real inv_volume;                // h^2 / V: 4 / (number of quadrants), 0 with none
};

// 4 / quadrants, 0 for none (a product instead of a division per node).
FHN_HOST_DEVICE inline real inverse_quarters(int quadrants) {
  return quadrants == 0 ? 0.0 : (quadrants == 4 ? 1.0 : (quadrants == 2 ? 2.0 : (quadrants == 1 ? 4.0 : 4.0 / 3.0)));
}

// The presence (1 or 0) of each quadrant in a quadrant byte.
struct Quadrants {
  int ne, nw, se, sw;
};
FHN_HOST_DEVICE inline Quadrants quadrants_of(unsigned byte) {
  return {(byte & kQuadrantNE) ? 1 : 0, (byte & kQuadrantNW) ? 1 : 0, (byte & kQuadrantSE) ? 1 : 0,
          (byte & kQuadrantSW) ? 1 : 0};
}

// The stencil of a node from its quadrant byte.
FHN_HOST_DEVICE inline MaskedStencil masked_stencil_of(unsigned byte) {
  const Quadrants t = quadrants_of(byte);
  return {0.5 * (t.ne + t.se), 0.5 * (t.nw + t.sw), 0.5 * (t.ne + t.nw), 0.5 * (t.se + t.sw),
          inverse_quarters(t.ne + t.nw + t.se + t.sw)};
}

// D (L_h u) at array index c of a sheet's arrays from the node's quadrant byte; a neighbour
// behind a face of weight 0 (beyond a side, or across the tissue's edge) is not read.
FHN_HOST_DEVICE inline real masked_sheet_diffusion(const real* u, unsigned byte, index_t c,
                                                   const NodeParams& q) {
  const MaskedStencil m = masked_stencil_of(byte);
  const index_t nx = q.n[0];
  const real centre = u[c];
  const real ew = (m.east > 0.0 ? m.east * (u[c + 1] - centre) : 0.0) +
                  (m.west > 0.0 ? m.west * (u[c - 1] - centre) : 0.0);
  const real ns = (m.north > 0.0 ? m.north * (u[c + nx] - centre) : 0.0) +
                  (m.south > 0.0 ? m.south * (u[c - nx] - centre) : 0.0);
  return q.r * ((ew + ns) * m.inv_volume);
}

// The same at an interior node (0 < i < N_x - 1, 0 < j < N_y - 1): every neighbour is in the
// grid, so the sum reads all four without tests (a row's loop vectorises); equal to the above.
FHN_HOST_DEVICE inline real masked_interior_diffusion(const real* u, unsigned byte, index_t c,
                                                      const NodeParams& q) {
  const MaskedStencil m = masked_stencil_of(byte);
  const index_t nx = q.n[0];
  const real centre = u[c];
  const real ew = m.east * (u[c + 1] - centre) + m.west * (u[c - 1] - centre);
  const real ns = m.north * (u[c + nx] - centre) + m.south * (u[c - nx] - centre);
  return q.r * ((ew + ns) * m.inv_volume);
}

// Whether a Dirichlet side holds node (i, j), and its value.
FHN_HOST_DEVICE inline bool sheet_dirichlet(index_t i, index_t j, const NodeParams& q, real& value) {
  const index_t at[kMaxAxes] = {i, j, 0};
  return dirichlet_at<2>(q.sides, at, q.n, value);
}

// Forward Euler at a node of a masked sheet (any slab: array index sheet_index), from its
// quadrant byte. A node outside the tissue (byte 0) keeps its state; a tissue node steps with the
// masked diffusion, a Dirichlet side holding v. The interior form (0 < i < N_x - 1,
// 0 < j < N_y - 1, array index c) computes the step everywhere and then selects, branch-free, so
// that a CPU row loop vectorises; both give the same numbers.
template <class K>
FHN_HOST_DEVICE inline ExplicitPointUpdate explicit_masked_interior_node(
    const real* v, const real* w, const std::uint8_t* quadrants, real current, index_t c,
    const NodeParams& q, const K& kin) {
  const unsigned byte = quadrants[c];
  const ExplicitPointUpdate u = explicit_point_update(
      v[c], w[c], masked_interior_diffusion(v, byte, c, q), current, kin, q.k);
  return byte == 0 ? ExplicitPointUpdate{v[c], w[c]} : u;
}
template <class K>
FHN_HOST_DEVICE inline ExplicitPointUpdate explicit_masked_sheet_node(
    const real* v, const real* w, const std::uint8_t* quadrants, real current, index_t i, index_t j,
    const NodeParams& q, const K& kin) {
  const index_t c = sheet_index(i, j, q);
  const unsigned byte = quadrants[c];
  if (byte == 0) return {v[c], w[c]};
  ExplicitPointUpdate out = explicit_point_update(
      v[c], w[c], masked_sheet_diffusion(v, byte, c, q), current, kin, q.k);
  real held = 0.0;
  if (sheet_dirichlet(i, j, q, held)) out.v = held;
  return out;
}

// ---- Heterogeneous sheets: D per node, anisotropy, per-node kinetics (fields:, anisotropy:) ---
// The finite volumes above with a diffusion tensor D = [[D_xx, D_xy], [D_xy, D_yy]] that may vary
// from node to node. The flux through a half-face of node P's control volume inside one of its
// tissue cells is (h/2) (D grad u) . n; D_xx (or D_yy) multiplies the difference along the face's
// edge, (u_nb - u_P) / h, and D_xy the cell's gradient across it, the mean of its two edges'
// differences. Summed over the two half-faces of P in the cell NE of it (corners P, E, N, NE):
//   (h/2) [D_xx (u_E - u_P)/h + D_xy u_y] + (h/2) [D_yy (u_N - u_P)/h + D_xy u_x],
//   u_x = ((u_E + u_NE) - (u_P + u_N)) / 2h,  u_y = ((u_N + u_NE) - (u_P + u_E)) / 2h,
// whose D_xy part is (D_xy / 2)(u_NE - u_P): the mixed term couples P to its diagonal neighbour
// in each cell, with the sign of the quadrant (+ NE and SW, - NW and SE). Divided by V:
//   (L u)_P = (1 / h^2)(h^2 / V) [ e D^x_E (u_E - u) + w D^x_W (u_W - u) + n D^y_N (u_N - u)
//              + s D^y_S (u_S - u) + (1/2) sum_q (+-) T_q D^xy_q (u_q - u) ],
// e, w, n, s the face weights above, T_q the quadrant's presence. The coefficient of a face is
// the harmonic mean of its two nodes' D (D^x_E = 2 D_P D_E / (D_P + D_E), 0 when both are 0: a
// region with D = 0 is cut off, and across a step in D the flux is continuous, so a steady
// profile linear in each part is exact); that of a cell's mixed term is the mean of its four
// corners' D_xy. Each half-face's flux is computed the same from both sides: conservative. With
// four quadrants and a constant tensor it is the 9-point stencil
//   D_xx d_xx + D_yy d_yy + 2 D_xy (u_NE - u_NW - u_SE + u_SW) / 4h^2.
// Forward Euler's limit follows from the tensor (model/stability.hpp).

// What a node update of a heterogeneous sheet reads besides v and w: per-node arrays (laid out
// like v and w, a slab's planes; nullptr where the constant holds) and constants.
struct MediumView {
  const std::uint8_t* quadrants = nullptr;  // every node's quadrant byte (never nullptr)
  const real* dxx = nullptr;  // D_xx per node (an isotropic D field: D, also as dyy)
  const real* dyy = nullptr;
  const real* dxy = nullptr;
  real cxx = 0.0, cyy = 0.0, cxy = 0.0;  // the tensor where it is uniform (isotropic: D, D, 0)
  bool mixed = false;                    // anisotropic: the D_xy terms are computed
  real inv_h2 = 0.0;                     // 1 / h^2
  const real* kinetics[kMaxFormParameters] = {};  // the form's parameters per node (its order)
};

// Whether `fields` need the heterogeneous node update: a per-node D or kinetics parameter, or
// anisotropy (a mask alone takes the masked update above).
inline bool heterogeneous(const ParameterFields& fields) {
  return fields.arrays().values > 0 || fields.tensor.enabled;
}

// The constants of `problem`'s MediumView (host): the tensor where it is uniform (model.diffusion
// on both axes when isotropic) and 1/h^2. Whoever holds the per-node arrays sets the pointers
// (ExplicitCpu: the problem's own; the CUDA scheme: their device copies).
inline MediumView medium_constants(const Problem& problem) {
  MediumView m;
  const TensorField& tensor = problem.fields.tensor;
  m.mixed = tensor.enabled;
  m.cxx = tensor.enabled ? tensor.xx : problem.model.diffusion;
  m.cyy = tensor.enabled ? tensor.yy : problem.model.diffusion;
  m.cxy = tensor.enabled ? tensor.xy : 0.0;
  m.inv_h2 = 1.0 / (problem.domain.dx * problem.domain.dx);
  return m;
}

// The coefficient of a face between nodes holding a and b: their harmonic mean, 0 when both are.
FHN_HOST_DEVICE inline real harmonic_mean(real a, real b) {
  const real sum = a + b;
  return sum > 0.0 ? 2.0 * a * b / sum : 0.0;
}

// The coefficient of the face between array indices c and nb along one axis: the harmonic mean
// of the two nodes' values where D varies per node (`per_node`), else the uniform value. The
// explicit update and ADI's rows (adi_setup.cpp) take their faces from it.
FHN_HOST_DEVICE inline real face_diffusion(const real* per_node, real uniform, index_t c,
                                           index_t nb) {
  return per_node ? harmonic_mean(per_node[c], per_node[nb]) : uniform;
}

// D (L u) at array index c, node quadrant byte `byte` (non-zero), as above. Neighbours behind a
// face or cell of weight 0 (beyond a side, across the tissue's edge) are not read. kFull: the
// node has all four quadrants (byte kAllQuadrants), so no test is made; the same operations in
// the same order as without it (a weight of 1 multiplies exactly), so the same bits.
constexpr unsigned kAllQuadrants = kQuadrantNE | kQuadrantNW | kQuadrantSE | kQuadrantSW;
template <bool kFull>
FHN_HOST_DEVICE inline real medium_diffusion(const real* u, unsigned byte, index_t c,
                                             const NodeParams& q, const MediumView& m) {
  const Quadrants t = quadrants_of(byte);
  const MaskedStencil s = masked_stencil_of(byte);
  const index_t nx = q.n[0];
  const real centre = u[c];
  auto along_x = [&](index_t nb) { return face_diffusion(m.dxx, m.cxx, c, nb); };
  auto along_y = [&](index_t nb) { return face_diffusion(m.dyy, m.cyy, c, nb); };
  real sum = 0.0;
  if (kFull || s.east > 0.0) sum += s.east * along_x(c + 1) * (u[c + 1] - centre);
  if (kFull || s.west > 0.0) sum += s.west * along_x(c - 1) * (u[c - 1] - centre);
  if (kFull || s.north > 0.0) sum += s.north * along_y(c + nx) * (u[c + nx] - centre);
  if (kFull || s.south > 0.0) sum += s.south * along_y(c - nx) * (u[c - nx] - centre);
  if (m.mixed) {
    // The cell whose lower-left corner is array index a: the mean of its corners' D_xy.
    auto cell = [&](index_t a) {
      return m.dxy ? 0.25 * ((m.dxy[a] + m.dxy[a + 1]) + (m.dxy[a + nx] + m.dxy[a + nx + 1]))
                   : m.cxy;
    };
    real mixed = 0.0;
    if (kFull || t.ne) mixed += cell(c) * (u[c + nx + 1] - centre);
    if (kFull || t.nw) mixed -= cell(c - 1) * (u[c + nx - 1] - centre);
    if (kFull || t.se) mixed -= cell(c - nx) * (u[c - nx + 1] - centre);
    if (kFull || t.sw) mixed += cell(c - nx - 1) * (u[c - nx - 1] - centre);
    sum += 0.5 * mixed;
  }
  return m.inv_h2 * (sum * s.inv_volume);
}

// Forward Euler at node (i, j) of a heterogeneous sheet (any slab): outside the tissue the
// node keeps its state; else v+ = v + k (D (L v) + f(v, w) + I), w+ = w + k g(v, w) with the
// form's parameters at the node, a Dirichlet side holding v.
template <class K>
FHN_HOST_DEVICE inline ExplicitPointUpdate explicit_medium_node(const real* v, const real* w,
                                                                real current, index_t i, index_t j,
                                                                const NodeParams& q,
                                                                const MediumView& m,
                                                                const K& uniform) {
  const index_t c = sheet_index(i, j, q);
  const unsigned byte = m.quadrants[c];
  if (byte == 0) return {v[c], w[c]};
  const real diffusion = byte == kAllQuadrants ? medium_diffusion<true>(v, byte, c, q, m)
                                               : medium_diffusion<false>(v, byte, c, q, m);
  ExplicitPointUpdate out = explicit_point_update(v[c], w[c], diffusion, current,
                                                  kinetics_at(uniform, m.kinetics, c), q.k);
  real held = 0.0;
  if (sheet_dirichlet(i, j, q, held)) out.v = held;
  return out;
}

// The same at a node known to have all four quadrants and no Dirichlet side (array index c), the
// quadrant byte not read: the same numbers (a GPU block of such nodes takes it, measured 1.3x
// faster on an H100 than reading the byte first, explicit_tissue_kernels.cu).
template <class K>
FHN_HOST_DEVICE inline ExplicitPointUpdate explicit_medium_full_node(const real* v, const real* w,
                                                                     real current, index_t c,
                                                                     const NodeParams& q,
                                                                     const MediumView& m,
                                                                     const K& uniform) {
  return explicit_point_update(v[c], w[c], medium_diffusion<true>(v, kAllQuadrants, c, q, m),
                               current, kinetics_at(uniform, m.kinetics, c), q.k);
}

// ---- Boxes -----------------------------------------------------------------------------------
// Node (i, j, k) of an N_x x N_y x N_z box is u[i + N_x (j + N_y (k - plane0))]. The 7-point
// Laplacian is grid_diffusion's sum of the second differences along x, y and z, in that order:
//   D (L_h u)_ijk = D [(d_xx + d_yy) + d_zz] / h^2,
// the mirrored ghost node at a no-flux face. Data constant along z have d_zz = 0 exactly (u - 2u
// + u), so each plane of such a box steps as the sheet, bit for bit; a planar wave along x steps
// as the cable. A Dirichlet face holds v; at an edge or corner the first Dirichlet side of left,
// right, bottom, top, front, back wins (model/sides.hpp).

// The array index of node (i, j, k) of a box.
FHN_HOST_DEVICE inline index_t box_index(index_t i, index_t j, index_t k, const NodeParams& q) {
  return i + q.n[0] * (j + q.n[1] * (k - q.plane0));
}

// Forward Euler at any node (i, j, k) of a box from the values of its six neighbours (west, east
// along x; south, north along y; front, back along z; those across a face are ignored) and its
// own: grid_diffusion's expression, the second differences summed in axis order,
//   D (L_h v) = r ((d_xx + d_yy) + d_zz),
// so the same bits; a Dirichlet face then holds v. The GPU's blocked kernel passes the values
// from registers and shared memory.
template <class K>
FHN_HOST_DEVICE inline ExplicitPointUpdate explicit_box_node_of(real west, real east, real south,
                                                                real north, real front, real back,
                                                                real centre, real w, real current,
                                                                index_t i, index_t j, index_t k,
                                                                const NodeParams& q,
                                                                const K& kin) {
  const real d = (axis_difference(west, centre, east, i == 0, i == q.n[0] - 1) +
                  axis_difference(south, centre, north, j == 0, j == q.n[1] - 1)) +
                 axis_difference(front, centre, back, k == 0, k == q.n[2] - 1);
  ExplicitPointUpdate out = explicit_point_update(centre, w, q.r * d, current, kin, q.k);
  const index_t at[kMaxAxes] = {i, j, k};
  real held = 0.0;
  if (dirichlet_at<3>(q.sides, at, q.n, held)) out.v = held;
  return out;
}

// The same at any node (i, j, k) of a box's arrays (neighbours across a face not read).
template <class K>
FHN_HOST_DEVICE inline ExplicitPointUpdate explicit_box_node(const real* v, const real* w,
                                                             real current, index_t i, index_t j,
                                                             index_t k, const NodeParams& q,
                                                             const K& kin) {
  const index_t c = box_index(i, j, k, q);
  const index_t sy = q.stride[1], sz = q.stride[2];
  return explicit_box_node_of(i > 0 ? v[c - 1] : 0.0, i < q.n[0] - 1 ? v[c + 1] : 0.0,
                              j > 0 ? v[c - sy] : 0.0, j < q.n[1] - 1 ? v[c + sy] : 0.0,
                              k > 0 ? v[c - sz] : 0.0, k < q.n[2] - 1 ? v[c + sz] : 0.0, v[c],
                              w[c], current, i, j, k, q, kin);
}

// The same at an interior node (no index on its axis's first or last node) from the values of
// its six neighbours (west, east along x; south, north along y; front, back along z) and its
// own: the three second differences without tests, the same expression as grid_diffusion's, so
// the same bits. The GPU kernels pass the values from their tiles in shared memory.
template <class K>
FHN_HOST_DEVICE inline ExplicitPointUpdate explicit_box_point(real west, real east, real south,
                                                              real north, real front, real back,
                                                              real centre, real w, real current,
                                                              const NodeParams& q, const K& kin) {
  const real d = ((west - 2.0 * centre + east) + (south - 2.0 * centre + north)) +
                 (front - 2.0 * centre + back);
  return explicit_point_update(centre, w, q.r * d, current, kin, q.k);
}

// The same at array index c, the neighbours read from v (a row's loop vectorises).
template <class K>
FHN_HOST_DEVICE inline ExplicitPointUpdate explicit_box_interior_node(const real* v, const real* w,
                                                                      real current, index_t c,
                                                                      const NodeParams& q,
                                                                      const K& kin) {
  const index_t sy = q.stride[1], sz = q.stride[2];
  return explicit_box_point(v[c - 1], v[c + 1], v[c - sy], v[c + sy], v[c - sz], v[c + sz], v[c],
                            w[c], current, q, kin);
}

// Forward Euler at an interior node (0 < i < N_x - 1, 0 < j < N_y - 1), branch-free:
//   v+ = v + k (D (L_h v)_ij + f(v, w) + I),  w+ = w + k g(v, w).
template <class K>
FHN_HOST_DEVICE inline ExplicitPointUpdate explicit_sheet_interior_node(const real* v,
                                                                        const real* w, real current,
                                                                        index_t c,
                                                                        const NodeParams& q,
                                                                        const K& kin) {
  const real d = five_point_difference(v[c - 1], v[c + 1], v[c - q.n[0]], v[c + q.n[0]], v[c]);
  return explicit_point_update(v[c], w[c], q.r * d, current, kin, q.k);
}

// Forward Euler at any node; a Dirichlet side then holds v at its value (w follows its ODE).
template <class K>
FHN_HOST_DEVICE inline ExplicitPointUpdate explicit_sheet_node(const real* v, const real* w,
                                                               real current, index_t i, index_t j,
                                                               const NodeParams& q, const K& kin) {
  const index_t c = sheet_index(i, j, q);
  ExplicitPointUpdate out =
      explicit_point_update(v[c], w[c], sheet_diffusion(v, i, j, q), current, kin, q.k);
  real held = 0.0;
  if (sheet_dirichlet(i, j, q, held)) out.v = held;
  return out;
}

}  // namespace fhn
