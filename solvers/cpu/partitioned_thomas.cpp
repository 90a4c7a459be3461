#include "solvers/cpu/partitioned_thomas.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

#include "core/error.hpp"
#include "solvers/cpu/thomas.hpp"

namespace fhn::solvers {

namespace {

constexpr index_t K = PartitionedThomasSolver::kLanes;
constexpr index_t kMaxGroupRows = K * PartitionedThomasSolver::kMaxChunk;
// Pass 1 accepts a row when (1 - kMargin) |d| > |l| + |u|. Then every pivot of an elimination
// in row order, over a chunk or the whole system, has |m_k| >= |u_k| + kMargin |d_k| (|c'| < 1
// by induction), above thomas_solve's floor of 1e-14 |d_k|: the chunks eliminate stably and
// Thomas would not refuse the system. Rows closer to weak dominance, or not dominant, go to
// thomas_solve, which decides.
constexpr real kMargin = 1e-13;

// One group of K chunks of m rows: chunk (lane) j's row k at j m + k of each array.
struct Group {
  const real* lower;
  const real* diag;
  const real* upper;
  real* rhs;
  index_t m;
  bool at_top;  // lane 0 starts the system: its lower[0] lies outside the matrix (never read)
};

// Two lanes in one SSE2 register, with the element-wise operators of the GCC/Clang vector
// extension (every x86-64 and AArch64 target has them); K / 2 pairs make a row of the group.
using Pair = real __attribute__((vector_size(2 * sizeof(real))));
using PairBits = std::int64_t __attribute__((vector_size(2 * sizeof(real))));
constexpr index_t kPairs = K / 2;

// |v|: the sign bits cleared (one andpd).
Pair magnitude(Pair v) {
  constexpr std::int64_t all_but_sign = std::numeric_limits<std::int64_t>::max();
  return reinterpret_cast<Pair>(reinterpret_cast<PairBits>(v) &
                                PairBits{all_but_sign, all_but_sign});
}
Pair smaller(Pair a, Pair b) { return b < a ? b : a; }

// Row k of lanes 2q and 2q + 1 of a group's array a.
Pair lanes(const real* a, index_t m, index_t q, index_t k) {
  const index_t at = 2 * q * m + k;
  return Pair{a[at], a[at + m]};
}
void set_lanes(real* a, index_t m, index_t q, index_t k, Pair v) {
  const index_t at = 2 * q * m + k;
  a[at] = v[0];
  a[at + m] = v[1];
}
// Lanes 2q and 2q + 1 of a row of K values.
Pair pair_of(const real* row, index_t q) {
  Pair v;
  std::memcpy(&v, row + 2 * q, sizeof v);
  return v;
}
void set_pair(real* row, index_t q, Pair v) { std::memcpy(row + 2 * q, &v, sizeof v); }

// Asks for line k of each of the group's arrays: a group's arrays are K m values = m lines of
// 64 B each, so fetching one line per array per row has the next group in cache when its sweep
// starts. With the hardware prefetchers alone (4 K streams of 8 B per row) a solve at 2^22
// took about 1.2x longer.
void prefetch_line(const Group& g, index_t k) {
  const index_t at = k * (64 / static_cast<index_t>(sizeof(real)));
  __builtin_prefetch(g.lower + at);
  __builtin_prefetch(g.diag + at);
  __builtin_prefetch(g.upper + at);
  __builtin_prefetch(g.rhs + at);
}

// Row 0's lower entries of lanes 2q and 2q + 1 (0 for the system's row 0).
Pair first_lower(const Group& g, index_t q) {
  Pair l = lanes(g.lower, g.m, q, 0);
  if (g.at_top && q == 0) l[0] = 0.0;
  return l;
}

// Subnormal results flushed to zero while it lives (x86-64: MXCSR.FTZ; elsewhere nothing).
// Pass 1's w and p' decay geometrically along a chunk (by |c'| and |l / m| per row) and would
// spend tens of rows in the subnormal range, where an operation costs about 100 cycles: without
// it a solve at 2^22 took 1.7x longer on a Zen 5 EPYC. The ends then lose terms below 2.2e-308
// (at most m of them): absolute changes below 1e-304.
class FlushToZero {
 public:
#if defined(__SSE2__)
  FlushToZero() : saved_(_mm_getcsr()) { _mm_setcsr(saved_ | _MM_FLUSH_ZERO_ON); }
  ~FlushToZero() { _mm_setcsr(saved_); }
  FlushToZero(const FlushToZero&) = delete;
  FlushToZero& operator=(const FlushToZero&) = delete;

