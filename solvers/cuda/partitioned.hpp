#pragma once
// The partitioned GPU tridiagonal solver (backend `partitioned`, the default on cuda): chunks of
// 32 rows per thread reduced to a small interface system, solved recursively, then substituted
// back; 72 bytes per unknown (partitioned.cuh has the algorithm). Any n >= 1; no pivoting, so
// the matrix must be diagonally dominant (Crank-Nicolson Jacobians are). The workspace is made
// once for n_max; solve() only enqueues kernels on the default stream. A host header (the
// kernels are in partitioned.cuh), so that host code and tests can choose the launch form.
#include <cuda_runtime.h>

#include <memory>

#include "solvers/tridiagonal.hpp"

namespace fhn::solvers {

namespace partitioned {
class Workspace;
}

class PartitionedSolver final : public TridiagonalSolver {
 public:
  // How a solve runs: one kernel per pass and level (multi_kernel), one cooperative kernel
  // (single_kernel, any n; DeviceError from the constructor where the device cannot launch
  // cooperatively), or the rule of single_kernel_limit() (automatic).
  enum class Launch { automatic, multi_kernel, single_kernel };

  explicit PartitionedSolver(index_t n_max, Launch launch = Launch::automatic);
  ~PartitionedSolver() override;
  std::string_view name() const override { return "partitioned"; }
  MemorySpace space() const override { return MemorySpace::device; }
  // Device pointers. Reads lower[0] and upper[n-1] but treats them as zero; leaves the
  // diagonals untouched.
  void solve(const TridiagonalSystem& a, real* rhs_in_solution_out) override;
  // The same on a given stream (e.g. one being captured into a CUDA graph).
  void solve_on(const TridiagonalSystem& a, real* rhs_in_solution_out, cudaStream_t stream);

  // Whether a solve of n unknowns runs as the single kernel, and the kernels it launches (1, or
  // 2 per level above 1024 rows plus one).
  bool runs_single_kernel(index_t n) const;
  int kernel_launches(index_t n) const;
  // The largest n the automatic choice runs as the single kernel (from 1025 unknowns on: below,
  // the multi-kernel form is one launch too); 0 where the device cannot launch cooperatively.
  index_t single_kernel_limit() const { return single_kernel_limit_; }

 private:
  index_t n_max_;
  Launch launch_;
  int capacity_;  // co-resident blocks of the single kernel; 0: no cooperative launch
  index_t single_kernel_limit_;
  std::unique_ptr<partitioned::Workspace> workspace_;
};

}  // namespace fhn::solvers
