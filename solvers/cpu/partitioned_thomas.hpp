#pragma once
// One tridiagonal system on one core, cut into chunks that are eliminated kLanes at a time, so
// that the divisions of kLanes independent Thomas sweeps overlap (backend
// `thomas_partitioned`). A single Thomas sweep is a chain of dependent divisions (about 10 ns
// per unknown on the development machine); kLanes chains side by side took 2.7 ns per unknown
// at 2^20 and 3.4 ns at 2^22 there (BENCHMARKS.md).
//
// The chunks are the blocks of the partition method of partition_method.hpp (x = y + L p + R q
// per block, two reduced rows per block from the ends of y, p and q: reduced_rows): in
// parallel/ranks_tridiagonal.hpp the blocks are ranks, here they are chunks of m rows of one array. Chunk j of a group of kLanes
// consecutive chunks is lane j: row k of every lane is eliminated before row k + 1 of any, two
// lanes per SSE2 register (the build's baseline; no run-time dispatch to AVX: the solve is bound
// by its instruction count, strided loads and register spills, and at 2^22 by memory, not by
// the width of the divisions).
//
// A solve is two passes over the system with the 2P-row reduced system between them:
//   1. reduce: one forward sweep per chunk gives the six ends of y, p and q (stores nothing
//      else; the rows are checked here);
//   2. the reduced system (reduced_rows, solved by Thomas): each chunk's couplings L and R;
//   3. substitute: Thomas on each chunk again, with r_0 - l_0 L and r_{m-1} - u_{m-1} R.
// Recomputing the chunk in pass 3 reads the system twice (72 B per unknown against the 40 B
// model) but keeps every intermediate in cache; storing c', y' and p' of every row for one
// back substitution of y' + L p' + R q' would move 88 B. partitioned_thomas.cpp counts the
// bytes step by step.
//
// Systems of fewer than kLanes * kMinChunk rows, and systems with a row not dominant by a margin
// ((1 - 1e-13) |d| > |l| + |u| fails: not dominant, or weakly), go to one Thomas sweep
// (thomas_solve), which solves or refuses them exactly as ThomasSolver does (the same message,
// naming the same row).
#include <vector>

#include "solvers/cpu/partition_method.hpp"
#include "solvers/tridiagonal.hpp"

namespace fhn::solvers {

class PartitionedThomasSolver final : public TridiagonalSolver {
 public:
  static constexpr index_t kLanes = 8;       // chunks eliminated side by side (4 SSE2 registers)
  // Rows per chunk at most: -c' and y' of a group (65 KB) stay in L2 between pass 3's sweeps.
  // Chunks have m = 8 (mod 16) rows, so that the K lanes, m * 8 B apart, fall in K different
  // sets of the L1 cache (64 sets of 64 B lines): with m = 512 they share one set, and a solve
  // at 2^22 took 2.2x longer.
  static constexpr index_t kMaxChunk = 520;
  static constexpr index_t kMinChunk = 16;  // below K * 16 rows: one Thomas sweep

  explicit PartitionedThomasSolver(index_t n_max);
  std::string_view name() const override { return "thomas_partitioned"; }
  MemorySpace space() const override { return MemorySpace::host; }
  // Throws NumericalError naming the row when |d_i| < |l_i| + |u_i| or a pivot of the
  // elimination in row order vanishes (the refusals of ThomasSolver).
  void solve(const TridiagonalSystem& a, real* rhs_in_solution_out) override;

 private:
  std::vector<real> c_prime_;                   // one Thomas sweep: c' of every row
  std::vector<BlockEnds> ends_;                 // per chunk, from pass 1
  std::vector<real> lower_, diag_, upper_, z_;  // the reduced system, 2 rows per chunk
  std::vector<real> n_group_, y_group_;         // pass 3: -c' and y' of one group, row-major
  std::vector<real> pad_lower_, pad_diag_, pad_upper_, pad_rhs_;  // the last group, padded
};

}  // namespace fhn::solvers
