// Cyclic reduction (Hockney 1965; Buzbee, Golub & Nielson 1970), level by level in global memory.
//
// A level is a tridiagonal system of m rows
//   a_i x_{i-1} + b_i x_i + c_i x_{i+1} = d_i,   i = 0 .. m-1,
// where a_0 and c_{m-1} lie outside the matrix: they count as zero and are never read.
// Level 0 is the caller's system. Eliminating the even unknowns from the odd rows (with the even
// rows) leaves the odd rows i = 2j+1 as a system of floor(m/2) rows in x'_j = x_{2j+1}: level
// l+1. Reduction stops at a single unknown, which is solved directly; back substitution then
// recovers the even unknowns of each level from the odd ones, down to level 0, whose x overwrites
// the caller's rhs.
//
// Launches: 2 floor(log2 n) + 1 kernels, all on the default stream; the launch boundaries are
// the only synchronisation between levels.
// Bytes per unknown (fp64, summed over the levels m, m/2, m/4, ...): the reduction reads a, b, c, d
// (32 B) and writes half as many rows (16 B) per row of a level, 96 B per unknown in all; back
// substitution reads a, b, c, d at the even rows (whole cache lines: 32 B) and x' (4 B) and writes
// x (8 B) per row, 88 B per unknown in all. About 184 B against the 40 B floor of one solve.
#include "solvers/cuda/cyclic_reduction.hpp"

#include <array>
#include <string>

#include "core/cuda/cuda_check.hpp"
#include "core/cuda/launch.hpp"
#include "core/cuda/thread_index.cuh"

