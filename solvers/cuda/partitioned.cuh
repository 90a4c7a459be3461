#pragma once
// The partitioned tridiagonal solver (backend `partitioned`), as templates over where the rows
// come from and where the solution goes, so that the Crank-Nicolson scheme can build its Jacobian
// and residual inside the solver's passes (src/schemes/cuda/crank_nicolson_cuda.cu) and the
// plain solver (partitioned.cu) reads them from arrays.
//
// The system: a_i x_{i-1} + b_i x_i + c_i x_{i+1} = d_i, i = 0 .. n-1 (a_0 = c_{n-1} = 0).
//
// Pass 1 (reduce): the rows are cut into chunks of kChunk = 32 consecutive rows, one chunk per
// thread. A block stages the tile of its kThreads chunks in shared memory (coalesced loads),
// then each thread eliminates its chunk's interior unknowns and keeps two rows that couple only
// the chunk's first and last unknowns x_s, x_e with the neighbouring chunks' ends:
//   x_s + l_s x_{e of the chunk before} + u_s x_e = r_s        (from an upward sweep)
//   x_e + l_e x_s + u_e x_{s of the chunk after}  = r_e        (from a downward sweep)
// These 2 rows per chunk form a tridiagonal system of 2 ceil(n/32) unknowns (x_s0, x_e0, x_s1,
// ...): the next level, solved the same way until it has at most kBaseRows rows, which one block
// solves by parallel cyclic reduction in shared memory.
// Pass 2 (substitute): the rows are staged again; with x_s and x_e known, each thread solves its
// chunk's interior by Thomas in shared memory; the block writes x back coalesced.
//
// Bytes per unknown at the top level: read a, b, c, d twice (64 B), write x (8 B): 72 B, against
// 40 B for a single pass, which would need the whole system on the chip. The next levels have
// n/16 unknowns (at n = 2^24 they fit in the 50 MB L2 cache).
// Diagonal dominance carries over to the reduced system, so no pivoting is needed for the
// Crank-Nicolson Jacobians (and none is done: the matrix must be diagonally dominant).
//
// Two forms of the same passes (the tile functions reduce_tile, substitute_tile and pcr_block
// are shared): the multi-kernel form (solve) launches one kernel per pass and level, one block
// per tile, and solves the base level of at most kBaseRows rows by PCR in one block of up to
// 1024 threads: 2 L + 1 launches for L levels above kBaseRows rows. The single-kernel form
// (solve_single) is one cooperative launch of at most as many 32-thread blocks as fit on the
// device at once; its blocks loop over each level's tiles (tile = blockIdx.x, + gridDim.x, ...)
// and the phases are separated by a grid-wide barrier where the multi-kernel form has a kernel
// boundary (2 L of them), by a block barrier once a level is a single tile (block 0 does it).
// Its blocks have one warp, so it reduces on down to at most kThreads rows (one or two levels
// more, each a single tile) and solves those by PCR in block 0. It pays no launch gaps and no
// ramp-up or tail of 2 L + 1 grids: it is for systems small enough (in the L2 cache) that these
// are what the solve's time is made of.
#include <cooperative_groups.h>
#include <cuda_pipeline_primitives.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/cuda/cuda_check.hpp"
#include "core/cuda/device_buffer.hpp"
#include "core/error.hpp"
#include "core/types.hpp"

namespace fhn::solvers::partitioned {

constexpr int kChunk = 32;                           // rows per thread
constexpr int kThreads = 32;                         // threads (chunks) per block: one warp
constexpr index_t kTileRows = index_t{kChunk} * kThreads;
constexpr int kStride = kChunk + 1;                  // shared-memory stride of a chunk (odd: no
                                                     // bank conflicts for 8-byte accesses)
constexpr int kTileSlots = kThreads * kStride;       // per coefficient array
constexpr std::size_t kTileBytes = 4 * kTileSlots * sizeof(real);
constexpr int kBaseRows = 1024;                      // solved by one block (PCR)
constexpr int kMaxLevels = 16;  // reduced levels down to kThreads rows, for any index_t n (each
                                // level has 1/16 of the rows of the one above)

// 1/x to a unit or two in the last place, for the pivots of the sweeps: the hardware's
// approximate reciprocal (rcp.approx, about 2^-23 relative error) refined by two Newton steps
// r <- r + r (1 - x r), each of which doubles the number of correct bits. A quarter of the
// instructions and latency of an IEEE division; a zero pivot gives NaN instead of infinity.
__device__ inline real reciprocal(real x) {
  real r;
  asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(x));
  r = fma(r, fma(-x, r, 1.0), r);
  return fma(r, fma(-x, r, 1.0), r);
}

