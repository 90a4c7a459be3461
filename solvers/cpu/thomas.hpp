#pragma once
// The Thomas algorithm: Gaussian elimination without pivoting specialised to tridiagonal
// matrices. O(n), two passes, no allocation per solve. Stable for diagonally dominant
// matrices, which it checks row by row as it eliminates.
#include <string_view>
#include <vector>

#include "solvers/tridiagonal.hpp"

namespace fhn::solvers {

// Thomas on a (a.n >= 1) with c_prime (a.n values) as workspace; rhs is overwritten with x.
// Throws NumericalError naming `solver` and the row when |d_i| < |l_i| + |u_i| or a pivot
// vanishes (ThomasSolver, and PartitionedThomasSolver where it falls back to one sweep).
void thomas_solve(std::string_view solver, const TridiagonalSystem& a, real* c_prime,
                  real* rhs_in_solution_out);

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
