#pragma once
// Batches of random tridiagonal systems for the conformance suite that every batched backend
// runs (tests/unit/test_batched_thomas.cpp on the CPU, tests/gpu/test_gpu_batched.cpp on the GPU),
// and the oracle: the single-system ThomasSolver applied system by system.
#include <cstddef>
#include <limits>
#include <random>
#include <vector>

#include "solvers/batched_tridiagonal.hpp"
#include "support.hpp"

namespace fhn::test {

// Entries outside the batch (between systems) hold NaN: a solver must not write them.
constexpr real kGap = std::numeric_limits<real>::quiet_NaN();

// A batch in one layout: rows (element stride 1) or columns (system stride 1), `gap` unused
// entries between systems (rows) or after each row of systems (columns), filled with NaN; with
// `planes` > 1 the batch repeats in that many planes, `gap` entries apart.
struct HostBatch {
  solvers::BatchLayout layout;
  HostSystem matrix;                          // the shared matrix (constant coefficients)
  std::vector<real> lower, diag, upper, rhs;  // per-system coefficients and right sides
};

// `count` random strictly diagonally dominant systems of size n (random_dominant_system), and a
// shared matrix of the same kind.
HostBatch make_batch(index_t n, index_t count, bool columns, index_t gap, std::mt19937_64& rng,
                     index_t planes = 1);

// The expected solution: ThomasSolver on each system, in the batch's layout (NaN in the gaps).
std::vector<real> reference(const HostBatch& h, bool constant);

// The largest over systems of max_k |x - t| / max_k |t|; infinity when an entry is NaN or a
// gap was written.
real worst_relative_error(const solvers::BatchLayout& b, const std::vector<real>& x,
                          const std::vector<real>& truth);

bool same_bits(const std::vector<real>& a, const std::vector<real>& b);

// The sizes and counts of the conformance suite.
constexpr index_t kBatchSizes[] = {1, 2, 3, 31, 32, 33, 1023, 1024, 1025};
constexpr index_t kBatchCounts[] = {1, 3, 17, 33};

}  // namespace fhn::test
