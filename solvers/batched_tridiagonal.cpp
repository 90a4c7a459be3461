#include "solvers/batched_tridiagonal.hpp"

#include <cmath>
#include <string>

#include "core/error.hpp"
#include "solvers/cpu/batched_thomas.hpp"
#include "solvers/device_solvers.hpp"

namespace fhn::solvers {

void BatchLayout::verify(std::string_view solver) const {
  FHN_VERIFY(n >= 1 && count >= 0 && element_stride >= 1 && system_stride >= 1, InternalError,
             std::string(solver) + ": batch layout with n = " + std::to_string(n) + ", count = " +
                 std::to_string(count) + ", strides " + std::to_string(element_stride) + " and " +
                 std::to_string(system_stride));
  FHN_VERIFY(planes == 1 || (planes > 1 && plane_stride >= one_plane().span()), InternalError,
             std::string(solver) + ": batch layout with " + std::to_string(planes) +
                 " planes " + std::to_string(plane_stride) + " apart, each " +
                 std::to_string(one_plane().span()) + " entries long");
}

SharedFactors factor_shared_matrix(const real* lower, const real* diag, const real* upper,
                                   index_t n, std::string_view solver) {
  FHN_VERIFY(n >= 1, InternalError,
             std::string(solver) + ": set_matrix with n = " + std::to_string(n));
  const auto size = static_cast<std::size_t>(n);
  SharedFactors f{std::vector<real>(size), std::vector<real>(size), std::vector<real>(size)};
  for (index_t k = 0; k < n; ++k) {
    const real l = k > 0 ? lower[k] : 0.0;
    const real u = k + 1 < n ? upper[k] : 0.0;
    const real d = diag[k];
    if (std::abs(d) < std::abs(l) + std::abs(u))
      throw NumericalError(not_dominant_message(solver, "the batch's matrix", k, l, d, u));
    const real m = d - (k > 0 ? l * f.c_prime[k - 1] : 0.0);
    if (std::abs(m) <= 1e-14 * std::abs(d))
      throw NumericalError(vanishing_pivot_message(solver, "the batch's matrix", k));
    f.lower[k] = l;
    f.inverse_pivot[k] = 1.0 / m;
    f.c_prime[k] = u / m;
  }
  return f;
}

std::unique_ptr<BatchedTridiagonalSolver> make_batched_tridiagonal_solver(TridiagonalBackend backend) {
  if (backend == TridiagonalBackend::thomas) return std::make_unique<BatchedThomasSolver>();
  if (has_batched_form(backend)) return make_device_batched_solver(backend);
  throw ConfigError("tridiagonal backend '" + std::string(backend_name(backend)) +
                    "' has no batched form; batches of systems are solved by thomas (cpu), "
                    "partitioned or cusparse (cuda)");
}

}  // namespace fhn::solvers
