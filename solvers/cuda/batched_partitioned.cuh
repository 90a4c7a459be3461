#pragma once
// The batched partitioned solver's geometry and its constant-coefficient kernels, as templates
// over where a solve finds its right sides (batched_partitioned.hpp, solve_formed): the
// solver's own solve() reads them from an array, and the ADI schemes form them from v as the
// solver stages its tiles (src/schemes/cuda/adi_cuda.cu). batched_partitioned.cu has the rest.
//
// Geometry. A system of n rows is cut into chunks of C consecutive rows (the last one padded).
// Thread = (system, chunk). A warp takes one chunk of 32 consecutive systems (a "tile": C rows x
// 32 systems) and stages it in shared memory as tile[row][system] (pitch 33: no bank conflicts),
// loading it coalesced whatever the layout: for interleaved systems (columns) a load instruction
// takes one row of 32 consecutive systems, for contiguous systems (rows) 32 consecutive rows of
// one system (two systems of 16 rows for C = 16). Each thread then sweeps its own column.
// Consecutive warps take consecutive chunks of one group of systems (contiguous layouts) or
// consecutive groups of one chunk (interleaved), so that a block reads neighbouring memory.
#include <cuda_pipeline_primitives.h>
#include <cuda_runtime.h>

#include "core/cuda/cuda_check.hpp"
#include "core/cuda/launch.hpp"
#include "core/cuda/thread_index.cuh"
#include "core/error.hpp"
#include "solvers/cuda/batched_partitioned.hpp"
#include "solvers/cuda/partitioned.cuh"

