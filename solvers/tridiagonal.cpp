#include "solvers/tridiagonal.hpp"

#include "solvers/cpu/thomas.hpp"
#include "solvers/device_solvers.hpp"

namespace fhn::solvers {

std::unique_ptr<TridiagonalSolver> make_tridiagonal_solver(TridiagonalBackend backend,
                                                           index_t n_max) {
  if (backend == TridiagonalBackend::thomas) return std::make_unique<ThomasSolver>(n_max);
  return make_device_tridiagonal_solver(backend, n_max);
}

}  // namespace fhn::solvers
