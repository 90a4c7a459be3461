// The batched partitioned solver: kernels and host side (see batched_partitioned.hpp; the
// geometry of tiles and the constant-coefficient kernels are in batched_partitioned.cuh).
#include "solvers/cuda/batched_partitioned.cuh"

#include <string>
#include <vector>

#include "core/error.hpp"

namespace fhn::solvers {

namespace {

using namespace batched;

// ---- Constant coefficients: the carries along each system (batched_partitioned.cuh has the
// maths and the two tiled kernels around this one) ----------------------------------------------
// One thread per system: the carries in place (y_end -> Y_{j-1}, x_start -> X_{j+1}). The
// loads of kAhead chunks are issued before the recurrence uses them (one latency per kAhead).
// With a matrix per plane, plane p's chunk factors lie plane_matrix[p] * 3 chunks further on.
constexpr int kAhead = 16;
__global__ void constant_interface_kernel(Batch b, const real* __restrict__ chunk_factors,
                                          const int* __restrict__ plane_matrix,
                                          real* __restrict__ y_end, real* __restrict__ x_start) {
  const index_t s = cuda::thread_index();
  const index_t count = b.count, chunks = b.chunks;
  if (s >= count) return;
  if (plane_matrix != nullptr)
    chunk_factors += plane_matrix[s / b.per_plane] * 3 * chunks;
  const real* p = chunk_factors;
  const real* rho = chunk_factors + chunks;
  const real* q = chunk_factors + 2 * chunks;
  real y = 0.0;
  for (index_t j0 = 0; j0 < chunks; j0 += kAhead) {
    real end[kAhead];
#pragma unroll
    for (int u = 0; u < kAhead; ++u) end[u] = j0 + u < chunks ? y_end[(j0 + u) * count + s] : 0.0;
#pragma unroll
    for (int u = 0; u < kAhead; ++u) {
      if (j0 + u >= chunks) break;
      y_end[(j0 + u) * count + s] = y;
      y = fma(p[j0 + u], y, end[u]);
    }
  }
  real x = 0.0;
  for (index_t j1 = chunks - 1; j1 >= 0; j1 -= kAhead) {
    real start[kAhead], carry[kAhead];
#pragma unroll
    for (int u = 0; u < kAhead; ++u) {
      const index_t j = j1 - u;
      start[u] = j >= 0 ? x_start[j * count + s] : 0.0;
      carry[u] = j >= 0 ? y_end[j * count + s] : 0.0;
    }
#pragma unroll
    for (int u = 0; u < kAhead; ++u) {
      const index_t j = j1 - u;
      if (j < 0) break;
      x_start[j * count + s] = x;
      x = start[u] + rho[j] * carry[u] + q[j] * x;
    }
  }
}

// ---- Per-system coefficients ------------------------------------------------------------------
// The partition method of partitioned.cuh on chunks of C = 16 rows, one column of a warp's tile
// each. Kernel 1 reduces each chunk to two rows coupling only chunk ends (reduce_chunk); kernel 2
// solves each system's reduced system of 2 chunks rows by Thomas; kernel 3 solves each chunk's
// interior rows with x_s, x_e known (substitute_chunk). Rows past n are identity rows (x = 0).
// Bytes per unknown: read a, b, c, d twice, write x (72 B), plus 10 interface values per 16 rows
// (kernel 1 writes 8, kernel 3 reads 2) and what kernel 2 reads and writes (10): 10 B.
struct Coefficients {
  const real* __restrict__ a;
  const real* __restrict__ b;
  const real* __restrict__ c;
};
// The reduced systems, row-major: row i of system s at i * count + s.
struct Reduced {
  real *a, *b, *c, *d;
};

// A warp's four arrays a, b, c, d of C rows x kPitch; lane l's chunk is its column (row j at
// slot l + j kPitch): the chunk sweeps of partitioned.cuh run with step kPitch, unrolled whole.
using SystemTile = partitioned::Tile;
__device__ inline SystemTile system_tile(real* shared) {
  constexpr int size = kSystemChunk * kPitch;
  return {shared, shared + size, shared + 2 * size, shared + 3 * size};
}

// Stages the four arrays of the tile; a_0 and c_{n-1} of the lane's system become 0 (they lie
// outside its matrix), padding rows identity rows.
__device__ inline void stage_system(const Batch& b, const Tile& t, const Coefficients& m,
                                    const real* __restrict__ rhs, const SystemTile& tile) {
  stage<kSystemChunk>(b, t, m.a, tile.a, 0.0);
  stage<kSystemChunk>(b, t, m.b, tile.b, 1.0);
  stage<kSystemChunk>(b, t, m.c, tile.c, 0.0);
  stage<kSystemChunk>(b, t, rhs, tile.d, 0.0);
  wait_staged();
  const int lane = lane_id();
  if (t.row0 == 0) tile.a[lane] = 0.0;
  const index_t last = b.n - 1 - t.row0;
  if (last >= 0 && last < kSystemChunk) tile.c[last * kPitch + lane] = 0.0;
}

__global__ void __launch_bounds__(kSystemWarps* kLanes)
    system_reduce_kernel(Batch b, Coefficients m, const real* __restrict__ rhs, Reduced out) {
  __shared__ real tiles[kSystemWarps][4 * kSystemChunk * kPitch];
  Tile t;
  if (!warp_tile<kSystemChunk>(b, t)) return;
  const SystemTile tile = system_tile(tiles[threadIdx.x / kLanes]);
  stage_system(b, t, m, rhs, tile);
  const int lane = lane_id();
  const partitioned::ChunkEnds e =
      partitioned::reduce_chunk<kSystemChunk, kPitch, kSystemChunk>(tile, lane);
  const index_t s = t.system0 + lane;
  if (s >= b.count) return;
  const index_t row_s = 2 * t.chunk * b.count + s, row_e = row_s + b.count;
  out.a[row_s] = e.ap;  // row of x_s
  out.b[row_s] = 1.0;
  out.c[row_s] = e.beta;
  out.d[row_s] = e.dq;
  out.a[row_e] = e.alpha;  // row of x_e
  out.b[row_e] = 1.0;
  out.c[row_e] = e.cp;
  out.d[row_e] = e.dp;
}

// One thread per system: Thomas on its reduced system (c' into c, x into d), the loads of
// kRowsAhead rows issued before the recurrence uses them.
//   c'_0 = c_0 / b_0, d'_0 = d_0 / b_0; g = 1 / (b_i - a_i c'_{i-1}), c'_i = c_i g,
//   d'_i = (d_i - a_i d'_{i-1}) g; x_last = d'_last, x_i = d'_i - c'_i x_{i+1}.
constexpr int kRowsAhead = 8;
__global__ void system_interface_kernel(index_t count, index_t rows, Reduced red) {
  const index_t s = cuda::thread_index();
  if (s >= count) return;
  real cp = 0.0, dp = 0.0;
  for (index_t i0 = 0; i0 < rows; i0 += kRowsAhead) {
    real a[kRowsAhead], b[kRowsAhead], c[kRowsAhead], d[kRowsAhead];
#pragma unroll
    for (int u = 0; u < kRowsAhead; ++u) {
      const index_t at = (i0 + u) * count + s;
      const bool inside = i0 + u < rows;
      a[u] = inside ? red.a[at] : 0.0;
      b[u] = inside ? red.b[at] : 1.0;
      c[u] = inside ? red.c[at] : 0.0;
      d[u] = inside ? red.d[at] : 0.0;
    }
#pragma unroll
    for (int u = 0; u < kRowsAhead; ++u) {
      if (i0 + u >= rows) break;
      const index_t at = (i0 + u) * count + s;
      const real g = 1.0 / (b[u] - a[u] * cp);
      cp = c[u] * g;
      dp = (d[u] - a[u] * dp) * g;
      red.c[at] = cp;
      red.d[at] = dp;
    }
  }
  real x = dp;
  for (index_t i1 = rows - 2; i1 >= 0; i1 -= kRowsAhead) {
    real c[kRowsAhead], d[kRowsAhead];
#pragma unroll
    for (int u = 0; u < kRowsAhead; ++u) {
      const index_t i = i1 - u;
      c[u] = i >= 0 ? red.c[i * count + s] : 0.0;
      d[u] = i >= 0 ? red.d[i * count + s] : 0.0;
    }
#pragma unroll
    for (int u = 0; u < kRowsAhead; ++u) {
      const index_t i = i1 - u;
      if (i < 0) break;
      x = d[u] - c[u] * x;
      red.d[i * count + s] = x;
    }
  }
}

__global__ void __launch_bounds__(kSystemWarps* kLanes)
    system_substitute_kernel(Batch b, Coefficients m, real* __restrict__ rhs,
                             const real* __restrict__ x_interface) {
  __shared__ real tiles[kSystemWarps][4 * kSystemChunk * kPitch];
  Tile t;
  if (!warp_tile<kSystemChunk>(b, t, true)) return;
  const SystemTile tile = system_tile(tiles[threadIdx.x / kLanes]);
  stage_system(b, t, m, rhs, tile);
  const int lane = lane_id();
  const index_t s = t.system0 + lane;
  const index_t row_s = 2 * t.chunk * b.count + s;
  const real xs = s < b.count ? x_interface[row_s] : 0.0;
  const real xe = s < b.count ? x_interface[row_s + b.count] : 0.0;
  partitioned::substitute_chunk<kSystemChunk, kPitch, kSystemChunk, kSystemChunk>(tile, lane,
                                                                                  xs, xe);
  write_back<kSystemChunk>(b, t, tile.d, rhs);
}

}  // namespace

// The shared matrix's factors, padded to whole chunks (padding rows: mu = alpha = gamma = 0, so
// they hold 0 and couple to nothing), and per chunk P_j, rho_j, Q_j (see the kernels' maths);
// with several matrices, each one's after the other's.
void BatchedPartitionedSolver::set_matrix(const real* lower, const real* diag, const real* upper,
                                          index_t n) {
  set_matrices(lower, diag, upper, n, 1);
}

void BatchedPartitionedSolver::set_matrices(const real* lower, const real* diag,
                                            const real* upper, index_t n, index_t count) {
  FHN_VERIFY(n > 0 && count > 0, InternalError,
             "partitioned: set_matrices needs n >= 1 and at least one matrix");
  const index_t chunks = (n + kConstantChunk - 1) / kConstantChunk;
  const auto padded = static_cast<std::size_t>(chunks * kConstantChunk);
  const auto per_matrix = static_cast<std::size_t>(n);
  std::vector<real> rows(3 * padded * static_cast<std::size_t>(count), 0.0);
  std::vector<real> per_chunk(3 * static_cast<std::size_t>(chunks * count));
  std::vector<real> beta(kConstantChunk);
  for (index_t m = 0; m < count; ++m) {
    const std::size_t at = static_cast<std::size_t>(m) * per_matrix;
    const SharedFactors f =
        factor_shared_matrix(lower + at, diag + at, upper + at, n, "partitioned");
    real* mu = rows.data() + 3 * padded * static_cast<std::size_t>(m);
    real* alpha = mu + padded;
    real* gamma = alpha + padded;
    for (index_t k = 0; k < n; ++k) {
      mu[k] = f.inverse_pivot[k];
      alpha[k] = -f.lower[k] * f.inverse_pivot[k];
      gamma[k] = -f.c_prime[k];
    }
    real* chunk = per_chunk.data() + 3 * static_cast<std::size_t>(chunks * m);
    for (index_t j = 0; j < chunks; ++j) {
      const index_t s = j * kConstantChunk;
      real product = 1.0, q = 1.0;
      for (int k = 0; k < kConstantChunk; ++k) {
        product *= alpha[s + k];
        beta[k] = product;
        q *= gamma[s + k];
      }
      real rho = 0.0;
      for (int k = kConstantChunk - 1; k >= 0; --k) rho = beta[k] + gamma[s + k] * rho;
      chunk[j] = product;
      chunk[chunks + j] = rho;
      chunk[2 * chunks + j] = q;
    }
  }
  row_factors_ = cuda::DeviceBuffer<real>(rows.size(), "partitioned batch: matrix factors");
  row_factors_.upload(rows.data(), rows.size());
  chunk_factors_ = cuda::DeviceBuffer<real>(per_chunk.size(), "partitioned batch: chunk factors");
  chunk_factors_.upload(per_chunk.data(), per_chunk.size());
  n_ = n;
  matrices_ = count;
}

real* BatchedPartitionedSolver::interface_workspace(index_t count) {
  if (interface_.size() < static_cast<std::size_t>(count))
    interface_ = cuda::DeviceBuffer<real>(static_cast<std::size_t>(count),
                                          "partitioned batch: interface systems");
  return interface_.data();
}

void BatchedPartitionedSolver::solve(const BatchLayout& layout, real* r) {
  check_constant(layout, 1);
  if (layout.count == 0) return;
  solve_constant(layout, nullptr, StoredRight{r});
}

void BatchedPartitionedSolver::check_constant(const BatchLayout& layout, index_t matrices) const {
  FHN_VERIFY(n_ > 0, InternalError, "partitioned: batched solve() before set_matrix()");
  FHN_VERIFY(matrices == 0 || matrices_ == matrices, InternalError,
             "partitioned: a solve without a plane's matrices after set_matrices of " +
                 std::to_string(matrices_) + " matrices");
  layout.verify("partitioned");
  FHN_VERIFY(layout.n == n_, InternalError,
             "partitioned: systems of size " + std::to_string(layout.n) +
                 " for a matrix set with n = " + std::to_string(n_));
}

void BatchedPartitionedSolver::carry_interfaces(const batched::Batch& b, const int* plane_matrix,
                                                real* y_end, real* x_start) {
  const unsigned systems = cuda::blocks_for(b.count, kInterfaceThreads);
  constant_interface_kernel<<<systems, kInterfaceThreads>>>(b, chunk_factors_.data(), plane_matrix,
                                                            y_end, x_start);
  FHN_CUDA_CHECK_LAUNCH();
}

void BatchedPartitionedSolver::solve(const BatchLayout& layout, const int* plane_matrix, real* r) {
  check_constant(layout, 0);
  if (layout.count == 0) return;
  solve_constant(layout, plane_matrix, StoredRight{r});
}

void BatchedPartitionedSolver::solve(const BatchLayout& layout, const real* lower,
                                     const real* diag, const real* upper, real* r) {
  layout.verify("partitioned");
  if (layout.count == 0) return;
  const Batch b = batch_for(layout, kSystemChunk);
  const index_t rows = 2 * b.chunks;
  const index_t values = rows * b.count;
  real* w = interface_workspace(4 * values);
  const Reduced red{w, w + values, w + 2 * values, w + 3 * values};
  const Coefficients m{lower, diag, upper};
  const unsigned blocks = blocks_for_tiles(b, kSystemWarps);
  system_reduce_kernel<<<blocks, kSystemWarps * kLanes>>>(b, m, r, red);
  FHN_CUDA_CHECK_LAUNCH();
  const unsigned systems = cuda::blocks_for(b.count, kInterfaceThreads);
  system_interface_kernel<<<systems, kInterfaceThreads>>>(b.count, rows, red);
  FHN_CUDA_CHECK_LAUNCH();
  system_substitute_kernel<<<blocks, kSystemWarps * kLanes>>>(b, m, r, red.d);
  FHN_CUDA_CHECK_LAUNCH();
}

}  // namespace fhn::solvers
