#include "schemes/adi_setup.hpp"

#include "core/error.hpp"
#include "model/sides.hpp"
#include "model/tissue.hpp"
#include "schemes/node_updates.hpp"

namespace fhn {
namespace {

// Every node's row on both axes for a sheet with fields (adi_point.hpp, "Sheets with a tissue
// mask or D per node"): a_nb = (k / 2h^2)(h^2 / V) (face weight) D_face for each face.
void set_up_medium(const Problem& problem, AdiSetup& s) {
  const Domain& d = problem.domain;
  const ParameterFields& fields = problem.fields;
  s.quadrants = tissue_quadrants(fields.node_type, d);
  const index_t nx = d.nodes[0], n = d.node_count();
  const Sides sides = sides_of(problem.boundary, d.dims);
  const index_t extent[kMaxAxes] = {d.nodes[0], d.nodes[1], d.nodes[2]};
  const real* per_node = fields.diffusion.uniform() ? nullptr : fields.diffusion.values.data();
  const real uniform = problem.model.diffusion;
  const real scale = 0.5 * problem.time.dt / (d.dx * d.dx);
  for (int axis = 0; axis < 2; ++axis) {
    s.node_lower[axis].assign(static_cast<std::size_t>(n), 0.0);
    s.node_diag[axis].assign(static_cast<std::size_t>(n), 1.0);
    s.node_upper[axis].assign(static_cast<std::size_t>(n), 0.0);
  }
  for (index_t c = 0; c < n; ++c) {
    const unsigned byte = s.quadrants[static_cast<std::size_t>(c)];
    const index_t at[kMaxAxes] = {c % nx, c / nx, 0};
    real held = 0.0;
    if (byte == 0 || dirichlet_at<2>(sides, at, extent, held)) continue;  // the row (0, 1, 0)
    const MaskedStencil m = masked_stencil_of(byte);
    const real a = scale * m.inv_volume;
    // Per axis the coefficients below and above: (west, east), (south, north).
    const real weight[2][2] = {{m.west, m.east}, {m.south, m.north}};
    const index_t stride[2] = {1, nx};
    for (int axis = 0; axis < 2; ++axis) {
      const real below = weight[axis][0] > 0.0 ? a * weight[axis][0] * face_diffusion(per_node, uniform, c, c - stride[axis]) : 0.0;
      const real above = weight[axis][1] > 0.0 ? a * weight[axis][1] * face_diffusion(per_node, uniform, c, c + stride[axis]) : 0.0;
      const auto i = static_cast<std::size_t>(c);
      s.node_lower[axis][i] = below > 0.0 ? -below : 0.0;  // no -0.0: "no face" tests read 0
      s.node_upper[axis][i] = above > 0.0 ? -above : 0.0;
      s.node_diag[axis][i] = 1.0 + (below + above);
    }
  }
}

}  // namespace

AdiSetup adi_setup(const Problem& problem, const CrankNicolsonSpec& spec) {
  const Domain& d = problem.domain;
  AdiSetup s;
  s.reaction.h = 0.5 * problem.time.dt;
  s.reaction.tolerance = spec.newton.tolerance;
  s.reaction.max_iterations = static_cast<int>(spec.newton.max_iterations);
  s.r = problem.time.dt * problem.model.diffusion / (d.dx * d.dx);
  for (int axis = 0; axis < d.dims; ++axis) {
    const index_t n = d.nodes[axis];
    const bool low = problem.boundary.side(axis, false).type == BoundaryType::dirichlet;
    const bool high = problem.boundary.side(axis, true).type == BoundaryType::dirichlet;
    for (index_t i = 0; i < n; ++i) {
      const AdiRow row = adi_row(i, n, s.r, low, high);
      s.lower[axis].push_back(row.lower);
      s.diag[axis].push_back(row.diag);
      s.upper[axis].push_back(row.upper);
    }
  }
  if (d.dims == 2 && !problem.fields.uniform()) {
    // The scheme factories refuse a tensor before this (config/capabilities.hpp).
    FHN_VERIFY(!problem.fields.tensor.enabled, InternalError,
               "adi_setup: an anisotropic tensor has no place in the line solves");
    set_up_medium(problem, s);
  }
  return s;
}

AdiSolvers adi_solvers(const AdiSetup& setup, const Domain& domain,
                       solvers::TridiagonalBackend backend, MemorySpace space) {
  AdiSolvers out;
  for (int axis = 0; axis < domain.dims; ++axis) {
    auto solver = solvers::make_batched_tridiagonal_solver(backend);
    FHN_VERIFY(solver->space() == space, ConfigError,
               "scheme.crank_nicolson.tridiagonal: '" + std::string(solver->name()) +
                   (space == MemorySpace::host
                        ? "' works on device memory; the cpu backend needs 'thomas'"
                        : "' works on host memory; the cuda backend needs partitioned or cusparse"));
    solver->set_matrix(setup.lower[axis].data(), setup.diag[axis].data(), setup.upper[axis].data(),
                       domain.nodes[axis]);
    out.along[axis] = std::move(solver);
  }
  return out;
}

}  // namespace fhn