// Rows of the next level: two per chunk.
constexpr index_t reduced_size(index_t n) { return 2 * ((n + kChunk - 1) / kChunk); }

struct Row {
  real a, b, c, d;
};

// A level's system in device memory; d is overwritten with the solution.
struct Level {
  index_t n;
  real *a, *b, *c, *d;
};

// ---- Shared-memory tile --------------------------------------------------------------------
// The rows first .. first + kTileRows - 1 of a block: four arrays of kThreads chunks.
struct Tile {
  real *a, *b, *c, *d;
};
__device__ inline Tile tile_view(real* shared) {
  return {shared, shared + kTileSlots, shared + 2 * kTileSlots, shared + 3 * kTileSlots};
}
// Slot of the tile's row r: chunk r / kChunk, position r % kChunk.
__device__ inline int slot(int r) { return (r / kChunk) * kStride + r % kChunk; }

// Thread t stages rows r = t, t + kThreads, ... (coalesced). Asynchronous copies global ->
// shared (cp.async) keep all of a thread's 32 rows per array in flight at once, without
// registers; wait_staged() waits for the calling thread's own copies.
__device__ inline int staged_row(int q) { return q * kThreads + static_cast<int>(threadIdx.x); }
__device__ inline void stage(real* tile_array, const real* __restrict__ global, index_t first,
                             index_t n) {
#pragma unroll 8
  for (int q = 0; q < kChunk; ++q) {
    const int r = staged_row(q);
    if (first + r < n) __pipeline_memcpy_async(tile_array + slot(r), global + first + r, sizeof(real));
  }
}
// fn(r, i, s) for each of the calling thread's tile rows r with i = first + r < n, s its slot.
template <class Fn>
__device__ void for_own_rows(index_t first, index_t n, Fn fn) {
#pragma unroll 4
  for (int q = 0; q < kChunk; ++q) {
    const int r = staged_row(q);
    if (first + r < n) fn(r, first + r, slot(r));
  }
}
__device__ inline void wait_staged() {
  __pipeline_commit();
  __pipeline_wait_prior(0);
}
// Rows past n become identity rows x = 0 (they couple to nothing because c_{n-1} = 0), and the
// entries outside the matrix, a_0 and c_{n-1}, are zeroed. Each thread fixes its own rows.
__device__ inline void finish_tile_edges(Tile t, index_t first, index_t n) {
  for (int q = 0; q < kChunk; ++q) {
    const int r = staged_row(q);
    const index_t i = first + r;
    const int s = slot(r);
    if (i >= n) {
      t.a[s] = 0.0;
      t.b[s] = 1.0;
      t.c[s] = 0.0;
      t.d[s] = 0.0;
    }
    if (i == 0) t.a[s] = 0.0;
    if (i == n - 1) t.c[s] = 0.0;
  }
}

// Rows/Sink interface: the kernels take copies and call
//   rows.active()             false: the call is a no-op (sink.passthrough(i) for each row)
//   rows.load(tile, first, n) every thread; fills the tile (finish_tile_edges included); the
//                             kernel synchronises the block afterwards
//   rows.row(i)               row i < n of a system small enough for one block (PCR)
//   rows.finish()             once per thread after the first pass (block reductions allowed)
//   sink.store(i, x_i)        for every i < n
//   sink.finish()             once per thread after its stores

