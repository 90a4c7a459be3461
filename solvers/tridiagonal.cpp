#include "solvers/tridiagonal.hpp"

#include <cmath>

#include "core/error.hpp"
#include "core/format.hpp"

#include "solvers/cpu/partitioned_thomas.hpp"
#include "solvers/cpu/thomas.hpp"
#include "solvers/device_solvers.hpp"

namespace fhn::solvers {

std::string not_dominant_message(std::string_view solver, const std::string& what, index_t row,
                                 real lower, real diag, real upper) {
  return std::string(solver) + ": " + what + " is not diagonally dominant at row " +
         std::to_string(row) + ": |diag| = " + format_exact(std::abs(diag)) +
         " < |lower| + |upper| = " + format_exact(std::abs(lower) + std::abs(upper)) +
         "; elimination without pivoting may be unstable (for Crank-Nicolson: reduce time.dt)";
}

void check_n_max(std::string_view solver, index_t n_max) {
  FHN_VERIFY(n_max >= 1, InternalError,
             std::string(solver) + ": solver made for n_max = " + std::to_string(n_max));
}

void check_system_size(std::string_view solver, index_t n, index_t n_max) {
  FHN_VERIFY(n >= 1 && n <= n_max, InternalError,
             std::string(solver) + ": system of size " + std::to_string(n) +
                 " for a solver made for at most " + std::to_string(n_max));
}

std::string vanishing_pivot_message(std::string_view solver, const std::string& what, index_t row) {
  return std::string(solver) + ": the pivot vanishes at row " + std::to_string(row) + " of " +
         what + " (the matrix is singular or nearly so)";
}

std::unique_ptr<TridiagonalSolver> make_tridiagonal_solver(TridiagonalBackend backend,
                                                           index_t n_max) {
  if (backend == TridiagonalBackend::thomas) return std::make_unique<ThomasSolver>(n_max);
  if (backend == TridiagonalBackend::thomas_partitioned)
    return std::make_unique<PartitionedThomasSolver>(n_max);
  return make_device_tridiagonal_solver(backend, n_max);
}

}  // namespace fhn::solvers
