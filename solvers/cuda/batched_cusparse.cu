#include "solvers/cuda/batched_cusparse.hpp"

#include <climits>
#include <string>
#include <vector>

#include "core/cuda/cuda_check.hpp"
#include "core/cuda/launch.hpp"
#include "core/cuda/thread_index.cuh"
#include "core/error.hpp"
#include "solvers/cuda/cusparse_check.hpp"

namespace fhn::solvers {

namespace {

// cuSPARSE's batched gtsv routines need systems of at least 3 unknowns.
constexpr index_t kMinCusparseSize = 3;

// Where entry k of system s of an array lies: s * system + k * element (system = 0 for the one
// shared matrix).
struct Strides {
  index_t element, system;
};

// One thread per system of n = 1 or 2 unknowns, in place:
//   n = 1:  x_0 = r_0 / d_0
//   n = 2:  det = d_0 d_1 - u_0 l_1,  x_0 = (d_1 r_0 - u_0 r_1) / det,  x_1 = (d_0 r_1 - l_1 r_0) / det
__global__ void small_systems_kernel(index_t n, index_t count, Strides rs, Strides ms,
                                     const real* __restrict__ l, const real* __restrict__ d,
                                     const real* __restrict__ u, real* __restrict__ r) {
  const index_t s = cuda::thread_index();
  if (s >= count) return;
  real* x = r + s * rs.system;
  const index_t m0 = s * ms.system, m1 = m0 + ms.element;
  if (n == 1) {
    x[0] /= d[m0];
    return;
  }
  const real det = d[m0] * d[m1] - u[m0] * l[m1];
  const real x0 = (d[m1] * x[0] - u[m0] * x[rs.element]) / det;
  const real x1 = (d[m0] * x[rs.element] - l[m1] * x[0]) / det;
  x[0] = x0;
  x[rs.element] = x1;
}

// The shared matrix (three arrays of n) copied into every system of a layout, one thread per
// entry: out(s, k) = matrix(k). Reads 24 B and writes 24 B per unknown, once per layout.
__global__ void replicate_kernel(index_t n, index_t count, Strides layout, index_t span,
                                 const real* __restrict__ matrix, real* __restrict__ out) {
  const index_t e = cuda::thread_index();
  if (e >= n * count) return;
  const index_t s = e / n, k = e % n;
  const index_t at = s * layout.system + k * layout.element;
  for (int array = 0; array < 3; ++array) out[array * span + at] = matrix[array * n + k];
}

// Contiguous: element stride 1 (one system alone is contiguous whatever its system stride).
bool contiguous(const BatchLayout& l) {
  return l.element_stride == 1 && (l.count == 1 || l.system_stride >= l.n);
}
bool interleaved(const BatchLayout& l) {
  return l.system_stride == 1 && l.element_stride == l.count;
}

void check_layout(const BatchLayout& l) {
  l.verify("cusparse");
  FHN_VERIFY(l.count == 0 || l.n < kMinCusparseSize || contiguous(l) || interleaved(l),
             InternalError,
             "cusparse: a batch must be contiguous (element stride 1) or interleaved (system "
             "stride 1, element stride = count); this one has element stride " +
                 std::to_string(l.element_stride) + ", system stride " +
                 std::to_string(l.system_stride) + ", count " + std::to_string(l.count));
  FHN_VERIFY(l.count == 0 || l.span() <= INT_MAX, DeviceError,
             "cusparse: a batch spanning " + std::to_string(l.span()) +
                 " entries exceeds cuSPARSE's 32-bit sizes; use tridiagonal: partitioned");
}

}  // namespace

BatchedCusparseSolver::BatchedCusparseSolver() {
  cusparseHandle_t handle = nullptr;
  FHN_CUSPARSE_CHECK(cusparseCreate(&handle));
  handle_.reset(handle);
}

void BatchedCusparseSolver::set_matrix(const real* lower, const real* diag, const real* upper,
                                       index_t n) {
  factor_shared_matrix(lower, diag, upper, n, "cusparse");  // the check; cuSPARSE factors itself
  const auto size = static_cast<std::size_t>(n);
  std::vector<real> host(3 * size);
  for (index_t k = 0; k < n; ++k) {
    host[k] = k > 0 ? lower[k] : 0.0;  // cuSPARSE reads the entries outside the matrix
    host[size + k] = diag[k];
    host[2 * size + k] = k + 1 < n ? upper[k] : 0.0;
  }
  matrix_ = cuda::DeviceBuffer<real>(host.size(), "cusparse batch: shared matrix");
  matrix_.upload(host.data(), host.size());
  replicated_ = cuda::DeviceBuffer<real>();
  replicated_for_ = BatchLayout{};
  n_ = n;
}

void* BatchedCusparseSolver::workspace(std::size_t bytes) {
  if (workspace_.size() < bytes) workspace_ = cuda::DeviceBuffer<std::byte>(bytes, "cuSPARSE batch workspace");
  return workspace_.data();
}

void BatchedCusparseSolver::solve(const BatchLayout& layout, real* r) {
  FHN_VERIFY(n_ > 0, InternalError, "cusparse: batched solve() before set_matrix()");
  if (layout.planes > 1) {  // plane by plane: cuSPARSE's batches have one stride
    layout.verify("cusparse");
    for (index_t p = 0; p < layout.planes; ++p) solve(layout.one_plane(), r + p * layout.plane_stride);
    return;
  }
  FHN_VERIFY(layout.n == n_, InternalError,
             "cusparse: systems of size " + std::to_string(layout.n) +
                 " for a matrix set with n = " + std::to_string(n_));
  check_layout(layout);
  if (layout.count == 0) return;
  const real* m = matrix_.data();
  if (layout.n < kMinCusparseSize) {
    small_systems_kernel<<<cuda::blocks_for(layout.count), cuda::kBlock>>>(
        layout.n, layout.count, {layout.element_stride, layout.system_stride}, {1, 0}, m,
        m + n_, m + 2 * n_, r);
    FHN_CUDA_CHECK_LAUNCH();
    return;
  }
  const index_t span = layout.span();
  const BatchLayout& had = replicated_for_;
  if (had.n != layout.n || had.count != layout.count ||
      had.element_stride != layout.element_stride || had.system_stride != layout.system_stride) {
    replicated_ = cuda::DeviceBuffer<real>(3 * static_cast<std::size_t>(span),
                                           "cusparse batch: replicated matrix");
    replicate_kernel<<<cuda::blocks_for(layout.n * layout.count), cuda::kBlock>>>(
        layout.n, layout.count, {layout.element_stride, layout.system_stride}, span, m,
        replicated_.data());
    FHN_CUDA_CHECK_LAUNCH();
    replicated_for_ = layout;
  }
  const real* rep = replicated_.data();
  run(layout, rep, rep + span, rep + 2 * span, r);
}

void BatchedCusparseSolver::solve(const BatchLayout& layout, const real* lower, const real* diag,
                                  const real* upper, real* r) {
  if (layout.planes > 1) {
    layout.verify("cusparse");
    for (index_t p = 0; p < layout.planes; ++p) {
      const index_t at = p * layout.plane_stride;
      solve(layout.one_plane(), lower + at, diag + at, upper + at, r + at);
    }
    return;
  }
  check_layout(layout);
  if (layout.count == 0) return;
  run(layout, lower, diag, upper, r);
}

// Bytes per unknown are cuSPARSE's business; the floor is 40 (read l, d, u, r; write x).
void BatchedCusparseSolver::run(const BatchLayout& layout, const real* lower, const real* diag,
                                const real* upper, real* r) {
  const Strides rs{layout.element_stride, layout.system_stride};
  if (layout.n < kMinCusparseSize) {
    small_systems_kernel<<<cuda::blocks_for(layout.count), cuda::kBlock>>>(
        layout.n, layout.count, rs, rs, lower, diag, upper, r);
    FHN_CUDA_CHECK_LAUNCH();
    return;
  }
  const int m = static_cast<int>(layout.n);
  const int count = static_cast<int>(layout.count);
  if (contiguous(layout)) {
    const int stride = static_cast<int>(layout.count == 1 ? layout.n : layout.system_stride);
    std::size_t bytes = 0;
    FHN_CUSPARSE_CHECK(cusparseDgtsv2StridedBatch_bufferSizeExt(
        handle_.get(), m, lower, diag, upper, r, count, stride, &bytes));
    FHN_CUSPARSE_CHECK(cusparseDgtsv2StridedBatch(handle_.get(), m, lower, diag, upper, r, count,
                                                  stride, workspace(bytes)));
    return;
  }
  // gtsvInterleavedBatch takes the diagonals as non-const pointers, and algorithm 0 overwrites
  // du (measured on an H100, CUDA 13.0; dl and d are left as they were): it gets a copy of
  // upper, so that the caller's coefficients (and the replicated shared matrix) stay intact.
  // The copy reads and writes 16 B per unknown.
  constexpr int kThomas = 0;
  const auto entries = static_cast<std::size_t>(layout.n * layout.count);
  if (upper_copy_.size() < entries)
    upper_copy_ = cuda::DeviceBuffer<real>(entries, "cusparse batch: copy of du");
  FHN_CUDA_CHECK(cudaMemcpyAsync(upper_copy_.data(), upper, entries * sizeof(real),
                                 cudaMemcpyDeviceToDevice));
  auto* l = const_cast<real*>(lower);  // read only (see above)
  auto* d = const_cast<real*>(diag);
  real* u = upper_copy_.data();
  std::size_t bytes = 0;
  FHN_CUSPARSE_CHECK(cusparseDgtsvInterleavedBatch_bufferSizeExt(handle_.get(), kThomas, m, l, d,
                                                                 u, r, count, &bytes));
  FHN_CUSPARSE_CHECK(cusparseDgtsvInterleavedBatch(handle_.get(), kThomas, m, l, d, u, r, count,
                                                   workspace(bytes)));
}

}  // namespace fhn::solvers
