#pragma once
// One tridiagonal system whose rows are spread over the ranks of a run in consecutive blocks
// (a cable's slabs), solved by the partition method: each rank reduces its block to two rows in
// the block's first and last unknowns, the root solves the 2P reduced rows, each rank then
// finishes its block. Every rank calls solve() with its block; the call is collective.
//
// Rank r's block (m >= 2 rows, k = 0..m-1): a_k x_{k-1} + b_k x_k + c_k x_{k+1} = d_k, where
// a_0 couples to L = the previous rank's last unknown and c_{m-1} to R = the next rank's first
// (both 0 at the ends of the chain). With T the block without those two couplings (Thomas):
//   x = y + L p + R q,   T y = d,  T p = -a_0 e_0,  T q = -c_{m-1} e_{m-1}.
// Its first and last rows F = x_0 and G = x_{m-1} then satisfy
//   (A) F - p_0 L - q_0 R = y_0,   (B) G - p_{m-1} L - q_{m-1} R = y_{m-1},
// with L = G of rank r-1 and R = F of rank r+1. Taking A - (q_0/q_{m-1}) B and
// B - (p_{m-1}/p_0) A keeps each row's unknowns neighbours in the order (F_0, G_0, F_1, ...):
//   F_r - (p_0 - q_0 p_{m-1}/q_{m-1}) G_{r-1} - (q_0/q_{m-1}) G_r = y_0 - (q_0/q_{m-1}) y_{m-1},
//   G_r - (p_{m-1}/p_0) F_r - (q_{m-1} - p_{m-1} q_0/p_0) F_{r+1} = y_{m-1} - (p_{m-1}/p_0) y_0
// (at a chain end p or q is 0 and the row is A or B as it is): a tridiagonal system of 2P rows,
// diagonally dominant when the blocks are (|p|, |q| < 1, decaying away from their coupling).
// Traffic per solve and rank: 8 values to the root, 3 back (L, R and whether the root succeeded).
//
// The reduced system (reduced_rows, RanksReducedSystem) only needs the six end values of a
// rank's y, p and q, wherever these were computed: RanksPartitionedSolver below solves the blocks
// by Thomas on the host; the CUDA Crank-Nicolson slabs by a GPU solver (crank_nicolson_cuda.cu).
#include <array>

#include "parallel/communicator.hpp"
#include "solvers/cpu/thomas.hpp"

namespace fhn::solvers {

// The first and last values of a block's three solutions y, p, q (p = 0 without a left
// neighbour, q = 0 without a right one).
struct BlockEnds {
  real y_first, y_last;
  real p_first, p_last;
  real q_first, q_last;
};

// A rank's two reduced rows, (lower, diag, upper, rhs) of A - (q_0/q_{m-1}) B then of
// B - (p_{m-1}/p_0) A; has_left / has_right: whether the previous / next rank exists.
std::array<real, 8> reduced_rows(const BlockEnds& ends, bool has_left, bool has_right);

// The couplings of rank r's block: L = G_{r-1} and R = F_{r+1} (0 at the ends of the chain).
struct BlockCouplings {
  real left;
  real right;
};

// The collective half of the partition method over the ranks of `comm`.
class RanksReducedSystem {
 public:
  explicit RanksReducedSystem(Communicator& comm);
  // Every rank passes its block's ends: the root gathers the 2P reduced rows, solves them
  // (Thomas) and scatters each rank its L and R. Throws NumericalError on every rank alike when
  // the reduced system is not diagonally dominant or singular.
  BlockCouplings solve(const BlockEnds& ends);

 private:
  Communicator& comm_;
  ThomasSolver thomas_;  // on the root: 2P rows
};

class RanksPartitionedSolver final : public TridiagonalSolver {
 public:
  // n_max: the largest block a rank will pass.
  RanksPartitionedSolver(Communicator& comm, index_t n_max);
  std::string_view name() const override { return "thomas, partitioned over ranks"; }
  MemorySpace space() const override { return MemorySpace::host; }
  // `a`: this rank's block, with a.lower[0] and a.upper[n-1] its couplings to the neighbouring
  // ranks (0 at the ends of the chain). Throws NumericalError on every rank when a block or the
  // reduced system is not diagonally dominant on some rank.
  void solve(const TridiagonalSystem& a, real* rhs_in_solution_out) override;

 private:
  Communicator& comm_;
  ThomasSolver local_;
  RanksReducedSystem reduced_;
  std::vector<real> p_, q_;
};

}  // namespace fhn::solvers