namespace fhn::solvers {
namespace batched {

constexpr int kLanes = 32;              // systems per tile
constexpr int kPitch = kLanes + 1;      // shared-memory stride of a tile row (odd)
constexpr int kConstantChunk = 32;      // rows per thread, constant coefficients (r only)
constexpr int kConstantWarps = 4;       // 4 tiles of 32 x 33 reals: 33.8 KB per block
constexpr int kSystemChunk = 16;        // rows per thread, per-system coefficients (4 arrays)
constexpr int kSystemWarps = 2;         // 2 x 4 tiles of 16 x 33 reals: 33.8 KB per block
constexpr int kInterfaceThreads = 128;  // interface kernels: one thread per system

// A batch as the kernels see it, for chunks of C rows: `count` systems in all, those of several
// planes numbered one plane after the other (BatchLayout::at). Planes that go on with the first
// plane's system stride (plane_stride = count x system stride: a sweep's members' rows) are
// addressed as one plane (no division per entry); per_plane still numbers the planes for a
// solve with a matrix per plane.
struct Batch {
  index_t n, count, es, ss;  // rows, systems, element stride, system stride
  index_t groups, chunks;    // groups of 32 systems, chunks per system
  bool contiguous;           // element stride 1: tiles load one system's rows per instruction
  index_t per_plane, plane_stride;  // systems in a plane and the planes' distance (0: as one plane)
};

inline Batch batch_for(const BatchLayout& l, int chunk_rows) {
  const bool as_one_plane = l.planes == 1 || l.plane_stride == l.count * l.system_stride;
  return {l.n,
          l.systems(),
          l.element_stride,
          l.system_stride,
          (l.systems() + kLanes - 1) / kLanes,
          (l.n + chunk_rows - 1) / chunk_rows,
          l.element_stride == 1,
          l.count,
          as_one_plane ? 0 : l.plane_stride};
}

// Where entry `row` of system s lies (BatchLayout::at).
__device__ inline index_t entry_at(const Batch& b, index_t s, index_t row) {
  const index_t base = b.plane_stride == 0
                           ? s * b.ss
                           : (s % b.per_plane) * b.ss + (s / b.per_plane) * b.plane_stride;
  return base + row * b.es;
}

inline unsigned blocks_for_tiles(const Batch& b, int warps_per_block) {
  return cuda::blocks_for(b.groups * b.chunks, warps_per_block);
}

// The calling warp's tile: systems system0 .. system0 + 31, rows row0 .. row0 + C - 1.
// `reversed`: the last tile first. The substitute kernels run reversed, so that they begin with
// the tiles the reduce kernel read last, while those are still in the L2 cache (50 MB on an
// H100, against 128 MB of right sides at 2^24 unknowns).
struct Tile {
  index_t system0, row0, chunk;
};
template <int C>
__device__ inline bool warp_tile(const Batch& b, Tile& t, bool reversed = false) {
  const index_t tiles = b.groups * b.chunks;
  index_t warp = cuda::thread_index() / kLanes;
  if (warp >= tiles) return false;
  if (reversed) warp = tiles - 1 - warp;
  const index_t group = b.contiguous ? warp / b.chunks : warp % b.groups;
  const index_t chunk = b.contiguous ? warp % b.chunks : warp / b.groups;
  t = {group * kLanes, chunk * C, chunk};
  return true;
}

__device__ inline int lane_id() { return static_cast<int>(threadIdx.x) % kLanes; }

// Element q (0 .. C-1) of the calling lane's share of a tile: (system, row) within the tile.
template <int C>
__device__ inline void tile_element(bool contiguous, int q, int& system, int& row) {
  if (contiguous) {
    const int e = q * kLanes + lane_id();
    system = e / C;
    row = e % C;
  } else {
    system = lane_id();
    row = q;
  }
}

// Copies a tile of `global` (layout b) into `tile` asynchronously (cp.async: all C copies of a
// lane in flight at once); entries outside the batch get `pad`. Then wait_staged().
template <int C, int P = kPitch>
__device__ void stage(const Batch& b, const Tile& t, const real* __restrict__ global, real* tile,
                      real pad) {
#pragma unroll
  for (int q = 0; q < C; ++q) {
    int i, k;
    tile_element<C>(b.contiguous, q, i, k);
    const index_t s = t.system0 + i, row = t.row0 + k;
    real* slot = tile + k * P + i;
    if (s < b.count && row < b.n)
      __pipeline_memcpy_async(slot, global + entry_at(b, s, row), sizeof(real));
    else
      *slot = pad;
  }
}
// Waits for the lane's own copies, then for the warp's (every lane reads other lanes' copies).
__device__ inline void wait_staged() {
  partitioned::wait_staged();
  __syncwarp();
}

// Writes the tile back to `global` (layout b), coalesced as it was staged.
template <int C, int P = kPitch>
__device__ void write_back(const Batch& b, const Tile& t, const real* tile, real* global) {
  __syncwarp();
#pragma unroll
  for (int q = 0; q < C; ++q) {
    int i, k;
    tile_element<C>(b.contiguous, q, i, k);
    const index_t s = t.system0 + i, row = t.row0 + k;
    if (s < b.count && row < b.n) global[entry_at(b, s, row)] = tile[k * P + i];
  }
}

// ---- Constant coefficients -----------------------------------------------------------------
// Thomas with the shared LU factors, written as two first-order recurrences:
//   y_k = mu_k r_k + alpha_k y_{k-1}     (mu_k = 1/m_k, alpha_k = -l_k / m_k)
//   x_k = y_k + gamma_k x_{k+1}          (gamma_k = -c'_k)
// On chunk j (rows s..e) with the carries Y = y_{s-1} and X = x_{e+1}:
//   y_k = yh_k + beta_k Y,   beta_k = alpha_s ... alpha_k,   yh: the sweep from Y = 0;
//   x_s = xh_s + rho_j Y + Q_j X,  xh: the backward sweep over yh from X = 0,
//   rho_j = the backward sweep over beta from 0 at s,  Q_j = gamma_s ... gamma_e;
//   y_e = yh_e + P_j Y,  P_j = beta_e.
// Kernel 1 computes yh_e and xh_s per chunk; kernel 2 runs the carries along each system,
//   Y_j = yh_{e_j} + P_j Y_{j-1},   X_j = xh_{s_j} + rho_j Y_{j-1} + Q_j X_{j+1};
// kernel 3 repeats the chunk's Thomas sweeps from its true carries (the arithmetic of Thomas
// itself) and writes x. Bytes per unknown: read r (kernel 1), read r and write x (kernel 3):
// 24 B, plus 4 interface values per 32 rows (kernel 1 writes 2, kernel 2 reads and writes 2,
// kernel 3 reads 2): 2 B.
// With a matrix per plane (set_matrices), plane p's factors lie plane_matrix[p] * matrix_stride
// further on; for_system picks the calling lane's (a tile's 32 systems may span two planes).
struct RowFactors {
  const real* __restrict__ mu;
  const real* __restrict__ alpha;
  const real* __restrict__ gamma;
  const int* __restrict__ plane_matrix;  // nullptr: one matrix
  index_t matrix_stride;

