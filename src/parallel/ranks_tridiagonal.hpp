#pragma once
// One tridiagonal system whose rows are spread over the ranks of a run in consecutive blocks
// (a cable's slabs), solved by the partition method (solvers/cpu/partition_method.hpp, where the
// maths is): each rank reduces its block to two rows in the block's first and last unknowns, the
// root gathers and solves the 2P reduced rows and sends each rank its couplings L and R, each rank
// then finishes its block. Every call here is collective.
// Traffic per solve and rank: 8 values to the root, 3 back (L, R and whether the root succeeded).
#include <vector>

#include "parallel/communicator.hpp"
#include "solvers/cpu/partition_method.hpp"
#include "solvers/cpu/thomas.hpp"

namespace fhn {

// The collective half of the partition method over the ranks of `comm`: the reduced system of
// the blocks' ends. RanksPartitionedSolver below computes the ends by Thomas on the host; the
// CUDA Crank-Nicolson slabs by a GPU solver (crank_nicolson_cuda.cu).
class RanksReducedSystem {
 public:
  explicit RanksReducedSystem(Communicator& comm);
  // Every rank passes its block's ends: the root gathers the 2P reduced rows, solves them
  // (Thomas) and scatters each rank its L and R. Throws NumericalError on every rank alike when
  // the reduced system is not diagonally dominant or singular.
  solvers::BlockCouplings solve(const solvers::BlockEnds& ends);

 private:
  Communicator& comm_;
  solvers::ThomasSolver thomas_;  // on the root: 2P rows
};

class RanksPartitionedSolver final : public solvers::TridiagonalSolver {
 public:
  // n_max: the largest block a rank will pass.
  RanksPartitionedSolver(Communicator& comm, index_t n_max);
  std::string_view name() const override { return "thomas, partitioned over ranks"; }
  MemorySpace space() const override { return MemorySpace::host; }
  // `a`: this rank's block, with a.lower[0] and a.upper[n-1] its couplings to the neighbouring
  // ranks (0 at the ends of the chain). Throws NumericalError on every rank when a block or the
  // reduced system is not diagonally dominant on some rank.
  void solve(const solvers::TridiagonalSystem& a, real* rhs_in_solution_out) override;

 private:
  Communicator& comm_;
  solvers::ThomasSolver local_;
  RanksReducedSystem reduced_;
  std::vector<real> p_, q_;
};

}  // namespace fhn