// Rows read from arrays (the plain solver and the reduced levels). row() loads through L2
// (ld.global.cg), not the read-only path that __restrict__ const pointers allow (ld.global.nc,
// coherent only for data nothing writes during the launch): the single kernel reads levels
// written earlier in the same launch. The tiles' staging (cp.async) is an ordinary load.
struct ArrayRows {
  const real* __restrict__ a;
  const real* __restrict__ b;
  const real* __restrict__ c;
  const real* __restrict__ d;
  __device__ bool active() const { return true; }
  __device__ Row row(index_t i) const {
    return {__ldcg(a + i), __ldcg(b + i), __ldcg(c + i), __ldcg(d + i)};
  }
  __device__ void load(Tile t, index_t first, index_t n) const {
    stage(t.a, a, first, n);
    stage(t.b, b, first, n);
    stage(t.c, c, first, n);
    stage(t.d, d, first, n);
    wait_staged();
    finish_tile_edges(t, first, n);
  }
  __device__ void finish() {}
};

// The solution written to an array.
struct ArraySink {
  real* x;
  __device__ void store(index_t i, real value) const { x[i] = value; }
  __device__ void passthrough(index_t) const {}
  __device__ void finish() {}
};

// Pass 1 on one tile (rows tile * kTileRows ..), by every thread of the block. Thread = chunk,
// rows j = 0..31 of the chunk (x_0 = x_s, x_31 = x_e).
// Downward sweep, eliminating x_1 .. x_30 from row 31 while keeping x_s as a parameter:
//   row j becomes  alpha_j x_s + x_j + c'_j x_{j+1} = d'_j  with, from alpha_1 = a_1/b_1,
//   c'_1 = c_1/b_1, d'_1 = d_1/b_1, and for j = 2..31 with g = 1 / (b_j - a_j c'_{j-1}):
//   alpha_j = -a_j alpha_{j-1} g,  c'_j = c_j g,  d'_j = (d_j - a_j d'_{j-1}) g.
// Upward sweep, eliminating x_30 .. x_1 from row 0 while keeping x_e as a parameter:
//   row j becomes  a''_j x_{j-1} + x_j + beta_j x_e = d''_j  with, from row 30 normalised and
//   for j = 29..0 with g = 1 / (b_j - c_j a''_{j+1}):
//   beta_j = -c_j beta_{j+1} g,  a''_j = a_j g,  d''_j = (d_j - c_j d''_{j+1}) g.
// The two sweeps are independent and run interleaved (instruction-level parallelism).
template <class Rows>
__device__ void reduce_tile(Rows& rows, index_t tile, index_t n, const Level& next, Tile t) {
  rows.load(t, tile * kTileRows, n);
  __syncthreads();

  const index_t chunk = tile * kThreads + threadIdx.x;
  if (chunk * kChunk >= n) return;
  const int s = static_cast<int>(threadIdx.x) * kStride;
  real g = reciprocal(t.b[s + 1]);
  real alpha = t.a[s + 1] * g, cp = t.c[s + 1] * g, dp = t.d[s + 1] * g;
  g = reciprocal(t.b[s + kChunk - 2]);
  real beta = t.c[s + kChunk - 2] * g, ap = t.a[s + kChunk - 2] * g, dq = t.d[s + kChunk - 2] * g;
#pragma unroll 2
  for (int k = 0; k < kChunk - 2; ++k) {
    const int down = s + 2 + k, up = s + kChunk - 3 - k;
    const real a = t.a[down];
    const real gd = reciprocal(t.b[down] - a * cp);
    alpha = -a * alpha * gd;
    dp = (t.d[down] - a * dp) * gd;
    cp = t.c[down] * gd;
    const real c = t.c[up];
    const real gu = reciprocal(t.b[up] - c * ap);
    beta = -c * beta * gu;
    dq = (t.d[up] - c * dq) * gu;
    ap = t.a[up] * gu;
  }
  const index_t r = 2 * chunk;
  next.a[r] = ap;  // row of x_s
  next.b[r] = 1.0;
  next.c[r] = beta;
  next.d[r] = dq;
  next.a[r + 1] = alpha;  // row of x_e
  next.b[r + 1] = 1.0;
  next.c[r + 1] = cp;
  next.d[r + 1] = dp;
}

