#pragma once
// cuSPARSE's gtsv2 as a tridiagonal backend, the GPU baseline: backend cusparse runs
// cusparseDgtsv2_nopivot, backend cusparse_pivot runs cusparseDgtsv2 (with pivoting). The
// handle and the workspace are made once, for the largest system; solve() only enqueues work on
// the default stream and never waits for the GPU.
#include <cusparse.h>

#include <cstddef>
#include <memory>

#include "core/cuda/device_buffer.hpp"
#include "solvers/tridiagonal.hpp"

namespace fhn::solvers {

class CusparseGtsvSolver final : public TridiagonalSolver {
 public:
  // backend: cusparse or cusparse_pivot. Throws DeviceError when n_max exceeds cuSPARSE's
  // 32-bit sizes or the handle or workspace cannot be made.
  CusparseGtsvSolver(TridiagonalBackend backend, index_t n_max);
  std::string_view name() const override { return backend_name(backend_); }
  MemorySpace space() const override { return MemorySpace::device; }
  // Device pointers; lower[0] and upper[n-1] must be zero (gtsv2 reads them).
  void solve(const TridiagonalSystem& a, real* rhs_in_solution_out) override;

 private:
  struct HandleDeleter {
    void operator()(cusparseHandle_t handle) const { cusparseDestroy(handle); }
  };

  // Bytes of workspace gtsv2 asks for to solve `a` (n >= 3 unknowns, one right-hand side).
  std::size_t workspace_bytes(const TridiagonalSystem& a, const real* rhs) const;

  TridiagonalBackend backend_;
  index_t n_max_;
  std::unique_ptr<cusparseContext, HandleDeleter> handle_;  // destroyed after workspace_
  cuda::DeviceBuffer<std::byte> workspace_;
};

}  // namespace fhn::solvers
