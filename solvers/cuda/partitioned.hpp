#pragma once
// The partitioned GPU tridiagonal solver (backend `partitioned`, the default on cuda): chunks of
// 32 rows per thread reduced to a small interface system, solved recursively, then substituted
// back; 72 bytes per unknown (partitioned.cuh has the algorithm). Any n >= 1; no pivoting, so
// the matrix must be diagonally dominant (Crank-Nicolson Jacobians are). The workspace is made
// once for n_max; solve() only enqueues kernels on the default stream.
#include "solvers/cuda/partitioned.cuh"
#include "solvers/tridiagonal.hpp"

namespace fhn::solvers {

class PartitionedSolver final : public TridiagonalSolver {
 public:
  explicit PartitionedSolver(index_t n_max);
  std::string_view name() const override { return "partitioned"; }
  MemorySpace space() const override { return MemorySpace::device; }
  // Device pointers. Reads lower[0] and upper[n-1] but treats them as zero; leaves the
  // diagonals untouched.
  void solve(const TridiagonalSystem& a, real* rhs_in_solution_out) override;
  // The same on a given stream (e.g. one being captured into a CUDA graph).
  void solve_on(const TridiagonalSystem& a, real* rhs_in_solution_out, cudaStream_t stream);

 private:
  index_t n_max_;
  partitioned::Workspace workspace_;
};

}  // namespace fhn::solvers
