#pragma once
// The point layer (docs/ARCHITECTURE.md section 4): what one node of a uniform grid computes in a
// step, as host/device inline templates over the real type `Real` (only `real` is instantiated)
// and the kinetics form K (src/kinetics/). The CPU loops and the CUDA kernels call exactly these,
// so both backends evaluate the same expressions in the same order. This header holds what every
// dimension shares; point_1d.hpp, point_2d.hpp and point_3d.hpp give the same names
// (`laplacian`, `explicit_update`, `explicit_interior_update`) for 1, 2 and 3 axes, with a medium
// policy on a sheet (uniform, masked by the quadrant byte, a per-node or anisotropic tensor).
// Nothing here reads a Config or a Problem: schemes/node_updates.hpp builds GridParams from them.
#include "core/types.hpp"
#include "grid/domain.hpp"
#include "grid/sides.hpp"

namespace fhn {

// Everything a node update needs to know besides the arrays (passed by value to kernels), one
// description for a cable, a sheet and a box: the nodes and the array strides along each axis,
// the planes of the slab axis the arrays hold, dt, D/h^2 and the ends of every axis.
//
// The slab axis is the last one of at least two (axis 1 of a cable and a sheet, axis 2 of a box):
// the arrays hold its planes [plane0, plane0 + planes), the whole grid (plane0 = 0, planes =
// n[slab axis]) or a rank's slab with its halo planes (parallel/decomposition.hpp); node (i, j)
// of a sheet is u[i + N_x (j - plane0)]. A cable is a sheet of one row.
template <class Real>
struct GridParams {
  int dims = 1;
  index_t n[kMaxAxes] = {0, 1, 1};       // nodes along each axis (1 beyond dims)
  index_t stride[kMaxAxes] = {1, 0, 0};  // array index step along each axis: 1, N_x, N_x N_y
  index_t plane0 = 0, planes = 1;
  Real k = 0;      // dt
  Real inv_k = 0;  // 1 / dt, once: the Newton rows multiply by it instead of dividing
  Real r = 0;      // D / h^2
  Sides sides;     // the ends of every axis (grid/sides.hpp)
  int no_flux_order = 2;  // cables: 2 the mirrored ghost node, 1 v_0 = v_1
};
using NodeParams = GridParams<real>;

// ---- The reaction: one forward Euler step at a point ------------------------------------------
// Given the diffusion term D (L_h v) at the node:
//   v+ = v + k (D L_h v + f(v, w) + I),   w+ = w + k g(v, w)
// (v+ confined to the form's invariant interval where the form has one: kinetics/barkley.hpp).
template <class Real>
struct PointUpdate {
  Real v;
  Real w;
};
using ExplicitPointUpdate = PointUpdate<real>;
template <class Real, class K>
FHN_HOST_DEVICE inline PointUpdate<Real> explicit_point_update(Real v, Real w, Real diffusion_term,
                                                               Real current, const K& kin, Real k) {
  return {kin.confine(v + k * (kin.add_f(diffusion_term, v, w) + current)), w + k * kin.g(v, w)};
}

// ---- The uniform Laplacian, spelled once ------------------------------------------------------
// The second difference along one axis from the values below, at and above a node; `first` and
// `last` say the node is on the axis's low or high side, where the mirrored ghost node gives
// 2 (u_inner - u_side) (a no-flux side; the value across it is not read):
//   d = u_below - 2 u + u_above.
template <class Real>
FHN_HOST_DEVICE inline Real axis_difference(Real below, Real centre, Real above, bool first,
                                            bool last) {
  if (first) return Real(2) * (above - centre);
  if (last) return Real(2) * (below - centre);
  return below - Real(2) * centre + above;
}

// D (L_h u) from the values below and above a node along each of its Dims axes: the second
// differences summed in axis order,
//   D (L_h u) = r d_x,  r (d_x + d_y),  r ((d_x + d_y) + d_z),   r = D / h^2.
// Every uniform Laplacian of the point layer (arrays, registers, interior or not) is this
// expression, so every path gives the same bits. kSides: test `at` for the grid's sides (false:
// the node is interior, no test). Data constant along an axis have its d = u - 2u + u = 0
// exactly, so a planar wave on a sheet or a box steps as the cable, bit for bit.
template <int Dims, bool kSides, class Real>
FHN_HOST_DEVICE inline Real laplacian_of(const Real (&below)[Dims], Real centre,
                                         const Real (&above)[Dims],
                                         const index_t (&at)[kMaxAxes],
                                         const GridParams<Real>& q) {
  Real sum = 0;
  for (int a = 0; a < Dims; ++a) {
    const Real d = axis_difference(below[a], centre, above[a], kSides && at[a] == 0,
                                   kSides && at[a] == q.n[a] - 1);
    sum = a == 0 ? d : sum + d;
  }
  return q.r * sum;
}

// The values below and above array index c of the node at `at` along each axis (0 across a
// side: not read).
template <int Dims, class Real>
FHN_HOST_DEVICE inline void neighbours(const Real* u, index_t c, const index_t (&at)[kMaxAxes],
                                       const GridParams<Real>& q, Real (&below)[Dims],
                                       Real (&above)[Dims]) {
  for (int a = 0; a < Dims; ++a) {
    below[a] = at[a] == 0 ? Real(0) : u[c - q.stride[a]];
    above[a] = at[a] == q.n[a] - 1 ? Real(0) : u[c + q.stride[a]];
  }
}

// D (L_h u) at array index c of the node at `at`, the neighbours read from u.
template <int Dims, class Real>
FHN_HOST_DEVICE inline Real laplacian(const Real* u, index_t c, const index_t (&at)[kMaxAxes],
                                      const GridParams<Real>& q) {
  Real below[Dims], above[Dims];
  neighbours<Dims>(u, c, at, q, below, above);
  return laplacian_of<Dims, true>(below, u[c], above, at, q);
}

// The same at an interior node (on no side), without tests: a row's loop vectorises.
template <int Dims, class Real>
FHN_HOST_DEVICE inline Real interior_laplacian(const Real* u, index_t c,
                                               const GridParams<Real>& q) {
  Real below[Dims], above[Dims];
  for (int a = 0; a < Dims; ++a) {
    below[a] = u[c - q.stride[a]];
    above[a] = u[c + q.stride[a]];
  }
  const index_t inside[kMaxAxes] = {1, 1, 1};
  return laplacian_of<Dims, false>(below, u[c], above, inside, q);
}

// ---- The explicit update on the uniform medium, any dimension ---------------------------------
// At an interior node from the neighbours' values (the GPU kernels pass them from registers and
// shared memory) or from the arrays.
template <int Dims, class Real, class K>
FHN_HOST_DEVICE inline PointUpdate<Real> explicit_interior_update_of(
    const Real (&below)[Dims], Real centre, const Real (&above)[Dims], Real w, Real current,
    const GridParams<Real>& q, const K& kin) {
  const index_t inside[kMaxAxes] = {1, 1, 1};
  return explicit_point_update(centre, w,
                               laplacian_of<Dims, false>(below, centre, above, inside, q), current,
                               kin, q.k);
}
template <int Dims, class Real, class K>
FHN_HOST_DEVICE inline PointUpdate<Real> explicit_interior_update(const Real* v, const Real* w,
                                                                  Real current, index_t c,
                                                                  const GridParams<Real>& q,
                                                                  const K& kin) {
  return explicit_point_update(v[c], w[c], interior_laplacian<Dims>(v, c, q), current, kin, q.k);
}

// At any node `at` from the neighbours' values (those across a side are ignored); a Dirichlet
// side then holds v at its value, w following its ODE (grid/sides.hpp: which side holds a
// corner). A cable's first-order no-flux end is its own (point_1d.hpp).
template <int Dims, class Real, class K>
FHN_HOST_DEVICE inline PointUpdate<Real> explicit_update_of(const Real (&below)[Dims], Real centre,
                                                            const Real (&above)[Dims], Real w,
                                                            Real current,
                                                            const index_t (&at)[kMaxAxes],
                                                            const GridParams<Real>& q,
                                                            const K& kin) {
  PointUpdate<Real> out = explicit_point_update(
      centre, w, laplacian_of<Dims, true>(below, centre, above, at, q), current, kin, q.k);
  Real held = 0;
  if (dirichlet_at<Dims>(q.sides, at, q.n, held)) out.v = held;
  return out;
}

// The same at array index c of the node at `at`, the neighbours read from v.
template <int Dims, class Real, class K>
FHN_HOST_DEVICE inline PointUpdate<Real> explicit_update_at(const Real* v, const Real* w,
                                                            Real current, index_t c,
                                                            const index_t (&at)[kMaxAxes],
                                                            const GridParams<Real>& q,
                                                            const K& kin) {
  Real below[Dims], above[Dims];
  neighbours<Dims>(v, c, at, q, below, above);
  return explicit_update_of<Dims>(below, v[c], above, w[c], current, at, q, kin);
}

}  // namespace fhn
