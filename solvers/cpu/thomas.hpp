#pragma once
// The Thomas algorithm: Gaussian elimination without pivoting specialised to tridiagonal
// matrices. O(n), two passes, no allocation per solve. Stable for diagonally dominant
// matrices, which it checks row by row as it eliminates.
#include <vector>

#include "solvers/tridiagonal.hpp"

namespace fhn::solvers {

class ThomasSolver final : public TridiagonalSolver {
 public:
  explicit ThomasSolver(index_t n_max);
  std::string_view name() const override { return "thomas"; }
  MemorySpace space() const override { return MemorySpace::host; }
  // Throws NumericalError naming the row when |d_i| < |l_i| + |u_i| (not diagonally dominant)
  // or when a pivot vanishes.
  void solve(const TridiagonalSystem& a, real* rhs_in_solution_out) override;

 private:
  std::vector<real> c_prime_;  // modified super-diagonal, the only workspace
};

}  // namespace fhn::solvers
