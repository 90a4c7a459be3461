#pragma once
// cuSPARSE's batched tridiagonal solvers behind the batched interface (backend `cusparse`), the
// GPU baseline: cusparseDgtsv2StridedBatch for contiguous systems (element stride 1, any system
// stride >= n), cusparseDgtsvInterleavedBatch (algorithm 0, cuThomas: no pivoting, the fastest
// of its three) for interleaved systems (system stride 1, element stride = count). Systems of
// fewer than 3 unknowns, which cuSPARSE refuses, are solved by a kernel of ours. The handle is
// made once; the workspace grows to the largest batch seen; solve() only enqueues work on the
// default stream.
#include <cusparse.h>

#include <cstddef>
#include <memory>

#include "core/cuda/device_buffer.hpp"
#include "solvers/batched_tridiagonal.hpp"

namespace fhn::solvers {

class BatchedCusparseSolver final : public BatchedTridiagonalSolver {
 public:
  BatchedCusparseSolver();
  std::string_view name() const override { return "cusparse"; }
  MemorySpace space() const override { return MemorySpace::device; }
  // Checks dominance (cuSPARSE does not) and keeps the matrix; see solve() for its replication.
  void set_matrix(const real* lower, const real* diag, const real* upper, index_t n) override;
  // cuSPARSE has no constant-matrix form: the shared matrix is replicated as per-system arrays in
  // the layout of the right sides, once per layout (rebuilt when the layout changes), and every
  // solve reads them (40 B per unknown where our solver reads 16).
  void solve(const BatchLayout& layout, real* rhs_in_solution_out) override;
  // Device pointers; lower[0] and upper[n-1] of each system must be zero (cuSPARSE reads them).
  void solve(const BatchLayout& layout, const real* lower, const real* diag, const real* upper,
             real* rhs_in_solution_out) override;

 private:
  struct HandleDeleter {
    void operator()(cusparseHandle_t handle) const { cusparseDestroy(handle); }
  };

  // The cuSPARSE call for the layout (or the small-system kernel for n < 3).
  void run(const BatchLayout& layout, const real* lower, const real* diag, const real* upper,
           real* r);
  // At least `bytes` of workspace (grown, never shrunk; cudaMalloc's 256-byte alignment meets
  // cuSPARSE's 128).
  void* workspace(std::size_t bytes);

  std::unique_ptr<cusparseContext, HandleDeleter> handle_;  // destroyed after the buffers
  cuda::DeviceBuffer<std::byte> workspace_;
  index_t n_ = 0;
  cuda::DeviceBuffer<real> matrix_;      // lower, diag, upper of the shared matrix (3 n)
  cuda::DeviceBuffer<real> replicated_;  // the shared matrix in the layout of replicated_for_
  BatchLayout replicated_for_;
  cuda::DeviceBuffer<real> upper_copy_;  // du handed to gtsvInterleavedBatch, which overwrites it
};

}  // namespace fhn::solvers