namespace fhn::solvers {

namespace {

using cuda::blocks_for;
using cuda::kBlock;
using cuda::thread_index;
// Levels of a system of n < 2^63 unknowns: floor(log2 n) + 1 <= 63.
constexpr int max_levels = 64;

// One level: m rows of (a, b, c | d). After back substitution d holds the solution x.
struct Level {
  const real* a;
  const real* b;
  const real* c;
  real* d;
  index_t m;
};

// n_max, checked; the widest launch (the first reduce_level) has a thread per odd row of n_max.
index_t checked_n_max(index_t n_max) {
  check_n_max("cyclic_reduction", n_max);
  cuda::check_grid((n_max + 1) / 2, kBlock,
                   "cyclic_reduction: " + std::to_string(n_max) + " unknowns");
  return n_max;
}

// Forward reduction from the fine level (m rows) to the coarse one (floor(m/2) rows), one thread
// per coarse row j, i.e. per odd fine row i = 2j+1. With
//   alpha = -a_i / b_{i-1}                    (row i-1 always exists)
//   gamma = -c_i / b_{i+1}, or 0 when i = m-1 (row i+1 missing)
// row i + alpha * row (i-1) + gamma * row (i+1) no longer contains x_{i-1} or x_{i+1}:
//   (alpha a_{i-1}) x_{i-2} + (b_i + alpha c_{i-1} + gamma a_{i+1}) x_i + (gamma c_{i+1}) x_{i+2}
//       = d_i + alpha d_{i-1} + gamma d_{i+1},
// that is, in x'_j = x_{2j+1}:
//   a'_j = alpha a_{i-1}
//   b'_j = b_i + alpha c_{i-1} + gamma a_{i+1}
//   c'_j = gamma c_{i+1}
//   d'_j = d_i + alpha d_{i-1} + gamma d_{i+1}.
// a_{i-1} is outside the matrix when i-1 = 0 and c_{i+1} when i+1 = m-1: both count as zero, so
// a'_0 = 0 and c'_{last} = 0 as the coarse level's own ends require. Diagonal dominance carries
// over from level to level, so no pivoting is needed.
__global__ void reduce_level(Level fine, real* a_out, real* b_out, real* c_out, real* d_out) {
  const index_t j = thread_index();
  const index_t m = fine.m;
  if (j >= m / 2) return;
  const index_t i = 2 * j + 1;
  const bool has_right = i + 1 < m;

  const real alpha = -fine.a[i] / fine.b[i - 1];
  const real gamma = has_right ? -fine.c[i] / fine.b[i + 1] : 0.0;
  const real a_left = i - 1 > 0 ? fine.a[i - 1] : 0.0;    // a_{i-1}
  const real c_right = i + 2 < m ? fine.c[i + 1] : 0.0;   // c_{i+1}
  const real a_right = has_right ? fine.a[i + 1] : 0.0;   // a_{i+1}
  const real d_right = has_right ? fine.d[i + 1] : 0.0;   // d_{i+1}

  a_out[j] = alpha * a_left;
  b_out[j] = fine.b[i] + alpha * fine.c[i - 1] + gamma * a_right;
  c_out[j] = gamma * c_right;
  d_out[j] = fine.d[i] + alpha * fine.d[i - 1] + gamma * d_right;
}

// The last level has one row: b_0 x_0 = d_0, so x_0 = d_0 / b_0.
__global__ void solve_single_row(Level last) { last.d[0] /= last.b[0]; }

// Back substitution from the coarse solution x'_j = x_{2j+1} to the fine level, one thread per
// even fine row i = 2k (k = 0 .. ceil(m/2)-1):
//   x_{2k+1} = x'_k                                               (when 2k+1 < m)
//   x_{2k}   = (d_{2k} - a_{2k} x_{2k-1} - c_{2k} x_{2k+1}) / b_{2k}
// where x_{2k-1} = x'_{k-1} is absent for k = 0 and x_{2k+1} = x'_k for 2k+1 = m. Each thread
// writes only its own rows 2k and 2k+1 and reads its neighbours from the coarse level, so the
// threads do not race.
__global__ void substitute_level(Level fine, const real* x_coarse) {
  const index_t k = thread_index();
  const index_t m = fine.m;
  if (k >= (m + 1) / 2) return;
  const index_t i = 2 * k;
  const bool has_left = k > 0;
  const bool has_right = i + 1 < m;

  real r = fine.d[i];
  if (has_left) r -= fine.a[i] * x_coarse[k - 1];
  if (has_right) {
    const real x_right = x_coarse[k];
    r -= fine.c[i] * x_right;
    fine.d[i + 1] = x_right;
  }
  fine.d[i] = r / fine.b[i];
}

}  // namespace

// Levels 1, 2, ... hold floor(n/2) + floor(n/4) + ... < n rows: n_max rows per array suffice.
CyclicReductionSolver::CyclicReductionSolver(index_t n_max)
    : n_max_(checked_n_max(n_max)),
      lower_(static_cast<std::size_t>(n_max_), "cyclic reduction sub-diagonals"),
      diag_(static_cast<std::size_t>(n_max_), "cyclic reduction diagonals"),
      upper_(static_cast<std::size_t>(n_max_), "cyclic reduction super-diagonals"),
      rhs_(static_cast<std::size_t>(n_max_), "cyclic reduction right-hand sides") {}

void CyclicReductionSolver::solve(const TridiagonalSystem& a, real* rhs) {
  const index_t n = a.n;
  check_system_size("cyclic_reduction", n, n_max_);

  // 1. Forward reduction: level l+1 (floor(m_l / 2) rows) from level l, until one row is left.
  //    The coarse levels lie one after another in the workspace arrays.
  std::array<Level, max_levels> levels{};
  levels[0] = {a.lower, a.diag, a.upper, rhs, n};
  int last = 0;
  index_t offset = 0;
  while (levels[last].m > 1) {
    const index_t m = levels[last].m / 2;
    real* a_out = lower_.data() + offset;
    real* b_out = diag_.data() + offset;
    real* c_out = upper_.data() + offset;
    real* d_out = rhs_.data() + offset;
    reduce_level<<<blocks_for(m), kBlock>>>(levels[last], a_out, b_out, c_out, d_out);
    FHN_CUDA_CHECK_LAUNCH();
    levels[++last] = {a_out, b_out, c_out, d_out, m};
    offset += m;
  }

  // 2. The single row of the last level.
  solve_single_row<<<1, 1>>>(levels[last]);
  FHN_CUDA_CHECK_LAUNCH();

  // 3. Back substitution, coarse to fine; level 0 writes x into the caller's rhs.
  for (int l = last - 1; l >= 0; --l) {
    substitute_level<<<blocks_for((levels[l].m + 1) / 2), kBlock>>>(levels[l],
                                                                        levels[l + 1].d);
    FHN_CUDA_CHECK_LAUNCH();
  }
}

}  // namespace fhn::solvers
