#pragma once
// Cyclic reduction on the GPU, our own tridiagonal backend (cyclic_reduction). Any n >= 1; no
// pivoting, so the matrix must be diagonally dominant (Crank-Nicolson Jacobians are). The
// workspace is made once for n_max; solve() only enqueues kernels on the default stream and never
// waits for the GPU.
#include "core/cuda/device_buffer.hpp"
#include "solvers/tridiagonal.hpp"

namespace fhn::solvers {

class CyclicReductionSolver final : public TridiagonalSolver {
 public:
  explicit CyclicReductionSolver(index_t n_max);
  std::string_view name() const override { return "cyclic_reduction"; }
  MemorySpace space() const override { return MemorySpace::device; }
  // Device pointers. Reads neither lower[0] nor upper[n-1]; leaves the diagonals untouched.
  void solve(const TridiagonalSystem& a, real* rhs_in_solution_out) override;

 private:
  index_t n_max_;
  // The reduced systems of levels 1, 2, ... one after another (fewer than n_max rows in all):
  // sub-, main and super-diagonal and right-hand side, which back substitution turns into x.
  cuda::DeviceBuffer<real> lower_;
  cuda::DeviceBuffer<real> diag_;
  cuda::DeviceBuffer<real> upper_;
  cuda::DeviceBuffer<real> rhs_;
};

}  // namespace fhn::solvers
