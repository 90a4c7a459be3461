#include "solvers/cpu/batched_thomas.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "core/error.hpp"

namespace fhn::solvers {

namespace {

// Interleaved systems: a group's right sides (and, per system, its c') take about this much
// memory, so that the backward sweep finds them in the core's cache.
constexpr index_t kGroupBytes = index_t{1} << 20;
// Contiguous systems: this many independent elimination chains advance side by side.
constexpr index_t kChains = 8;
// A pivot this small relative to its diagonal means the matrix is singular or nearly so (as in
// ThomasSolver; weak dominance can still leave a zero pivot).
constexpr real kPivotFloor = 1e-14;

// Throws InternalError for a layout the solvers cannot take: sizes, and the two layouts whose
// systems would overlap (interleaved systems closer than `count` apart, contiguous ones closer
// than n apart).
void check_layout(const BatchLayout& b, index_t n_expected) {
  b.verify("batched thomas");
  FHN_VERIFY(n_expected < 0 || b.n == n_expected, InternalError,
             "batched thomas: systems of size " + std::to_string(b.n) +
                 " for a matrix set with n = " + std::to_string(n_expected));
  FHN_VERIFY(b.n == 1 || b.system_stride != 1 || b.element_stride >= b.count, InternalError,
             "batched thomas: interleaved systems overlap (element stride " +
                 std::to_string(b.element_stride) + " < count " + std::to_string(b.count) + ")");
  FHN_VERIFY(b.count == 1 || b.element_stride != 1 || b.system_stride >= b.n, InternalError,
             "batched thomas: contiguous systems overlap (system stride " +
                 std::to_string(b.system_stride) + " < n " + std::to_string(b.n) + ")");
}

bool interleaved(const BatchLayout& b) { return b.system_stride == 1 && b.count > 1; }

// A failed check: the first system (lowest index), the row and what failed; system < 0 when
// none did.
struct Failure {
  index_t system = -1;
  index_t row = -1;
  std::string message;
};

// Runs group(first, size) for every group of `size` consecutive systems, spread over the
// threads; a group reports a Failure (system < 0: none). Throws the failure of the lowest system.
template <class Group>
void for_each_group(index_t count, index_t size, Group group) {
  const index_t groups = (count + size - 1) / size;
  Failure first;
#pragma omp parallel for schedule(static)
  for (index_t g = 0; g < groups; ++g) {
    const index_t begin = g * size;
    Failure f = group(begin, std::min(size, count - begin));
    if (f.system >= 0) {
#pragma omp critical(fhn_batched_thomas_failure)
      if (first.system < 0 || f.system < first.system) first = std::move(f);
    }
  }
  if (first.system >= 0) throw TridiagonalFailure(first.message, first.system, first.row);
}

// Constant coefficients on g systems starting at r (system s at r + s step, row k at + k es):
//   y_0 = r_0 / m_0,  y_k = (r_k - l_k y_{k-1}) / m_k,  x_{n-1} = y_{n-1},  x_k = y_k - c'_k x_{k+1}
// with 1/m_k and c'_k from set_matrix. Bytes from memory per unknown: read r, write x (16 B);
// y stays in cache between the sweeps.
template <bool kUnitStep>
void constant_sweeps(real* r, index_t g, index_t system_stride, index_t es, index_t n,
                     const real* l, const real* inverse_pivot, const real* c_prime) {
  const index_t step = kUnitStep ? 1 : system_stride;
  const real m0 = inverse_pivot[0];
  for (index_t s = 0; s < g; ++s) r[s * step] *= m0;
  for (index_t k = 1; k < n; ++k) {
    real* __restrict row = r + k * es;
    const real* __restrict before = row - es;
    const real lk = l[k], mk = inverse_pivot[k];
    for (index_t s = 0; s < g; ++s) row[s * step] = (row[s * step] - lk * before[s * step]) * mk;
  }
  for (index_t k = n - 2; k >= 0; --k) {
    real* __restrict row = r + k * es;
    const real* __restrict after = row + es;
    const real ck = c_prime[k];
    for (index_t s = 0; s < g; ++s) row[s * step] -= ck * after[s * step];
  }
}

// Per-system coefficients (in the layout of r) on g systems, c' of row k, system s in
// cp[k g + s]:
//   m_k = d_k - l_k c'_{k-1},  c'_k = u_k / m_k,  y_k = (r_k - l_k y_{k-1}) / m_k,
//   x_{n-1} = y_{n-1},  x_k = y_k - c'_k x_{k+1}   (l_0 = u_{n-1} = 0, never read).
// Each row is checked for |d| >= |l| + |u| and a pivot that does not vanish; the group stops at
// the first row where a system fails, and the Failure names the lowest such system (the group's
// systems are numbered from `first` in messages; the arrays start at the group's first system).
// Bytes from memory per unknown: read l, d, u, r, write x (40 B); c' and y stay in cache.
template <bool kUnitStep>
Failure per_system_sweeps(index_t first, index_t g, index_t system_stride, index_t es, index_t n,
                          const real* l, const real* d, const real* u, real* r, real* cp) {
  const index_t step = kUnitStep ? 1 : system_stride;
  // Row k of every system; the upper entry of the last row lies outside the matrix.
  auto eliminate = [&](index_t k, bool has_upper) {
    const index_t at = k * es;
    const real* __restrict cp_before = cp + (k - 1) * g;
    real* __restrict cp_row = cp + k * g;
    int bad = 0;
    for (index_t s = 0; s < g; ++s) {
      const index_t i = at + s * step;
      const real lk = k > 0 ? l[i] : 0.0;
      const real uk = has_upper ? u[i] : 0.0;
      const real m = d[i] - (k > 0 ? lk * cp_before[s] : 0.0);
      bad |= static_cast<int>(std::abs(d[i]) < std::abs(lk) + std::abs(uk)) |
             static_cast<int>(std::abs(m) <= kPivotFloor * std::abs(d[i]));
      const real inverse = 1.0 / m;
      cp_row[s] = uk * inverse;
      r[i] = (r[i] - (k > 0 ? lk * r[i - es] : 0.0)) * inverse;
    }
    return bad != 0;
  };
  // The lowest system of the group that fails row k, and why.
  auto failure_at = [&](index_t k, bool has_upper) {
    for (index_t s = 0; s < g; ++s) {
      const index_t i = k * es + s * step;
      const real lk = k > 0 ? l[i] : 0.0;
      const real uk = has_upper ? u[i] : 0.0;
      const std::string where = "system " + std::to_string(first + s);
      if (std::abs(d[i]) < std::abs(lk) + std::abs(uk))
        return Failure{first + s, k, not_dominant_message("thomas", where, k, lk, d[i], uk)};
      const real m = d[i] - (k > 0 ? lk * cp[(k - 1) * g + s] : 0.0);
      if (std::abs(m) <= kPivotFloor * std::abs(d[i]))
        return Failure{first + s, k, vanishing_pivot_message("thomas", where, k)};
    }
    return Failure{};
  };
  for (index_t k = 0; k < n; ++k) {
    const bool has_upper = k + 1 < n;
    if (eliminate(k, has_upper)) return failure_at(k, has_upper);
  }
  for (index_t k = n - 2; k >= 0; --k) {
    real* __restrict row = r + k * es;
    const real* __restrict after = row + es;
    const real* __restrict cp_row = cp + k * g;
    for (index_t s = 0; s < g; ++s) row[s * step] -= cp_row[s] * after[s * step];
  }
  return Failure{};
}

}  // namespace

void BatchedThomasSolver::set_matrix(const real* lower, const real* diag, const real* upper,
                                     index_t n) {
  factors_ = factor_shared_matrix(lower, diag, upper, n, "thomas");
}

index_t BatchedThomasSolver::group_size(const BatchLayout& layout) const {
  if (!interleaved(layout)) return kChains;
  const index_t fit = kGroupBytes / (layout.n * static_cast<index_t>(sizeof(real)));
  return std::clamp<index_t>(fit / 8 * 8, 8, 512);
}

real* BatchedThomasSolver::thread_workspace(index_t per_thread) {
  const auto needed = static_cast<std::size_t>(per_thread * omp_get_max_threads());
  if (workspace_.size() < needed) workspace_.resize(needed);
  return workspace_.data();
}

void BatchedThomasSolver::solve(const BatchLayout& layout, real* r) {
  FHN_VERIFY(!factors_.lower.empty(), InternalError,
             "batched thomas: solve() before set_matrix()");
  if (layout.planes > 1) {  // plane by plane, each spread over the threads
    layout.verify("batched thomas");
    for (index_t p = 0; p < layout.planes; ++p) solve(layout.one_plane(), r + p * layout.plane_stride);
    return;
  }
  check_layout(layout, static_cast<index_t>(factors_.lower.size()));
  const index_t n = layout.n, es = layout.element_stride, ss = layout.system_stride;
  const bool unit = interleaved(layout);
  const real* l = factors_.lower.data();
  const real* im = factors_.inverse_pivot.data();
  const real* c = factors_.c_prime.data();
  for_each_group(layout.count, group_size(layout), [&](index_t first, index_t g) {
    real* group = r + first * ss;
    if (unit)
      constant_sweeps<true>(group, g, ss, es, n, l, im, c);
    else
      constant_sweeps<false>(group, g, ss, es, n, l, im, c);
    return Failure{};
  });
}

void BatchedThomasSolver::solve(const BatchLayout& layout, const real* lower, const real* diag,
                                const real* upper, real* r) {
  if (layout.planes > 1) {
    layout.verify("batched thomas");
    for (index_t p = 0; p < layout.planes; ++p) {
      const index_t at = p * layout.plane_stride;
      solve_plane(layout.one_plane(), lower + at, diag + at, upper + at, r + at, p * layout.count);
    }
    return;
  }
  solve_plane(layout, lower, diag, upper, r, 0);
}

void BatchedThomasSolver::solve_plane(const BatchLayout& layout, const real* lower,
                                      const real* diag, const real* upper, real* r,
                                      index_t base) {
  check_layout(layout, -1);
  const index_t n = layout.n, es = layout.element_stride, ss = layout.system_stride;
  const bool unit = interleaved(layout);
  const index_t size = group_size(layout);
  real* workspace = thread_workspace(n * size);
  for_each_group(layout.count, size, [&](index_t first, index_t g) {
    real* cp = workspace + omp_get_thread_num() * n * size;
    const index_t at = first * ss;
    if (unit)
      return per_system_sweeps<true>(base + first, g, ss, es, n, lower + at, diag + at,
                                     upper + at, r + at, cp);
    return per_system_sweeps<false>(base + first, g, ss, es, n, lower + at, diag + at,
                                    upper + at, r + at, cp);
  });
}

}  // namespace fhn::solvers