  __device__ RowFactors for_system(const Batch& b, index_t s) const {
    if (plane_matrix == nullptr) return *this;
    const index_t plane = min(s, b.count - 1) / b.per_plane;
    const index_t offset = plane_matrix[plane] * matrix_stride;
    return {mu + offset, alpha + offset, gamma + offset, nullptr, 0};
  }
};

// Forward sweep of the calling lane's column from y = carry; yh (or y) replaces r in the tile.
// The factors are the same for the whole warp (one row at a time): broadcast loads.
template <int P>
__device__ inline real forward_sweep(real* column, const RowFactors& f, index_t row0, real y) {
#pragma unroll 8
  for (int k = 0; k < kConstantChunk; ++k) {
    y = fma(f.alpha[row0 + k], y, f.mu[row0 + k] * column[k * P]);
    column[k * P] = y;
  }
  return y;
}

// Where a constant-coefficient solve finds its right sides and puts x (the Right of the two
// kernels below): load() stages the calling warp's tile and returns where system i's column of
// rows starts (slot i, pitch kPitch); x goes to out().
// StoredRight: the right sides in r, solved in place (solve()).
struct StoredRight {
  static constexpr int kPitch = batched::kPitch;
  real* r;
  __device__ real* load(const Batch& b, const Tile& t, real* tile) const {
    stage<kConstantChunk, kPitch>(b, t, r, tile, 0.0);
    wait_staged();
    return tile;
  }
  __device__ real* out() const { return r; }
};

// FormedRight: the right side of entry (s, row) formed as the tile is staged from a field `in`
// laid out as the batch, from in's values there and in the systems beside it,
//   d(s, row) = form(s, row, in(s - 1, row), in(s, row), in(s + 1, row))
// (0 for a system that does not exist), x written to `out` (not `in`: other tiles still read
// it). The tile is staged with the systems s0 - 1 and s0 + 32 on each side (slots 0 and 33 of a
// row), then each lane replaces its own column's entries by d, one row after the other (the
// lanes beside it have read the row before it writes). A solve moves 24 B per unknown as
// StoredRight does, and the right sides never pass through memory (16 B per unknown less than
// forming them in a kernel of their own).
template <class Form>
struct FormedRight {
  static constexpr int kPitch = kLanes + 3;  // the tile's systems and one each side (odd)
  const real* in;
  Form form;
  real* x;
  __device__ real* load(const Batch& b, const Tile& t, real* tile) const {
    real* own = tile + 1;
    stage<kConstantChunk, kPitch>(b, t, in, own, 0.0);
    for (int e = lane_id(); e < 2 * kConstantChunk; e += kLanes) {
      const bool before = e < kConstantChunk;
      const int k = e % kConstantChunk;
      const index_t s = before ? t.system0 - 1 : t.system0 + kLanes, row = t.row0 + k;
      real* slot = tile + k * kPitch + (before ? 0 : kLanes + 1);
      if (s >= 0 && s < b.count && row < b.n)
        __pipeline_memcpy_async(slot, in + entry_at(b, s, row), sizeof(real));
      else
        *slot = 0.0;
    }
    wait_staged();
    const int lane = lane_id();
    const index_t s = t.system0 + lane;
#pragma unroll 4
    for (int k = 0; k < kConstantChunk; ++k) {
      real* at = own + k * kPitch + lane;
      const index_t row = t.row0 + k;
      const real d = s < b.count && row < b.n ? form(s, row, at[-1], at[0], at[1]) : 0.0;
      __syncwarp();
      *at = d;
    }
    __syncwarp();
    return own;
  }
  __device__ real* out() const { return x; }
};

template <class Right>
__global__ void __launch_bounds__(kConstantWarps* kLanes)
    constant_reduce_kernel(Batch b, const __grid_constant__ Right right, RowFactors f,
                           real* __restrict__ y_end, real* __restrict__ x_start) {
  constexpr int P = Right::kPitch;
  __shared__ real tiles[kConstantWarps][kConstantChunk * P];
  Tile t;
  if (!warp_tile<kConstantChunk>(b, t)) return;
  real* column = right.load(b, t, tiles[threadIdx.x / kLanes]) + lane_id();
  const index_t s = t.system0 + lane_id();
  const RowFactors lane = f.for_system(b, s);
  const real y = forward_sweep<P>(column, lane, t.row0, 0.0);
  real x = 0.0;
#pragma unroll 8
  for (int k = kConstantChunk - 1; k >= 0; --k) x = fma(lane.gamma[t.row0 + k], x, column[k * P]);
  if (s < b.count) {
    y_end[t.chunk * b.count + s] = y;
    x_start[t.chunk * b.count + s] = x;
  }
}

template <class Right>
__global__ void __launch_bounds__(kConstantWarps* kLanes)
    constant_substitute_kernel(Batch b, const __grid_constant__ Right right, RowFactors f,
                               const real* __restrict__ y_in, const real* __restrict__ x_in) {
  constexpr int P = Right::kPitch;
  __shared__ real tiles[kConstantWarps][kConstantChunk * P];
  Tile t;
  if (!warp_tile<kConstantChunk>(b, t, true)) return;
  real* tile = right.load(b, t, tiles[threadIdx.x / kLanes]);
  real* column = tile + lane_id();
  const index_t s = t.system0 + lane_id();
  const bool valid = s < b.count;
  const RowFactors lane = f.for_system(b, s);
  forward_sweep<P>(column, lane, t.row0, valid ? y_in[t.chunk * b.count + s] : 0.0);
  real x = valid ? x_in[t.chunk * b.count + s] : 0.0;
#pragma unroll 8
  for (int k = kConstantChunk - 1; k >= 0; --k) {
    x = fma(lane.gamma[t.row0 + k], x, column[k * P]);
    column[k * P] = x;
  }
  write_back<kConstantChunk, P>(b, t, tile, right.out());
}

}  // namespace batched

template <class Right>
void BatchedPartitionedSolver::solve_constant(const BatchLayout& layout, const int* plane_matrix,
                                              const Right& right) {
  using namespace batched;
  const Batch b = batch_for(layout, kConstantChunk);
  const index_t values = b.chunks * b.count;
  real* y_end = interface_workspace(2 * values);
  real* x_start = y_end + values;
  const auto padded = static_cast<std::size_t>(b.chunks * kConstantChunk);
  const real* rows = row_factors_.data();
  const RowFactors f{rows, rows + padded, rows + 2 * padded, plane_matrix,
                     static_cast<index_t>(3 * padded)};
  const unsigned blocks = blocks_for_tiles(b, kConstantWarps);
  constant_reduce_kernel<Right><<<blocks, kConstantWarps * kLanes>>>(b, right, f, y_end, x_start);
  FHN_CUDA_CHECK_LAUNCH();
  carry_interfaces(b, plane_matrix, y_end, x_start);
  constant_substitute_kernel<Right><<<blocks, kConstantWarps * kLanes>>>(b, right, f, y_end,
                                                                         x_start);
  FHN_CUDA_CHECK_LAUNCH();
}

template <class Form>
void BatchedPartitionedSolver::solve_formed(const BatchLayout& layout, const real* in,
                                            const Form& form, real* x) {
  check_constant(layout, 1);
  FHN_VERIFY(in != x, InternalError,
             "partitioned: solve_formed writes x over the field it forms the right sides from");
  if (layout.count == 0) return;
  solve_constant(layout, nullptr, batched::FormedRight<Form>{in, form, x});
}

}  // namespace fhn::solvers