// Pass 2 on one tile, by every thread of the block. With x_0 = x_s and x_31 = x_e known (the
// next level's solution), Thomas on rows 1..30: c'_1 = c_1/b_1, d'_1 = (d_1 - a_1 x_s)/b_1; for
// j = 2..30 with g = 1/(b_j - a_j c'_{j-1}): c'_j = c_j g, d'_j = (d_j - a_j d'_{j-1}) g; then
// x_j = d'_j - c'_j x_{j+1} for j = 30..1. c' and d' are kept in the tile's c and d slots of the
// thread's own chunk; x replaces d. x_next is read from L2 (ld.global.cg; see ArrayRows).
template <class Rows, class Sink>
__device__ void substitute_tile(Rows& rows, index_t tile, index_t n, const real* x_next,
                                Sink& sink, Tile t) {
  const index_t first = tile * kTileRows;
  rows.load(t, first, n);
  __syncthreads();

  const index_t chunk = tile * kThreads + threadIdx.x;
  if (chunk * kChunk < n) {
    const int s = static_cast<int>(threadIdx.x) * kStride;
    const real xs = __ldcg(x_next + 2 * chunk), xe = __ldcg(x_next + 2 * chunk + 1);
    real g = reciprocal(t.b[s + 1]);
    real cp = t.c[s + 1] * g, dp = (t.d[s + 1] - t.a[s + 1] * xs) * g;
    t.c[s + 1] = cp;
    t.d[s + 1] = dp;
#pragma unroll 2
    for (int j = 2; j < kChunk - 1; ++j) {
      const real a = t.a[s + j];
      g = reciprocal(t.b[s + j] - a * cp);
      cp = t.c[s + j] * g;
      dp = (t.d[s + j] - a * dp) * g;
      t.c[s + j] = cp;
      t.d[s + j] = dp;
    }
    real x = xe;
    t.d[s + kChunk - 1] = xe;
#pragma unroll 4
    for (int j = kChunk - 2; j >= 1; --j) {
      x = t.d[s + j] - t.c[s + j] * x;
      t.d[s + j] = x;
    }
    t.d[s] = xs;
  }
  __syncthreads();
  for_own_rows(first, n, [&](int, index_t i, int s) { sink.store(i, t.d[s]); });
}

// The rows of one tile when the solve is skipped (rows.active() false).
template <class Sink>
__device__ void passthrough_tile(Sink& sink, index_t tile, index_t n) {
  for_own_rows(tile * kTileRows, n, [&](int, index_t i, int) { sink.passthrough(i); });
}

// n <= size rows, one block of `size` threads (a power of two >= n, >= 32), and parallel cyclic
// reduction in `shared` (4 size values). Step with stride s: row i takes k1 = a_i / b_{i-s} of
// row i-s and k2 = c_i / b_{i+s} of row i+s away:
//   a_i <- -a_{i-s} k1,  c_i <- -c_{i+s} k2,  b_i <- b_i - c_{i-s} k1 - a_{i+s} k2,
//   d_i <- d_i - d_{i-s} k1 - d_{i+s} k2;
// after s = 1, 2, .., size/2 every row is decoupled: x_i = d_i / b_i.
template <class Rows, class Sink>
__device__ void pcr_block(Rows& rows, index_t n, Sink& sink, real* shared, int size) {
  const int i = static_cast<int>(threadIdx.x);
  real* a = shared;
  real* b = shared + size;
  real* c = shared + 2 * size;
  real* d = shared + 3 * size;
  Row row{0.0, 1.0, 0.0, 0.0};
  if (i < n) {
    row = rows.row(i);
    if (i == 0) row.a = 0.0;
    if (i == n - 1) row.c = 0.0;
  }
  rows.finish();
  a[i] = row.a;
  b[i] = row.b;
  c[i] = row.c;
  d[i] = row.d;
  __syncthreads();
  for (int s = 1; s < size; s <<= 1) {
    real an = 0.0, bn = b[i], cn = 0.0, dn = d[i];
    if (i - s >= 0) {
      const real k1 = a[i] / b[i - s];
      an = -a[i - s] * k1;
      bn -= c[i - s] * k1;
      dn -= d[i - s] * k1;
    }
    if (i + s < size) {
      const real k2 = c[i] / b[i + s];
      cn = -c[i + s] * k2;
      bn -= a[i + s] * k2;
      dn -= d[i + s] * k2;
    }
    __syncthreads();
    a[i] = an;
    b[i] = bn;
    c[i] = cn;
    d[i] = dn;
    __syncthreads();
  }
  if (i < n) sink.store(i, d[i] / b[i]);
  sink.finish();
}

