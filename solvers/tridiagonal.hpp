#pragma once
// Tridiagonal solvers behind one interface. The Crank-Nicolson scheme calls this interface
// only; which backend runs is a config choice (scheme.crank_nicolson.tridiagonal).
//
//   | d_0 u_0                                   |   row 0:   diag[0] x_0 + upper[0] x_1
//   | l_i x_{i-1} + d_i x_i + u_i x_{i+1}       |   row i
//   |                   l_{n-1} x_{n-2} + d_{n-1} x_{n-1} |
//
// lower[0] and upper[n-1] lie outside the matrix and must be zero: cuSPARSE's gtsv2 reads
// them (its documentation requires the zeros); Thomas and cyclic reduction never read them.
#include <memory>
#include <string>
#include <string_view>

#include "core/types.hpp"

namespace fhn::solvers {

enum class TridiagonalBackend {
  thomas,
  thomas_partitioned,
  partitioned,
  cyclic_reduction,
  cusparse,
  cusparse_pivot
};

struct TridiagonalSystem {
  index_t n = 0;
  const real* lower = nullptr;
  const real* diag = nullptr;
  const real* upper = nullptr;
};

class TridiagonalSolver {
 public:
  virtual ~TridiagonalSolver() = default;
  virtual std::string_view name() const = 0;
  // Where the pointers handed to solve() must live.
  virtual MemorySpace space() const = 0;
  // Solves A x = rhs for n <= the n_max the solver was made for; rhs is overwritten with x.
  virtual void solve(const TridiagonalSystem& a, real* rhs_in_solution_out) = 0;
};

// Throws fhn::DeviceError when the backend is not compiled into this build.
std::unique_ptr<TridiagonalSolver> make_tridiagonal_solver(TridiagonalBackend backend,
                                                           index_t n_max);

constexpr std::string_view backend_name(TridiagonalBackend backend) {
  switch (backend) {
    case TridiagonalBackend::thomas: return "thomas";
    case TridiagonalBackend::thomas_partitioned: return "thomas_partitioned";
    case TridiagonalBackend::partitioned: return "partitioned";
    case TridiagonalBackend::cyclic_reduction: return "cyclic_reduction";
    case TridiagonalBackend::cusparse: return "cusparse";
    case TridiagonalBackend::cusparse_pivot: return "cusparse_pivot";
  }
  return "?";
}

// The two refusals of elimination without pivoting, worded once for every solver that checks
// them; `what` names the matrix ("the matrix", "system 3", "the batch's matrix"):
// "<solver>: <what> is not diagonally dominant at row <row>: |diag| = ... < |lower| + |upper| = ...",
// "<solver>: the pivot vanishes at row <row> of <what> (the matrix is singular or nearly so)".
std::string not_dominant_message(std::string_view solver, const std::string& what, index_t row,
                                 real lower, real diag, real upper);
std::string vanishing_pivot_message(std::string_view solver, const std::string& what, index_t row);

// A solver's size contract, worded once for every solver (an InternalError: the caller's bug).
// check_n_max: a solver is made for n_max >= 1 unknowns; check_system_size: it is handed systems
// of 1 .. n_max unknowns.
void check_n_max(std::string_view solver, index_t n_max);
void check_system_size(std::string_view solver, index_t n, index_t n_max);

// Backends that take device pointers (partitioned, cyclic_reduction, cusparse, cusparse_pivot).
constexpr bool runs_on_device(TridiagonalBackend backend) {
  return backend != TridiagonalBackend::thomas &&
         backend != TridiagonalBackend::thomas_partitioned;
}

// Backends with a batched form (make_batched_tridiagonal_solver): thomas, partitioned, cusparse.
constexpr bool has_batched_form(TridiagonalBackend backend) {
  return backend == TridiagonalBackend::thomas || backend == TridiagonalBackend::partitioned ||
         backend == TridiagonalBackend::cusparse;
}

}  // namespace fhn::solvers
