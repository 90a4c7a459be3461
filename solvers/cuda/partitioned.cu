#include "solvers/cuda/partitioned.hpp"

#include <string>

#include "core/cuda/launch.hpp"

namespace fhn::solvers {

namespace {

index_t checked_n_max(index_t n_max) {
  check_n_max("partitioned", n_max);
  // One block per tile: the grid of the first pass has ceil(n / kTileRows) blocks.
  cuda::check_grid(n_max, partitioned::kTileRows,
                   "partitioned: " + std::to_string(n_max) + " unknowns");
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
  check_system_size("partitioned", a.n, n_max_);
  // In place: each pass-2 block reads and writes only its own tile of the right-hand side.
  partitioned::solve(partitioned::ArrayRows{a.lower, a.diag, a.upper, rhs_in_solution_out},
                     partitioned::ArraySink{rhs_in_solution_out}, a.n, workspace_, stream);
}

}  // namespace fhn::solvers
