#pragma once
// The per-node updates of the uniform-grid schemes as the schemes see them: the point layer
// (schemes/point/: the Laplacian of every medium and the explicit update, for 1, 2 and 3 axes)
// with its parameters built from a Problem, the heterogeneous sheet's per-node kinetics, and the
// Crank-Nicolson/Newton rows of a cable. Host/device inline functions: the CPU loops and the
// CUDA kernels call exactly these, so both backends evaluate the same expressions in the same
// order. The kinetics form K (src/kinetics/) is a template parameter: `kin` holds its parameters.
#include "config/config.hpp"
#include "grid/domain.hpp"
#include "kinetics/kinetics.hpp"
#include "model/problem.hpp"
#include "model/sides.hpp"
#include "schemes/crank_nicolson_point.hpp"
#include "schemes/point/point_1d.hpp"
#include "schemes/point/point_2d.hpp"
#include "schemes/point/point_3d.hpp"

namespace fhn {

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

// D (L_h u)_i of a cable as the Newton rows below read it: from u_{i-1}, u_i, u_{i+1} at an
// interior node, D (u_{i-1} - 2 u_i + u_{i+1}) / h^2; from an end's value and its one
// neighbour's (the mirrored ghost node), 2 D (u_inner - u_end) / h^2; from the array anywhere.
// The values are point_1d.hpp's Laplacian's, bit for bit, but spelled with r inside each branch:
// in crank_nicolson_cuda.cu (FMA contraction on) a product r (..) shared by the branches would
// be fused with the reaction's sum after the select, which rounds the Newton rows differently
// from the CPU and from earlier builds (PTX of the fused rows: fma(sum, r, f) in place of
// fma(f's product, r sum)).
FHN_HOST_DEVICE inline real diffusion_of(real left, real centre, real right, const NodeParams& q) {
  return q.r * (left - 2.0 * centre + right);
}
FHN_HOST_DEVICE inline real end_diffusion_of(real inner, real end, const NodeParams& q) {
  return q.r * 2.0 * (inner - end);
}
FHN_HOST_DEVICE inline real diffusion_term(const real* u, index_t i, const NodeParams& q) {
  if (i == 0) return end_diffusion_of(u[1], u[0], q);
  if (i == q.n[0] - 1) return end_diffusion_of(u[i - 1], u[i], q);
  return diffusion_of(u[i - 1], u[i], u[i + 1], q);
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

// rhs_i = v_i/k + 1/2 [D (L_h v)_i + f(v_i, w_i)] + current_i, current = I's mean over the step.
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

// ---- Heterogeneous sheets ---------------------------------------------------------------------
// What a node update of a heterogeneous sheet reads besides v and w: the diffusion tensor
// (point_2d.hpp) and the per-node kinetics parameters.
struct MediumView : TensorMedium<real> {
  const real* kinetics[kMaxFormParameters] = {};  // the form's parameters per node (its order)
};

// The kinetics at array index c of a MediumView's sheet: `uniform` with the per-node parameters
// (the KineticsAt of point_2d.hpp's heterogeneous explicit_update).
template <class K>
struct FieldKinetics {
  const K& uniform;
  const real* const (&values)[kMaxFormParameters];
  FHN_HOST_DEVICE K operator()(index_t c) const { return kinetics_at(uniform, values, c); }
};
template <class K>
FHN_HOST_DEVICE inline FieldKinetics<K> field_kinetics(const K& uniform, const MediumView& m) {
  return {uniform, m.kinetics};
}

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

}  // namespace fhn