// ---- The multi-kernel form: one block per tile ---------------------------------------------

template <class Rows>
__global__ void __launch_bounds__(kThreads) reduce_kernel(Rows rows, index_t n, Level next) {
  if (!rows.active()) return;
  extern __shared__ real shared[];
  reduce_tile(rows, blockIdx.x, n, next, tile_view(shared));
  rows.finish();
}

template <class Rows, class Sink>
__global__ void __launch_bounds__(kThreads) substitute_kernel(Rows rows, index_t n,
                                                              const real* __restrict__ x_next,
                                                              Sink sink) {
  if (!rows.active()) {
    passthrough_tile(sink, blockIdx.x, n);
    return;
  }
  extern __shared__ real shared[];
  substitute_tile(rows, blockIdx.x, n, x_next, sink, tile_view(shared));
  sink.finish();
}

// n <= kBaseRows: pcr_block with blockDim.x threads.
template <class Rows, class Sink>
__global__ void __launch_bounds__(kBaseRows) pcr_kernel(Rows rows, index_t n, Sink sink) {
  if (!rows.active()) {
    if (threadIdx.x < n) sink.passthrough(threadIdx.x);
    return;
  }
  __shared__ real shared[4 * kBaseRows];
  pcr_block(rows, n, sink, shared, static_cast<int>(blockDim.x));
}

// ---- The single-kernel form: one cooperative launch ----------------------------------------

// The reduced levels of one system down to at most kThreads rows: level[0 .. count-1].
struct Levels {
  Level level[kMaxLevels];
  int count;
};

__device__ inline ArrayRows array_rows(const Level& l) { return {l.a, l.b, l.c, l.d}; }

// Between two phases that work on levels of at most m rows (the larger of the two): a level of
// one tile is block 0's alone, so a block barrier suffices; otherwise the whole grid waits (and
// the barrier orders the global memory written before it for every block). m is the same in
// every block, so every block reaches every grid barrier.
__device__ inline void phase_barrier(index_t m) {
  if (m > kTileRows)
    cooperative_groups::this_grid().sync();
  else
    __syncthreads();
}

// fn(tile) for the tiles of a level of m rows that this block handles: blockIdx.x, + gridDim.x,
// ...; the block barrier after each lets the next tile be staged into the same shared memory.
template <class Fn>
__device__ void for_block_tiles(index_t m, Fn fn) {
  for (index_t tile = blockIdx.x; tile * kTileRows < m; tile += gridDim.x) {
    fn(tile);
    __syncthreads();
  }
}

