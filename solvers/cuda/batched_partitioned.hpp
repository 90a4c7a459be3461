#pragma once
// Our batched GPU tridiagonal solver (backend `partitioned` of the batched interface), for
// contiguous (rows), interleaved (columns) and other strided layouts. Every system is cut into
// chunks of consecutive rows, one thread per (system, chunk); a warp takes one chunk of 32
// consecutive systems and stages it in shared memory with coalesced loads whatever the layout.
// Three kernels: reduce each chunk to two interface values, solve each system's small interface
// system (one thread per system), substitute back chunk by chunk. batched_partitioned.cuh (the
// tiles, the constant-coefficient kernels) and .cu (the rest) have the maths and bytes moved:
// - constant coefficients: the LU factors of the shared matrix and, per chunk, how the chunk's
//   sweeps carry over to the next are computed once in set_matrix(); a solve reads the right
//   sides twice and writes them once (24 B per unknown, against 16 B for one pass);
// - per-system coefficients: the partition method (as the single-system `partitioned`
//   solver): reads the four arrays twice, writes x (72 B per unknown, against 40 B).
// No pivoting: the matrices must be diagonally dominant (set_matrix checks the shared one).
// Workspace grows to the largest batch seen; solve() only enqueues kernels on the default stream.
#include "core/cuda/device_buffer.hpp"
#include "solvers/batched_tridiagonal.hpp"

namespace fhn::solvers {

namespace batched {
struct Batch;  // batched_partitioned.cuh
}

class BatchedPartitionedSolver final : public BatchedTridiagonalSolver {
 public:
  std::string_view name() const override { return "partitioned"; }
  MemorySpace space() const override { return MemorySpace::device; }
  void set_matrix(const real* lower, const real* diag, const real* upper, index_t n) override;
  void solve(const BatchLayout& layout, real* rhs_in_solution_out) override;
  // Constant coefficients with a matrix per plane (the members of a sweep, each with its own D):
  // set_matrices factors `count` matrices of n rows (host arrays of count x n entries, one
  // matrix after another); solve() then takes plane p of the layout with matrix plane_matrix[p]
  // (a device array of layout.planes entries), in the same launches and with the same
  // arithmetic as a solve of that plane alone.
  void set_matrices(const real* lower, const real* diag, const real* upper, index_t n,
                    index_t count);
  void solve(const BatchLayout& layout, const int* plane_matrix, real* rhs_in_solution_out);
  // Reads lower[0] and upper[n-1] of each system but treats them as zero.
  void solve(const BatchLayout& layout, const real* lower, const real* diag, const real* upper,
             real* rhs_in_solution_out) override;
  // The shared matrix (set_matrix) with right sides formed as the solver reads them: entry
  // `row` of system s is form(s, row, in(s - 1, row), in(s, row), in(s + 1, row)), `in` laid
  // out as the batch and 0 standing for a system s +- 1 outside it; x goes to `x` (not `in`).
  // Form is a device functor; the ADI schemes pass their right side (the second difference
  // across the lines), which then never passes through memory. Defined in
  // batched_partitioned.cuh (CUDA translation units only).
  template <class Form>
  void solve_formed(const BatchLayout& layout, const real* in, const Form& form, real* x);

 private:
  // Verifies the layout against the matrix set; matrices: 1 for a solve of one matrix, 0 for a
  // solve that picks each plane's (any count).
  void check_constant(const BatchLayout& layout, index_t matrices) const;
  // The constant-coefficient solve around a Right (batched_partitioned.cuh: StoredRight,
  // FormedRight): reduce the tiles, carry_interfaces, substitute.
  template <class Right>
  void solve_constant(const BatchLayout& layout, const int* plane_matrix, const Right& right);
  void carry_interfaces(const batched::Batch& b, const int* plane_matrix, real* y_end,
                        real* x_start);
  // At least `count` reals of interface workspace (grown, never shrunk).
  real* interface_workspace(index_t count);

  index_t n_ = 0;                         // size of the shared matrix (0: none set)
  index_t matrices_ = 0;                  // matrices set (set_matrices), each n_ rows
  cuda::DeviceBuffer<real> row_factors_;   // per matrix and row: 1/m, alpha, gamma
  cuda::DeviceBuffer<real> chunk_factors_; // per matrix and chunk: P, rho, Q
  cuda::DeviceBuffer<real> interface_;
};

}  // namespace fhn::solvers
