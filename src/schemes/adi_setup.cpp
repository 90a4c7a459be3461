#include "schemes/adi_setup.hpp"

#include "core/error.hpp"

namespace fhn {

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