// The whole solve. Phases: pass 1 of the system (rows) and of levels 0 .. count-2, PCR of level
// count-1 (at most kThreads rows) in block 0, pass 2 of levels count-2 .. 0 and of the system
// (into sink); a grid barrier between two phases where one of them has more than one tile (2 L
// for L levels above kTileRows rows, the system included), else a block barrier.
// rows.finish() after the first pass, sink.finish() after the last, once per thread.
template <class Rows, class Sink>
__global__ void __launch_bounds__(kThreads)
    single_kernel(Rows rows, Sink sink, index_t n, const __grid_constant__ Levels levels) {
  extern __shared__ real shared[];
  const Tile t = tile_view(shared);
  // PCR on blockDim.x = kThreads threads, the size given at run time as pcr_kernel's is: up to
  // 32 unknowns both forms run the same code (bitwise equal results).
  const int pcr_size = static_cast<int>(blockDim.x);
  if (!rows.active()) {  // the same answer in every block
    for_block_tiles(n, [&](index_t tile) { passthrough_tile(sink, tile, n); });
    return;
  }
  if (n <= kThreads) {  // one block, no levels
    pcr_block(rows, n, sink, shared, pcr_size);
    return;
  }
  for_block_tiles(n, [&](index_t tile) { reduce_tile(rows, tile, n, levels.level[0], t); });
  rows.finish();
  phase_barrier(n);
  for (int k = 1; k < levels.count; ++k) {
    const Level& from = levels.level[k - 1];
    ArrayRows from_rows = array_rows(from);
    for_block_tiles(from.n, [&](index_t tile) {
      reduce_tile(from_rows, tile, from.n, levels.level[k], t);
    });
    phase_barrier(from.n);
  }
  if (blockIdx.x == 0) {
    const Level& base = levels.level[levels.count - 1];
    ArrayRows base_rows = array_rows(base);
    ArraySink base_sink{base.d};
    pcr_block(base_rows, base.n, base_sink, shared, pcr_size);
  }
  for (int k = levels.count - 1; k >= 1; --k) {
    const Level& to = levels.level[k - 1];
    phase_barrier(to.n);
    ArrayRows to_rows = array_rows(to);
    ArraySink to_sink{to.d};
    for_block_tiles(to.n, [&](index_t tile) {
      substitute_tile(to_rows, tile, to.n, levels.level[k].d, to_sink, t);
    });
  }
  phase_barrier(n);
  for_block_tiles(n, [&](index_t tile) {
    substitute_tile(rows, tile, n, levels.level[0].d, sink, t);
  });
  sink.finish();
}

// ---- Host side -------------------------------------------------------------------------------

// Memory for the reduced levels of any system of up to n_max unknowns, allocated once: down to
// kThreads rows (the single kernel's levels; the multi-kernel form uses those above kBaseRows).
class Workspace {
 public:
  explicit Workspace(index_t n_max) {
    std::vector<index_t> sizes;
    for (index_t m = n_max; m > kThreads; m = reduced_size(m)) sizes.push_back(reduced_size(m));
    std::size_t total = 0;
    for (index_t m : sizes) total += 4 * static_cast<std::size_t>(m);
    storage_ = cuda::DeviceBuffer<real>(total, "partitioned solver workspace");
    real* p = storage_.data();
    for (index_t m : sizes) {
      capacity_.push_back({m, p, p + m, p + 2 * m, p + 3 * m});
      p += 4 * m;
    }
  }
  // Level `depth` (0 = the first reduced system) of a system of n_top <= n_max unknowns.
  Level level(int depth, index_t n) const {
    Level l = capacity_.at(static_cast<std::size_t>(depth));
    l.n = reduced_size(n);
    return l;
  }
  // Every level of a system of n <= n_max unknowns, down to at most kThreads rows.
  Levels levels(index_t n) const {
    Levels chain{};
    for (index_t m = n; m > kThreads; m = reduced_size(m)) {
      chain.level[chain.count] = level(chain.count, m);
      ++chain.count;
    }
    return chain;
  }

 private:
  cuda::DeviceBuffer<real> storage_;
  std::vector<Level> capacity_;
};

// Threads of the PCR block for n rows.
inline unsigned pcr_threads(index_t n) {
  unsigned p = 32;
  while (p < n) p <<= 1;
  return p;
}

template <class Rows>
void launch_reduce(const Rows& rows, index_t n, const Level& next, cudaStream_t stream) {
  static const bool configured = [] {
    FHN_CUDA_CHECK(cudaFuncSetAttribute(reduce_kernel<Rows>,
                                        cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(kTileBytes)));
    return true;
  }();
  (void)configured;
  const auto blocks = static_cast<unsigned>((n + kTileRows - 1) / kTileRows);
  reduce_kernel<Rows><<<blocks, kThreads, kTileBytes, stream>>>(rows, n, next);
  FHN_CUDA_CHECK_LAUNCH();
}

