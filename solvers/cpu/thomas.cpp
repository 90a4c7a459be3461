#include "solvers/cpu/thomas.hpp"

#include <cmath>
#include <string>

#include "core/error.hpp"

namespace fhn::solvers {

ThomasSolver::ThomasSolver(index_t n_max) : c_prime_(static_cast<std::size_t>(std::max<index_t>(n_max, 1))) {}

namespace {
[[noreturn]] void not_dominant(std::string_view solver, index_t i, real l, real d, real u) {
  throw NumericalError(not_dominant_message(solver, "the matrix", i, l, d, u));
}
}  // namespace

// Forward sweep: c'_0 = u_0 / d_0,  y_0 = r_0 / d_0,
//                m_i = d_i - l_i c'_{i-1},  c'_i = u_i / m_i,  y_i = (r_i - l_i y_{i-1}) / m_i.
// Back substitution: x_{n-1} = y_{n-1},  x_i = y_i - c'_i x_{i+1}.
// Bytes per unknown: read l, d, u, r; write c', y; read c', y; write x (72 B).
void thomas_solve(std::string_view solver, const TridiagonalSystem& a, real* c, real* r) {
  const index_t n = a.n;
  const real* l = a.lower;
  const real* d = a.diag;
  const real* u = a.upper;

  const real u0 = n > 1 ? u[0] : 0.0;
  if (std::abs(d[0]) < std::abs(u0)) not_dominant(solver, 0, 0.0, d[0], u0);
  if (d[0] == 0.0) throw NumericalError(std::string(solver) + ": zero pivot at row 0");
  c[0] = u0 / d[0];
  r[0] /= d[0];
  for (index_t i = 1; i < n; ++i) {
    const real ui = i + 1 < n ? u[i] : 0.0;
    if (std::abs(d[i]) < std::abs(l[i]) + std::abs(ui)) not_dominant(solver, i, l[i], d[i], ui);
    const real m = d[i] - l[i] * c[i - 1];
    // Weak dominance can still leave a zero pivot (e.g. rows (1, -1) all the way down).
    if (std::abs(m) <= 1e-14 * std::abs(d[i]))
      throw NumericalError(vanishing_pivot_message(solver, "the matrix", i));
    c[i] = ui / m;
    r[i] = (r[i] - l[i] * r[i - 1]) / m;
  }
  for (index_t i = n - 2; i >= 0; --i) r[i] -= c[i] * r[i + 1];
}

void ThomasSolver::solve(const TridiagonalSystem& a, real* r) {
  check_system_size(name(), a.n, static_cast<index_t>(c_prime_.size()));
  thomas_solve("thomas", a, c_prime_.data(), r);
}

}  // namespace fhn::solvers
