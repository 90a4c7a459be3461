#pragma once
// The Thomas algorithm over a batch of systems (backend `thomas` of the batched interface): the
// systems are cut into groups of consecutive systems, and the groups are spread over the cores
// (OpenMP). Inside a group the sweeps advance all the group's systems one row at a time, so that
// - interleaved systems (columns: system stride 1) are walked row segment by row segment, a
//   contiguous run of memory the compiler vectorises, and the group's data stays in cache
//   between the forward and the backward sweep;
// - contiguous systems (rows) run several independent elimination chains side by side, which
//   hides the latency of the divisions that bounds a single Thomas sweep.
#include <vector>

#include "solvers/batched_tridiagonal.hpp"

namespace fhn::solvers {

class BatchedThomasSolver final : public BatchedTridiagonalSolver {
 public:
  std::string_view name() const override { return "thomas"; }
  MemorySpace space() const override { return MemorySpace::host; }
  // Keeps the LU factors of the shared matrix (factor_shared_matrix: c'_k and 1/m_k); throws
  // NumericalError naming the row when it is not diagonally dominant or a pivot vanishes.
  void set_matrix(const real* lower, const real* diag, const real* upper, index_t n) override;
  // One forward and one backward sweep over the right sides (no division).
  void solve(const BatchLayout& layout, real* rhs_in_solution_out) override;
  // Thomas per system, checking dominance row by row as ThomasSolver does; throws
  // TridiagonalFailure naming the system and the row.
  void solve(const BatchLayout& layout, const real* lower, const real* diag, const real* upper,
             real* rhs_in_solution_out) override;

 private:
  // The above on one plane's systems, numbered from `base` (the plane's first in the batch).
  void solve_plane(const BatchLayout& layout, const real* lower, const real* diag,
                   const real* upper, real* r, index_t base);
  // Systems per group for `layout` and the workspace (c' of a group per thread) it needs.
  index_t group_size(const BatchLayout& layout) const;
  real* thread_workspace(index_t per_thread);

  SharedFactors factors_;         // of the shared matrix (set_matrix)
  std::vector<real> workspace_;  // per-system solves: c' of one group per thread
};

}  // namespace fhn::solvers
