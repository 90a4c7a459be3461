#include "solvers/cuda/partitioned.hpp"

#include <string>

#include "core/error.hpp"

namespace fhn::solvers {

namespace {

index_t checked_n_max(index_t n_max) {
  FHN_VERIFY(n_max >= 1, InternalError,
             "partitioned: solver made for n_max = " + std::to_string(n_max));
  // One block per tile: the grid of the first pass has ceil(n / kTileRows) blocks.
  FHN_VERIFY(n_max / partitioned::kTileRows < 2147483647, DeviceError,
             "partitioned: " + std::to_string(n_max) +
                 " unknowns need more thread blocks than one launch can have");
  return n_max;
}

}  // namespace

PartitionedSolver::PartitionedSolver(index_t n_max)
    : n_max_(checked_n_max(n_max)), workspace_(n_max) {}

void PartitionedSolver::solve(const TridiagonalSystem& a, real* rhs_in_solution_out) {
  solve_on(a, rhs_in_solution_out, nullptr);
}

void PartitionedSolver::solve_on(const TridiagonalSystem& a, real* rhs_in_solution_out,
                                 cudaStream_t stream) {
  FHN_VERIFY(a.n >= 1 && a.n <= n_max_, InternalError,
             "partitioned: system of size " + std::to_string(a.n) + " for a solver made for " +
                 std::to_string(n_max_));
  // In place: each pass-2 block reads and writes only its own tile of the right-hand side.
  partitioned::solve(partitioned::ArrayRows{a.lower, a.diag, a.upper, rhs_in_solution_out},
                     partitioned::ArraySink{rhs_in_solution_out}, a.n, workspace_, stream);
}

}  // namespace fhn::solvers
