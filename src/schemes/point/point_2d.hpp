#pragma once
// The point layer on a sheet (grid_point.hpp): node (i, j) of an N_x x N_y sheet is
// u[i + N_x (j - plane0)]. Three media, each with its Laplacian and explicit update under the
// same names: the uniform one (laplacian_of's 5-point sum), a tissue mask (MaskedMedium: finite
// volumes from each node's quadrant byte) and a per-node or anisotropic diffusion tensor
// (TensorMedium). A Dirichlet side holds v at its value; at a corner the first Dirichlet side of
// left, right, bottom, top wins (grid/sides.hpp). A cable is the sheet of one row (N_y = 1).
#include <cstdint>

#include "grid/quadrants.hpp"
#include "schemes/point/grid_point.hpp"

namespace fhn {

// The array index of node (i, j).
template <class Real>
FHN_HOST_DEVICE inline index_t sheet_index(index_t i, index_t j, const GridParams<Real>& q) {
  return i + q.n[0] * (j - q.plane0);
}

// Whether a Dirichlet side holds node (i, j), and its value.
template <class Real>
FHN_HOST_DEVICE inline bool sheet_dirichlet(index_t i, index_t j, const GridParams<Real>& q,
                                            Real& value) {
  const index_t at[kMaxAxes] = {i, j, 0};
  return dirichlet_at<2>(q.sides, at, q.n, value);
}

// ---- The uniform medium -----------------------------------------------------------------------
//   D (L_h u)_ij = D [d_xx + d_yy] / h^2,  d_xx = u_{i-1,j} - 2 u_ij + u_{i+1,j},  d_yy likewise;
// at a no-flux side the mirrored ghost node gives d = 2 (u_inner - u_side), as on a cable. For a
// planar wave (u constant along y) d_yy is exactly 0, so a sheet's row equals the cable bit for
// bit.

// D (L_h u)_ij at any node of a sheet's arrays.
template <class Real>
FHN_HOST_DEVICE inline Real laplacian(const Real* u, index_t i, index_t j,
                                      const GridParams<Real>& q) {
  const index_t at[kMaxAxes] = {i, j, 0};
  return laplacian<2>(u, sheet_index(i, j, q), at, q);
}

// Forward Euler at any node; a Dirichlet side then holds v at its value (w follows its ODE).
template <class Real, class K>
FHN_HOST_DEVICE inline PointUpdate<Real> explicit_update(const Real* v, const Real* w, Real current,
                                                         index_t i, index_t j,
                                                         const GridParams<Real>& q, const K& kin) {
  const index_t at[kMaxAxes] = {i, j, 0};
  return explicit_update_at<2>(v, w, current, sheet_index(i, j, q), at, q, kin);
}

// The uniform medium as a policy (the sheet's media alike, for code generic over them).
struct UniformMedium {};
template <class Real, class K>
FHN_HOST_DEVICE inline PointUpdate<Real> explicit_update(const Real* v, const Real* w, Real current,
                                                         index_t i, index_t j,
                                                         const GridParams<Real>& q,
                                                         const UniformMedium&, const K& kin) {
  return explicit_update(v, w, current, i, j, q, kin);
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

// The medium policy of a masked sheet: every node's quadrant byte, laid out like v (a slab's
// planes).
struct MaskedMedium {
  const std::uint8_t* quadrants;
};

template <class Real>
struct MaskedStencil {
  Real east, west, north, south;  // the face weights e, w, n, s
  Real inv_volume;                // h^2 / V: 4 / (number of quadrants), 0 with none
};

// 4 / quadrants, 0 for none (a product instead of a division per node).
template <class Real>
FHN_HOST_DEVICE inline Real inverse_quarters(int quadrants) {
  return quadrants == 0
             ? Real(0)
             : (quadrants == 4 ? Real(1)
                               : (quadrants == 2 ? Real(2)
                                                 : (quadrants == 1 ? Real(4) : Real(4) / Real(3))));
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
template <class Real = real>
FHN_HOST_DEVICE inline MaskedStencil<Real> masked_stencil_of(unsigned byte) {
  const Quadrants t = quadrants_of(byte);
  const Real half = Real(1) / Real(2);
  return {half * (t.ne + t.se), half * (t.nw + t.sw), half * (t.ne + t.nw), half * (t.se + t.sw),
          inverse_quarters<Real>(t.ne + t.nw + t.se + t.sw)};
}

// D (L_h u) at array index c from the node's quadrant byte. kInterior: every neighbour is in the
// grid (0 < i < N_x - 1, 0 < j < N_y - 1), so the sum reads all four without tests (a row's loop
// vectorises); otherwise a neighbour behind a face of weight 0 (beyond a side, or across the
// tissue's edge) is not read.
template <bool kInterior, class Real>
FHN_HOST_DEVICE inline Real masked_laplacian(const Real* u, unsigned byte, index_t c,
                                             const GridParams<Real>& q) {
  const MaskedStencil<Real> m = masked_stencil_of<Real>(byte);
  const index_t nx = q.n[0];
  const Real centre = u[c];
  auto face = [&](Real weight, index_t nb) {
    return kInterior || weight > Real(0) ? weight * (u[nb] - centre) : Real(0);
  };
  const Real ew = face(m.east, c + 1) + face(m.west, c - 1);
  const Real ns = face(m.north, c + nx) + face(m.south, c - nx);
  return q.r * ((ew + ns) * m.inv_volume);
}

// D (L_h u)_ij at any node of a masked sheet.
template <class Real>
FHN_HOST_DEVICE inline Real laplacian(const Real* u, index_t i, index_t j,
                                      const GridParams<Real>& q, const MaskedMedium& medium) {
  const index_t c = sheet_index(i, j, q);
  return masked_laplacian<false>(u, medium.quadrants[c], c, q);
}

// Forward Euler at node (i, j) of a masked sheet (any slab). A node outside the tissue (byte 0)
// keeps its state; a tissue node steps with the masked diffusion, a Dirichlet side holding v.
template <class Real, class K>
FHN_HOST_DEVICE inline PointUpdate<Real> explicit_update(const Real* v, const Real* w, Real current,
                                                         index_t i, index_t j,
                                                         const GridParams<Real>& q,
                                                         const MaskedMedium& medium, const K& kin) {
  const index_t c = sheet_index(i, j, q);
  const unsigned byte = medium.quadrants[c];
  if (byte == 0) return {v[c], w[c]};
  PointUpdate<Real> out = explicit_point_update(v[c], w[c], masked_laplacian<false>(v, byte, c, q),
                                                current, kin, q.k);
  Real held = 0;
  if (sheet_dirichlet(i, j, q, held)) out.v = held;
  return out;
}

// The same at an interior node (array index c): computes the step and then selects, branch-free,
// so that a CPU row loop vectorises; the same numbers.
template <class Real, class K>
FHN_HOST_DEVICE inline PointUpdate<Real> explicit_interior_update(const Real* v, const Real* w,
                                                                  Real current, index_t c,
                                                                  const GridParams<Real>& q,
                                                                  const MaskedMedium& medium,
                                                                  const K& kin) {
  const unsigned byte = medium.quadrants[c];
  const PointUpdate<Real> u = explicit_point_update(
      v[c], w[c], masked_laplacian<true>(v, byte, c, q), current, kin, q.k);
  return byte == 0 ? PointUpdate<Real>{v[c], w[c]} : u;
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


// The medium policy of a heterogeneous sheet: the per-node arrays its Laplacian reads (laid out
// like v and w, a slab's planes; nullptr where the constant holds) and constants.
template <class Real>
struct TensorMedium {
  const std::uint8_t* quadrants = nullptr;  // every node's quadrant byte (never nullptr)
  const Real* dxx = nullptr;  // D_xx per node (an isotropic D field: D, also as dyy)
  const Real* dyy = nullptr;
  const Real* dxy = nullptr;
  Real cxx = 0, cyy = 0, cxy = 0;  // the tensor where it is uniform (isotropic: D, D, 0)
  bool mixed = false;              // anisotropic: the D_xy terms are computed
  Real inv_h2 = 0;                 // 1 / h^2
};

// The coefficient of a face between nodes holding a and b: their harmonic mean, 0 when both are.
template <class Real>
FHN_HOST_DEVICE inline Real harmonic_mean(Real a, Real b) {
  const Real sum = a + b;
  return sum > Real(0) ? Real(2) * a * b / sum : Real(0);
}

// The coefficient of the face between array indices c and nb along one axis: the harmonic mean
// of the two nodes' values where D varies per node (`per_node`), else the uniform value. The
// explicit update and ADI's rows (adi_setup.cpp) take their faces from it.
template <class Real>
FHN_HOST_DEVICE inline Real face_diffusion(const Real* per_node, Real uniform, index_t c,
                                           index_t nb) {
  return per_node ? harmonic_mean(per_node[c], per_node[nb]) : uniform;
}

// D (L u) at array index c, node quadrant byte `byte` (non-zero), as above. Neighbours behind a
// face or cell of weight 0 (beyond a side, across the tissue's edge) are not read. kFull: the
// node has all four quadrants (byte kAllQuadrants), so no test is made; the same operations in
// the same order as without it (a weight of 1 multiplies exactly), so the same bits.
constexpr unsigned kAllQuadrants = kQuadrantNE | kQuadrantNW | kQuadrantSE | kQuadrantSW;
template <bool kFull, class Real>
FHN_HOST_DEVICE inline Real tensor_laplacian(const Real* u, unsigned byte, index_t c,
                                             const GridParams<Real>& q,
                                             const TensorMedium<Real>& m) {
  const Quadrants t = quadrants_of(byte);
  const MaskedStencil<Real> s = masked_stencil_of<Real>(byte);
  const index_t nx = q.n[0];
  const Real centre = u[c];
  auto along_x = [&](index_t nb) { return face_diffusion(m.dxx, m.cxx, c, nb); };
  auto along_y = [&](index_t nb) { return face_diffusion(m.dyy, m.cyy, c, nb); };
  Real sum = 0;
  if (kFull || s.east > Real(0)) sum += s.east * along_x(c + 1) * (u[c + 1] - centre);
  if (kFull || s.west > Real(0)) sum += s.west * along_x(c - 1) * (u[c - 1] - centre);
  if (kFull || s.north > Real(0)) sum += s.north * along_y(c + nx) * (u[c + nx] - centre);
  if (kFull || s.south > Real(0)) sum += s.south * along_y(c - nx) * (u[c - nx] - centre);
  if (m.mixed) {
    // The cell whose lower-left corner is array index a: the mean of its corners' D_xy.
    auto cell = [&](index_t a) {
      return m.dxy ? Real(0.25) * ((m.dxy[a] + m.dxy[a + 1]) + (m.dxy[a + nx] + m.dxy[a + nx + 1]))
                   : m.cxy;
    };
    Real mixed = 0;
    if (kFull || t.ne) mixed += cell(c) * (u[c + nx + 1] - centre);
    if (kFull || t.nw) mixed -= cell(c - 1) * (u[c + nx - 1] - centre);
    if (kFull || t.se) mixed -= cell(c - nx) * (u[c - nx + 1] - centre);
    if (kFull || t.sw) mixed += cell(c - nx - 1) * (u[c - nx - 1] - centre);
    sum += Real(0.5) * mixed;
  }
  return m.inv_h2 * (sum * s.inv_volume);
}

// The same at array index c of quadrant byte `byte` (non-zero), all four quadrants without tests.
template <class Real>
FHN_HOST_DEVICE inline Real tensor_laplacian(const Real* u, unsigned byte, index_t c,
                                             const GridParams<Real>& q,
                                             const TensorMedium<Real>& m) {
  return byte == kAllQuadrants ? tensor_laplacian<true>(u, byte, c, q, m)
                               : tensor_laplacian<false>(u, byte, c, q, m);
}

// D (L u)_ij at a tissue node (byte non-zero) of a heterogeneous sheet.
template <class Real>
FHN_HOST_DEVICE inline Real laplacian(const Real* u, index_t i, index_t j,
                                      const GridParams<Real>& q, const TensorMedium<Real>& m) {
  const index_t c = sheet_index(i, j, q);
  return tensor_laplacian(u, m.quadrants[c], c, q, m);
}

// Forward Euler at node (i, j) of a heterogeneous sheet (any slab): outside the tissue the node
// keeps its state; else v+ = v + k (D (L v) + f(v, w) + I), w+ = w + k g(v, w) with the form's
// parameters at the node, `kinetics(c)` (read only for a tissue node), a Dirichlet side holding v.
template <class Real, class KineticsAt>
FHN_HOST_DEVICE inline auto explicit_update(const Real* v, const Real* w, Real current, index_t i,
                                            index_t j, const GridParams<Real>& q,
                                            const TensorMedium<Real>& m,
                                            const KineticsAt& kinetics) -> PointUpdate<Real> {
  const index_t c = sheet_index(i, j, q);
  const unsigned byte = m.quadrants[c];
  if (byte == 0) return {v[c], w[c]};
  PointUpdate<Real> out = explicit_point_update(v[c], w[c], tensor_laplacian(v, byte, c, q, m),
                                                current, kinetics(c), q.k);
  Real held = 0;
  if (sheet_dirichlet(i, j, q, held)) out.v = held;
  return out;
}

// The same at a node known to have all four quadrants and no Dirichlet side (array index c), the
// quadrant byte not read: the same numbers (a GPU block of such nodes takes it, measured 1.3x
// faster on an H100 than reading the byte first, explicit_tissue_kernels.cu).
template <class Real, class KineticsAt>
FHN_HOST_DEVICE inline auto explicit_interior_update(const Real* v, const Real* w, Real current,
                                                     index_t c, const GridParams<Real>& q,
                                                     const TensorMedium<Real>& m,
                                                     const KineticsAt& kinetics)
    -> PointUpdate<Real> {
  return explicit_point_update(v[c], w[c], tensor_laplacian<true>(v, kAllQuadrants, c, q, m),
                               current, kinetics(c), q.k);
}

}  // namespace fhn