template <class Rows, class Sink>
void launch_substitute(const Rows& rows, index_t n, const real* x_next, const Sink& sink,
                       cudaStream_t stream) {
  static const bool configured = [] {
    FHN_CUDA_CHECK(cudaFuncSetAttribute(substitute_kernel<Rows, Sink>,
                                        cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(kTileBytes)));
    return true;
  }();
  (void)configured;
  const auto blocks = static_cast<unsigned>((n + kTileRows - 1) / kTileRows);
  substitute_kernel<Rows, Sink><<<blocks, kThreads, kTileBytes, stream>>>(rows, n, x_next, sink);
  FHN_CUDA_CHECK_LAUNCH();
}

// Kernels the multi-kernel form launches for n unknowns: 2 per level above kBaseRows rows, plus
// one (the single kernel has a grid barrier in each gap between them).
constexpr int multi_kernel_launches(index_t n) {
  int launches = 1;
  for (index_t m = n; m > kBaseRows; m = reduced_size(m)) launches += 2;
  return launches;
}

// Solves the system given by `rows` (n <= the workspace's n_max) into `sink`, one kernel per
// pass and level (multi_kernel_launches(n)); kernels are enqueued on `stream` (capturable into
// a CUDA graph), nothing waits for the device.
template <class Rows, class Sink>
void solve(const Rows& rows, const Sink& sink, index_t n, const Workspace& workspace,
           cudaStream_t stream, int depth = 0) {
  if (n <= kBaseRows) {
    pcr_kernel<Rows, Sink><<<1, pcr_threads(n), 0, stream>>>(rows, n, sink);
    FHN_CUDA_CHECK_LAUNCH();
    return;
  }
  const Level next = workspace.level(depth, n);
  launch_reduce(rows, n, next, stream);
  solve(ArrayRows{next.a, next.b, next.c, next.d}, ArraySink{next.d}, next.n, workspace, stream,
        depth + 1);
  launch_substitute(rows, n, next.d, sink, stream);
}

// Blocks of single_kernel<Rows, Sink> that fit on the current device at once, the most one
// cooperative launch may have; 0 where the device cannot launch cooperatively.
template <class Rows, class Sink>
int single_kernel_capacity() {
  int device = 0, cooperative = 0, multiprocessors = 0, per_multiprocessor = 0;
  FHN_CUDA_CHECK(cudaGetDevice(&device));
  FHN_CUDA_CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device));
  if (!cooperative) return 0;
  FHN_CUDA_CHECK(
      cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  FHN_CUDA_CHECK(cudaFuncSetAttribute(single_kernel<Rows, Sink>,
                                      cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      static_cast<int>(kTileBytes)));
  FHN_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &per_multiprocessor, single_kernel<Rows, Sink>, kThreads, kTileBytes));
  return per_multiprocessor * multiprocessors;
}

// The same solve as solve(), in one cooperative launch of min(tiles, capacity) blocks, capacity
// from single_kernel_capacity<Rows, Sink>() (> 0). Any n: the blocks loop over the tiles.
// cudaLaunchKernelEx with the cooperative attribute, which stream capture records as a
// cooperative kernel node (the attribute is valid for launches and graph nodes).
template <class Rows, class Sink>
void solve_single(const Rows& rows, const Sink& sink, index_t n, const Workspace& workspace,
                  int capacity, cudaStream_t stream) {
  const index_t tiles = (n + kTileRows - 1) / kTileRows;
  cudaLaunchAttribute cooperative{};
  cooperative.id = cudaLaunchAttributeCooperative;
  cooperative.val.cooperative = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(static_cast<unsigned>(std::min<index_t>(tiles, capacity)));
  config.blockDim = dim3(kThreads);
  config.dynamicSmemBytes = kTileBytes;
  config.stream = stream;
  config.attrs = &cooperative;
  config.numAttrs = 1;
  FHN_CUDA_CHECK(
      cudaLaunchKernelEx(&config, single_kernel<Rows, Sink>, rows, sink, n, workspace.levels(n)));
}

}  // namespace fhn::solvers::partitioned
