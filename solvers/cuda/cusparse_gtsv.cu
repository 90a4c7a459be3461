#include "solvers/cuda/cusparse_gtsv.hpp"

#include <climits>
#include <string>

#include "core/cuda/cuda_check.hpp"
#include "core/error.hpp"
#include "solvers/cuda/cusparse_check.hpp"

namespace fhn::solvers {

namespace {

// gtsv2 needs m >= 3 unknowns; smaller systems are solved directly by solve_small_system.
constexpr index_t min_gtsv2_size = 3;

// One thread solves a system of n = 1 or 2 unknowns in place:
//   n = 1:  x_0 = r_0 / d_0
//   n = 2:  det = d_0 d_1 - u_0 l_1,  x_0 = (d_1 r_0 - u_0 r_1) / det,  x_1 = (d_0 r_1 - l_1 r_0) / det
__global__ void solve_small_system(TridiagonalSystem a, real* r) {
  if (a.n == 1) {
    r[0] /= a.diag[0];
    return;
  }
  const real det = a.diag[0] * a.diag[1] - a.upper[0] * a.lower[1];
  const real x0 = (a.diag[1] * r[0] - a.upper[0] * r[1]) / det;
  const real x1 = (a.diag[0] * r[1] - a.lower[1] * r[0]) / det;
  r[0] = x0;
  r[1] = x1;
}

}  // namespace

CusparseGtsvSolver::CusparseGtsvSolver(TridiagonalBackend backend, index_t n_max)
    : backend_(backend), n_max_(n_max) {
  FHN_VERIFY(backend == TridiagonalBackend::cusparse ||
                 backend == TridiagonalBackend::cusparse_pivot,
             InternalError,
             "CusparseGtsvSolver made for backend '" + std::string(backend_name(backend)) + "'");
  check_n_max(name(), n_max);
  FHN_VERIFY(n_max <= INT_MAX, DeviceError,
             std::string(name()) + ": " + std::to_string(n_max) +
                 " unknowns exceed cuSPARSE's 32-bit sizes (at most " + std::to_string(INT_MAX) +
                 "); use tridiagonal: cyclic_reduction");
  cusparseHandle_t handle = nullptr;
  FHN_CUSPARSE_CHECK(cusparseCreate(&handle));
  handle_.reset(handle);
  if (n_max < min_gtsv2_size) return;  // gtsv2 is never called
  // The size query reads only the sizes; it is shown a one-element stand-in array because the system's
  // own arrays do not exist yet.
  const cuda::DeviceBuffer<real> stand_in(1, "cuSPARSE size-query array");
  const TridiagonalSystem largest{n_max, stand_in.data(), stand_in.data(), stand_in.data()};
  // cudaMalloc's 256-byte alignment meets gtsv2's requirement of a 128-byte aligned buffer.
  workspace_ = cuda::DeviceBuffer<std::byte>(
      workspace_bytes(largest, stand_in.data()), "cuSPARSE gtsv2 workspace");
}

std::size_t CusparseGtsvSolver::workspace_bytes(const TridiagonalSystem& a, const real* rhs) const {
  const int m = static_cast<int>(a.n);
  std::size_t bytes = 0;
  if (backend_ == TridiagonalBackend::cusparse_pivot)
    FHN_CUSPARSE_CHECK(cusparseDgtsv2_bufferSizeExt(handle_.get(), m, 1, a.lower, a.diag,
                                                    a.upper, rhs, m, &bytes));
  else
    FHN_CUSPARSE_CHECK(cusparseDgtsv2_nopivot_bufferSizeExt(handle_.get(), m, 1, a.lower, a.diag,
                                                            a.upper, rhs, m, &bytes));
  return bytes;
}

// One right-hand side (n = 1 column, ldb = m). Bytes per unknown are cuSPARSE's business; the
// floor is 40 (read l, d, u, r; write x).
void CusparseGtsvSolver::solve(const TridiagonalSystem& a, real* r) {
  check_system_size(name(), a.n, n_max_);
  if (a.n < min_gtsv2_size) {
    solve_small_system<<<1, 1>>>(a, r);
    FHN_CUDA_CHECK_LAUNCH();
    return;
  }
  // The workspace was sized for n_max; a smaller system must not ask for more (a host-side
  // size computation, no device work).
  const std::size_t bytes = workspace_bytes(a, r);
  FHN_VERIFY(bytes <= workspace_.size(), InternalError,
             std::string(name()) + ": gtsv2 asks for " + std::to_string(bytes) +
                 " bytes of workspace at n = " + std::to_string(a.n) + ", more than the " +
                 std::to_string(workspace_.size()) + " it asked for at n_max = " +
                 std::to_string(n_max_));
  const int m = static_cast<int>(a.n);
  if (backend_ == TridiagonalBackend::cusparse_pivot)
    FHN_CUSPARSE_CHECK(cusparseDgtsv2(handle_.get(), m, 1, a.lower, a.diag, a.upper, r, m,
                                      workspace_.data()));
  else
    FHN_CUSPARSE_CHECK(cusparseDgtsv2_nopivot(handle_.get(), m, 1, a.lower, a.diag, a.upper, r,
                                              m, workspace_.data()));
}

}  // namespace fhn::solvers
