#include "batched_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "solvers/cpu/thomas.hpp"

namespace fhn::test {

HostBatch make_batch(index_t n, index_t count, bool columns, index_t gap, std::mt19937_64& rng,
                     index_t planes) {
  HostBatch h;
  h.layout = columns ? solvers::BatchLayout{n, count, count + gap, 1} : solvers::BatchLayout{n, count, 1, n + gap};
  if (planes > 1) {
    h.layout.planes = planes;
    h.layout.plane_stride = h.layout.span() + gap;
  }
  const auto size = static_cast<std::size_t>(h.layout.span());
  for (auto* v : {&h.lower, &h.diag, &h.upper, &h.rhs}) v->assign(size, kGap);
  h.matrix = random_dominant_system(n, rng);
  for (index_t s = 0; s < h.layout.systems(); ++s) {
    const HostSystem own = random_dominant_system(n, rng);
    for (index_t k = 0; k < n; ++k) {
      const auto at = static_cast<std::size_t>(h.layout.at(s, k));
      h.lower[at] = own.lower[k];
      h.diag[at] = own.diag[k];
      h.upper[at] = own.upper[k];
      h.rhs[at] = own.rhs[k];
    }
  }
  return h;
}

// The expected solution: ThomasSolver on each system, in the batch's layout (NaN in the gaps).
std::vector<real> reference(const HostBatch& h, bool constant) {
  const solvers::BatchLayout& b = h.layout;
  std::vector<real> x(h.rhs.size(), kGap);
  solvers::ThomasSolver thomas(b.n);
  std::vector<real> l(b.n), d(b.n), u(b.n), r(b.n);
  for (index_t s = 0; s < b.systems(); ++s) {
    for (index_t k = 0; k < b.n; ++k) {
      const auto at = static_cast<std::size_t>(b.at(s, k));
      l[k] = constant ? h.matrix.lower[k] : h.lower[at];
      d[k] = constant ? h.matrix.diag[k] : h.diag[at];
      u[k] = constant ? h.matrix.upper[k] : h.upper[at];
      r[k] = h.rhs[at];
    }
    thomas.solve({b.n, l.data(), d.data(), u.data()}, r.data());
    for (index_t k = 0; k < b.n; ++k) x[static_cast<std::size_t>(b.at(s, k))] = r[k];
  }
  return x;
}

// The largest over systems of max_k |x - t| / max_k |t|; infinity when an entry is NaN or a
// gap was written.
real worst_relative_error(const solvers::BatchLayout& b, const std::vector<real>& x,
                          const std::vector<real>& truth) {
  real worst = 0.0;
  for (index_t s = 0; s < b.systems(); ++s) {
    real error = 0.0, scale = 0.0;
    for (index_t k = 0; k < b.n; ++k) {
      const auto at = static_cast<std::size_t>(b.at(s, k));
      const real e = std::abs(x[at] - truth[at]);
      error = std::isnan(e) ? std::numeric_limits<real>::infinity() : std::max(error, e);
      scale = std::max(scale, std::abs(truth[at]));
    }
    worst = std::max(worst, error / scale);
  }
  for (std::size_t i = 0; i < x.size(); ++i)
    if (std::isnan(truth[i]) && !std::isnan(x[i])) return std::numeric_limits<real>::infinity();
  return worst;
}

bool same_bits(const std::vector<real>& a, const std::vector<real>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(real)) == 0;
}

}  // namespace fhn::test