 private:
  unsigned saved_;
#endif
};

// Pass 1 on a group: the forward sweep of each chunk (its matrix T without the couplings l_0
// and u_{m-1}) for y, p and q of partition_method.hpp at once,
//   m_k = d_k - l_k c'_{k-1},  c'_k = u_k / m_k,
//   y'_k = (r_k - l_k y'_{k-1}) / m_k,  p'_k = -l_k p'_{k-1} / m_k
// from c'_{-1} = y'_{-1} = 0 and p'_{-1} = 1 (so p'_0 = -l_0 / m_0: T p = -l_0 e_0), written
// with n_k = -c'_k and the one division -1 / m_k. The back substitution z_k = z'_k - c'_k z_{k+1}
// is never run: the ends follow from the forward sweep.
//   Last row: y_{m-1} = y'_{m-1}, p_{m-1} = p'_{m-1}, and q (T q = -u_{m-1} e_{m-1}, zero in the
//   forward sweep down to row m-1) has q_{m-1} = -u_{m-1} / m_{m-1} = n_{m-1}.
//   First row: row 0 of U^{-1} (U unit upper bidiagonal with c' above the diagonal) is
//   w_k = prod_{i<k} n_i, so y_0 = sum_k w_k y'_k, p_0 = sum_k w_k p'_k and
//   q_0 = w_{m-1} q_{m-1} = w_m.
// Each row is checked against kMargin (min-reduced per lane: no branch in the loop); returns
// false when one fails.
// Bytes: read l, d, u, r (32 B per unknown); write 6 ends per chunk.
bool reduce_group(const Group& g, const Group& next, BlockEnds* ends) {
  const index_t m = g.m;
  constexpr real inf = std::numeric_limits<real>::infinity();
  Pair n[kPairs], y[kPairs], p[kPairs], w[kPairs], y0[kPairs], p0[kPairs], margin[kPairs];
  for (index_t q = 0; q < kPairs; ++q) {
    n[q] = y[q] = y0[q] = p0[q] = Pair{0.0, 0.0};
    p[q] = w[q] = Pair{1.0, 1.0};
    margin[q] = Pair{inf, inf};
  }
  auto eliminate = [&](index_t k, index_t q, Pair l) {
    const Pair d = lanes(g.diag, m, q, k), u = lanes(g.upper, m, q, k);
    margin[q] = smaller(margin[q], (1.0 - kMargin) * magnitude(d) - (magnitude(l) + magnitude(u)));
    const Pair minus_inverse = -1.0 / (d + l * n[q]);
    n[q] = u * minus_inverse;
    y[q] = (l * y[q] - lanes(g.rhs, m, q, k)) * minus_inverse;
    p[q] = l * p[q] * minus_inverse;
    y0[q] += w[q] * y[q];
    p0[q] += w[q] * p[q];
    w[q] *= n[q];
  };
  const FlushToZero flush;
  for (index_t q = 0; q < kPairs; ++q) eliminate(0, q, first_lower(g, q));
  for (index_t k = 1; k < m; ++k) {
    prefetch_line(next, k);
#pragma GCC unroll 8
    for (index_t q = 0; q < kPairs; ++q) eliminate(k, q, lanes(g.lower, m, q, k));
  }

  bool accepted = true;
  for (index_t q = 0; q < kPairs; ++q)
    for (int h = 0; h < 2; ++h) {
      accepted = accepted && margin[q][h] > 0.0;
      ends[2 * q + h] = {y0[q][h], y[q][h], p0[q][h], p[q][h], w[q][h], n[q][h]};
    }
  return accepted;
}

// Pass 3 on a group: Thomas on each chunk with its couplings moved to the right side,
//   r_0 -= l_0 L,  r_{m-1} -= u_{m-1} R   (left[j] = L, right[j] = R of lane j),
// with n_k = -c'_k as in pass 1; n and y' of row k, lane j in n_rows / y_rows[k K + j]
// (2 K m values, in cache between the sweeps), x_k = y'_k + n_k x_{k+1} over r.
// Bytes: read l, d, u, r (32 B per unknown), write x (8 B: r's lines are in cache already).
void substitute_group(const Group& g, const Group& next, const real* left, const real* right,
                      real* n_rows, real* y_rows) {
  const index_t m = g.m;
  Pair n[kPairs] = {}, y[kPairs] = {};
  auto eliminate = [&](index_t k, index_t q, Pair l, Pair r) {
    const Pair minus_inverse = -1.0 / (lanes(g.diag, m, q, k) + l * n[q]);
    n[q] = lanes(g.upper, m, q, k) * minus_inverse;
    y[q] = (l * y[q] - r) * minus_inverse;
    set_pair(n_rows + k * K, q, n[q]);
    set_pair(y_rows + k * K, q, y[q]);
  };
  for (index_t q = 0; q < kPairs; ++q) {
    const Pair l = first_lower(g, q);
    eliminate(0, q, l, lanes(g.rhs, m, q, 0) - l * pair_of(left, q));
  }
  for (index_t k = 1; k + 1 < m; ++k) {
    prefetch_line(next, k);
#pragma GCC unroll 8
    for (index_t q = 0; q < kPairs; ++q)
      eliminate(k, q, lanes(g.lower, m, q, k), lanes(g.rhs, m, q, k));
  }
  for (index_t q = 0; q < kPairs; ++q)
    eliminate(m - 1, q, lanes(g.lower, m, q, m - 1),
              lanes(g.rhs, m, q, m - 1) - lanes(g.upper, m, q, m - 1) * pair_of(right, q));

  for (index_t q = 0; q < kPairs; ++q) set_lanes(g.rhs, m, q, m - 1, y[q]);
  for (index_t k = m - 2; k >= 0; --k)
#pragma GCC unroll 8
    for (index_t q = 0; q < kPairs; ++q) {
      y[q] = pair_of(y_rows + k * K, q) + pair_of(n_rows + k * K, q) * y[q];
      set_lanes(g.rhs, m, q, k, y[q]);
    }
}

}  // namespace

PartitionedThomasSolver::PartitionedThomasSolver(index_t n_max)
    : c_prime_(static_cast<std::size_t>(std::max<index_t>(n_max, 1))) {
  if (n_max < K * kMinChunk) return;  // always one Thomas sweep
  const auto chunks = static_cast<std::size_t>(K * ((n_max + kMaxGroupRows - 1) / kMaxGroupRows));
  ends_.resize(chunks);
  for (std::vector<real>* v : {&lower_, &diag_, &upper_, &z_}) v->resize(2 * chunks);
  for (std::vector<real>* v :
       {&n_group_, &y_group_, &pad_lower_, &pad_diag_, &pad_upper_, &pad_rhs_})
    v->resize(kMaxGroupRows);
}

// Layout: chunks of m = ceil(n / (K G0)) rows (G0 = ceil(n / (K kMaxChunk))) rounded up to
// 8 (mod 16), G = ceil(n / (K m)) groups of K chunks; the last group holds the rows left and is
// solved from a copy padded to K m rows. Bytes per unknown:
//   pass 1 (reduce_group)       read l, d, u, r                                      32 B
//   the ends and the reduced system: per chunk of m rows 6 ends and 2 rows of
//   about 13 values each (written, read, eliminated), in cache                    < 1 B
//   pass 3 (substitute_group)   read l, d, u, r, write x                             40 B
//   the last group's copy       at most K m rows, in cache                            0 B
// 72 B per unknown, 1.8 times the model (40 B). Pass 3 walks the groups from the last, whose
// rows pass 1 read last and the last-level cache may still hold.
void PartitionedThomasSolver::solve(const TridiagonalSystem& a, real* r) {
  const index_t n = a.n;
  check_system_size(name(), n, static_cast<index_t>(c_prime_.size()));
  if (n < K * kMinChunk) return thomas_solve(name(), a, c_prime_.data(), r);

  index_t groups = (n + kMaxGroupRows - 1) / kMaxGroupRows;
  index_t m = (n + K * groups - 1) / (K * groups);
  m += (24 - m % 16) % 16;  // m = 8 (mod 16): see kMaxChunk
  groups = (n + K * m - 1) / (K * m);
  const index_t chunks = K * groups, last = groups - 1;

  // The last group's copy: upper[n-1] = 0 (outside the matrix) and rows (0, 1, 0 | 0) up to
  // K m rows, which decouple from the system (their chunks' ends vanish).
  const index_t last_first = last * K * m, last_rows = n - last_first;
  const auto group_rows = K * m;
  std::copy_n(a.lower + last_first, last_rows, pad_lower_.begin());
  std::copy_n(a.diag + last_first, last_rows, pad_diag_.begin());
  std::copy_n(a.upper + last_first, last_rows, pad_upper_.begin());
  std::copy_n(r + last_first, last_rows, pad_rhs_.begin());
  pad_upper_[static_cast<std::size_t>(last_rows - 1)] = 0.0;
  std::fill(pad_lower_.begin() + last_rows, pad_lower_.begin() + group_rows, 0.0);
  std::fill(pad_diag_.begin() + last_rows, pad_diag_.begin() + group_rows, 1.0);
  std::fill(pad_upper_.begin() + last_rows, pad_upper_.begin() + group_rows, 0.0);
  std::fill(pad_rhs_.begin() + last_rows, pad_rhs_.begin() + group_rows, 0.0);
  auto group = [&](index_t g) {
    if (g == last)
      return Group{pad_lower_.data(), pad_diag_.data(), pad_upper_.data(), pad_rhs_.data(), m,
                   g == 0};
    const index_t first = g * K * m;
    return Group{a.lower + first, a.diag + first, a.upper + first, r + first, m, g == 0};
  };

  // 1. The ends of every chunk; a failed check leaves r untouched for one Thomas sweep.
  for (index_t g = 0; g < groups; ++g) {
    BlockEnds* group_ends = &ends_[static_cast<std::size_t>(g * K)];
    if (!reduce_group(group(g), group(std::min(g + 1, last)), group_ends))
      return thomas_solve(name(), a, c_prime_.data(), r);
  }

  // 2. The reduced system in (F_0, G_0, F_1, G_1, ...), F and G a chunk's first and last
  //    unknowns. A chunk whose l_0 (u_{m-1}) is zero has p = 0 (q = 0): no left (right)
  //    neighbour in reduced_rows, which divides by p_0 and q_{m-1}.
  for (index_t c = 0; c < chunks; ++c) {
    const BlockEnds& e = ends_[static_cast<std::size_t>(c)];
    place_reduced_rows(
        reduced_rows(e, c > 0 && e.p_first != 0.0, c + 1 < chunks && e.q_last != 0.0), c,
        lower_.data(), diag_.data(), upper_.data(), z_.data());
  }
  try {
    thomas_solve(name(), {2 * chunks, lower_.data(), diag_.data(), upper_.data()},
                 c_prime_.data(), z_.data());
  } catch (const NumericalError&) {
    // Dominant chunks give a dominant reduced system; weakly dominant ones may not: the
    // elimination in row order decides (and names the row if it fails too).
    return thomas_solve(name(), a, c_prime_.data(), r);
  }

  // 3. x chunk by chunk, from L = G_{c-1} and R = F_{c+1}.
  for (index_t g = last; g >= 0; --g) {
    real left[K], right[K];
    for (index_t j = 0; j < K; ++j) {
      const BlockCouplings c = couplings_of(z_.data(), g * K + j, chunks);
      left[j] = c.left;
      right[j] = c.right;
    }
    substitute_group(group(g), group(std::max<index_t>(g - 1, 0)), left, right, n_group_.data(),
                     y_group_.data());
  }
  std::copy_n(pad_rhs_.begin(), last_rows, r + last_first);
}

}  // namespace fhn::solvers
