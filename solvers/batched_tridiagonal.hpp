#pragma once
// Batches of independent tridiagonal systems behind one interface: the lines of a sheet along x
// or along y (ADI), the members of a sweep, a cable's pieces across ranks. Which backend runs is
// a config choice, as for the single-system solvers (tridiagonal.hpp).
//
// A batch is `count` systems of size n stored in one array; entry k of system s lives at
//   s * system_stride + k * element_stride.
// The rows of an Nx x Ny sheet (node i + Nx j):    n = Nx, count = Ny, element 1,  system Nx;
// its columns (interleaved: entry k of consecutive systems is contiguous):
//                                                  n = Ny, count = Nx, element Nx, system 1.
// A batch may repeat in `planes` planes, plane_stride apart: system s = c + count p (c < count)
// lives at c * system_stride + p * plane_stride. The lines along y of an Nx x Ny x Nz box (node
// i + Nx (j + Ny k)) are its planes' columns: plane_columns(Nx, Ny, Nz), Nx Nz systems.
//
// Two kinds of coefficients:
// - constant: every system has the same matrix (an ADI step's I - (k/2) D delta^2). The solver
//   factors it once, in set_matrix(); a solve then reads the right sides and writes the
//   solutions: 16 bytes per unknown.
// - per system: lower, diag, upper have the layout of the right sides (a sweep's Newton
//   Jacobians); a solve reads four arrays and writes one: 40 bytes per unknown.
// lower[0] and upper[n-1] of each system lie outside its matrix and must be zero. No pivoting:
// the matrices must be diagonally dominant (the solvers check it where it costs nothing and
// throw NumericalError naming the system and row otherwise).
#include <memory>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "core/types.hpp"
#include "solvers/tridiagonal.hpp"

namespace fhn::solvers {

struct BatchLayout {
  index_t n = 0;      // unknowns per system
  index_t count = 0;  // systems (in each plane)
  index_t element_stride = 1;
  index_t system_stride = 0;
  index_t planes = 1;        // the count systems repeated this many times,
  index_t plane_stride = 0;  // this far apart in the array

  static BatchLayout rows(index_t nx, index_t ny) { return {nx, ny, 1, nx}; }
  static BatchLayout columns(index_t nx, index_t ny) { return {ny, nx, nx, 1}; }
  static BatchLayout plane_columns(index_t nx, index_t ny, index_t nz) {
    return {ny, nx, nx, 1, nz, nx * ny};
  }
  index_t systems() const { return count * planes; }
  // Entry k of system `system` (0 .. systems() - 1).
  index_t at(index_t system, index_t k) const {
    const index_t base = planes == 1 ? system * system_stride
                                     : (system % count) * system_stride + (system / count) * plane_stride;
    return base + k * element_stride;
  }
  // The first plane's systems alone (plane p starts p * plane_stride further on).
  BatchLayout one_plane() const { return {n, count, element_stride, system_stride}; }
  // Entries from the first system's first to the last system's last: an array's length.
  index_t span() const { return systems() == 0 ? 0 : at(systems() - 1, n - 1) + 1; }
  // Throws InternalError naming `solver` unless n >= 1, count >= 0, both strides >= 1, planes
  // >= 1, and the planes do not overlap (plane_stride >= one plane's span).
  void verify(std::string_view solver) const;
};

// A batched solver's refusal of one system (a matrix not diagonally dominant, or a pivot that
// vanishes): the lowest system refused (0 .. layout.systems() - 1) and the row where elimination
// stopped, for the caller to name the line and the node (schemes/adi_cpu.cpp).
struct TridiagonalFailure : NumericalError {
  TridiagonalFailure(const std::string& what, index_t refused_system, index_t refused_row)
      : NumericalError(what), system(refused_system), row(refused_row) {}
  index_t system, row;
};

class BatchedTridiagonalSolver {
 public:
  virtual ~BatchedTridiagonalSolver() = default;
  virtual std::string_view name() const = 0;
  // Where the pointers handed to solve() must live (set_matrix always takes host arrays).
  virtual MemorySpace space() const = 0;

  // The matrix every system of the constant-coefficient solve() shares: host arrays of n entries
  // (lower[0] = upper[n-1] = 0). Factors it once; throws NumericalError when it is not
  // diagonally dominant.
  virtual void set_matrix(const real* lower, const real* diag, const real* upper, index_t n) = 0;
  // Constant coefficients (set_matrix first, layout.n equal to its n): rhs overwritten with x.
  virtual void solve(const BatchLayout& layout, real* rhs_in_solution_out) = 0;
  // Per-system coefficients, in the layout of rhs: rhs overwritten with x; the coefficients are
  // left untouched.
  virtual void solve(const BatchLayout& layout, const real* lower, const real* diag,
                     const real* upper, real* rhs_in_solution_out) = 0;
};

// The LU factors of a matrix shared by a batch (Thomas without pivoting, l_0 = u_{n-1} = 0):
//   m_0 = d_0,  m_k = d_k - l_k c'_{k-1},  c'_k = u_k / m_k.
// Every backend's set_matrix() starts here. Throws NumericalError naming `solver` and the row
// when |d_k| < |l_k| + |u_k| or a pivot vanishes (|m_k| <= 1e-14 |d_k|).
struct SharedFactors {
  std::vector<real> lower;          // l_k (l_0 = 0)
  std::vector<real> inverse_pivot;  // 1 / m_k
  std::vector<real> c_prime;        // c'_k (c'_{n-1} = 0)
};
SharedFactors factor_shared_matrix(const real* lower, const real* diag, const real* upper,
                                   index_t n, std::string_view solver);

// thomas (CPU: one system per task, spread over the cores), partitioned (our GPU batched
// solver), cusparse (cuSPARSE gtsv2StridedBatch for contiguous systems, gtsvInterleavedBatch for
// interleaved ones). Throws DeviceError when the backend is not compiled into this build, and
// ConfigError for a backend without a batched form (cyclic_reduction, cusparse_pivot).
std::unique_ptr<BatchedTridiagonalSolver> make_batched_tridiagonal_solver(TridiagonalBackend backend);

}  // namespace fhn::solvers
