#pragma once
// The point layer on a box (grid_point.hpp): node (i, j, k) of an N_x x N_y x N_z box is
// u[i + N_x (j + N_y (k - plane0))]. The 7-point Laplacian is laplacian_of's sum of the second
// differences along x, y and z, in that order:
//   D (L_h u)_ijk = D [(d_xx + d_yy) + d_zz] / h^2,
// the mirrored ghost node at a no-flux face. Data constant along z have d_zz = 0 exactly (u - 2u
// + u), so each plane of such a box steps as the sheet, bit for bit; a planar wave along x steps
// as the cable. A Dirichlet face holds v; at an edge or corner the first Dirichlet side of left,
// right, bottom, top, front, back wins (grid/sides.hpp).
#include "schemes/point/grid_point.hpp"

namespace fhn {

// The array index of node (i, j, k) of a box.
template <class Real>
FHN_HOST_DEVICE inline index_t box_index(index_t i, index_t j, index_t k,
                                         const GridParams<Real>& q) {
  return i + q.n[0] * (j + q.n[1] * (k - q.plane0));
}

// D (L_h u) at any node (i, j, k) of a box's arrays.
template <class Real>
FHN_HOST_DEVICE inline Real laplacian(const Real* u, index_t i, index_t j, index_t k,
                                      const GridParams<Real>& q) {
  const index_t at[kMaxAxes] = {i, j, k};
  return laplacian<3>(u, box_index(i, j, k, q), at, q);
}

// Forward Euler at any node (i, j, k) of a box's arrays (neighbours across a face not read); a
// Dirichlet face then holds v.
template <class Real, class K>
FHN_HOST_DEVICE inline PointUpdate<Real> explicit_update(const Real* v, const Real* w, Real current,
                                                         index_t i, index_t j, index_t k,
                                                         const GridParams<Real>& q, const K& kin) {
  const index_t at[kMaxAxes] = {i, j, k};
  return explicit_update_at<3>(v, w, current, box_index(i, j, k, q), at, q, kin);
}

}  // namespace fhn
