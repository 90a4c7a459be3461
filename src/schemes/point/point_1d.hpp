#pragma once
// The point layer on a cable (grid_point.hpp): node i of N_x nodes is u[i]. At a no-flux end the
// mirrored ghost node gives (L_h u)_0 = 2 (u_1 - u_0) / h^2 (no-flux order 2), or the end copies
// its neighbour's new v, v_0 = v_1 (order 1); a Dirichlet end holds its value.
#include "schemes/point/grid_point.hpp"

namespace fhn {

// A cable's end conditions: the type and value of its low (end 0, x = 0) or high end. A select,
// not an index: a kernel that keeps a mutable copy of NodeParams (the fused Newton rows) would
// otherwise put the whole copy in local memory (measured: a 256-byte stack frame, +20%).
template <class Real>
FHN_HOST_DEVICE inline BoundaryType end_type(const GridParams<Real>& q, int end) {
  return end == 0 ? q.sides.type[0][0] : q.sides.type[0][1];
}
template <class Real>
FHN_HOST_DEVICE inline Real end_value(const GridParams<Real>& q, int end) {
  return end == 0 ? q.sides.value[0][0] : q.sides.value[0][1];
}

// Which end condition replaces row i: 0 none, 1 Dirichlet, 2 first-order no-flux copy.
template <class Real>
FHN_HOST_DEVICE inline int replaced_row(index_t i, const GridParams<Real>& q) {
  if (i != 0 && i != q.n[0] - 1) return 0;
  const BoundaryType type = end_type(q, i == 0 ? 0 : 1);
  if (type == BoundaryType::dirichlet) return 1;
  return q.no_flux_order == 1 ? 2 : 0;
}

// D (L_h u)_i anywhere on a cable (the ends by the mirrored ghost node).
template <class Real>
FHN_HOST_DEVICE inline Real laplacian(const Real* u, index_t i, const GridParams<Real>& q) {
  const index_t at[kMaxAxes] = {i, 0, 0};
  return laplacian<1>(u, i, at, q);
}

// Forward Euler at node i of a cable, `current(j)` the current at node j (a first-order end reads
// its neighbour's): an interior node as
// explicit_interior_update<1>; a Dirichlet end holds its value, a first-order no-flux end copies
// its neighbour's new v (v_0 = v_1).
template <class Real, class K, class Current>
FHN_HOST_DEVICE inline PointUpdate<Real> explicit_update(const Real* v, const Real* w,
                                                         const Current& current, index_t i,
                                                         const GridParams<Real>& q, const K& kin) {
  auto update = [&](index_t j) {
    return explicit_point_update(v[j], w[j], laplacian(v, j, q), current(j), kin, q.k);
  };
  PointUpdate<Real> out = update(i);
  switch (replaced_row(i, q)) {
    case 1: out.v = end_value(q, i == 0 ? 0 : 1); break;
    case 2: out.v = update(i == 0 ? 1 : q.n[0] - 2).v; break;
    default: break;
  }
  return out;
}

}  // namespace fhn
