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
#include <cuda_pipeline_primitives.h>
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "core/cuda/cuda_check.hpp"
#include "core/cuda/device_buffer.hpp"
#include "core/cuda/launch.hpp"
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
// Thread t stages rows r = t, t + kThreads, ... (coalesced): its q-th row is row t of chunk q
// (kThreads = kChunk), slot q kStride + t, with no division. Asynchronous copies global ->
// shared (cp.async) keep all of a thread's 32 rows per array in flight at once, without
// registers; wait_staged() waits for the calling thread's own copies. A tile that lies wholly
// below n (all but the last) takes its rows without bound tests.
static_assert(kThreads == kChunk, "a thread's q-th staged row is its row of chunk q");
__device__ inline int staged_row(int q) { return q * kThreads + static_cast<int>(threadIdx.x); }
__device__ inline int staged_slot(int q) { return q * kStride + static_cast<int>(threadIdx.x); }
__device__ inline bool whole_tile(index_t first, index_t n) { return first + kTileRows <= n; }
__device__ inline void stage(real* tile_array, const real* __restrict__ global, index_t first,
                             index_t n) {
  const real* from = global + first;
  const bool whole = whole_tile(first, n);
#pragma unroll 8
  for (int q = 0; q < kChunk; ++q) {
    const int r = staged_row(q);
    if (whole || first + r < n)
      __pipeline_memcpy_async(tile_array + staged_slot(q), from + r, sizeof(real));
  }
}
// fn(q, i, s) for each of the calling thread's tile rows: its q-th staged row, i = first +
// staged_row(q) < n, s its slot. kUnrolled: the loop unrolled whole, so that q is a constant
// (an array indexed by it stays in registers).
template <bool kUnrolled = false, class Fn>
__device__ void for_own_rows(index_t first, index_t n, Fn fn) {
  const bool whole = whole_tile(first, n);
  auto row = [&](int q) {
    const int r = staged_row(q);
    if (whole || first + r < n) fn(q, first + r, staged_slot(q));
  };
  if constexpr (kUnrolled) {
#pragma unroll
    for (int q = 0; q < kChunk; ++q) row(q);
  } else {
#pragma unroll 4
    for (int q = 0; q < kChunk; ++q) row(q);
  }
}
// The slots of the rows before and after the calling thread's row in slot s (within the tile:
// r > 0, and r + 1 < kTileRows respectively): the neighbour in the same chunk, or the last row
// of the chunk before (s - 2) / the first of the chunk after (s + 2) at a chunk's ends.
__device__ inline int slot_before(int s) { return s - 1 - (threadIdx.x == 0 ? 1 : 0); }
__device__ inline int slot_after(int s) { return s + 1 + (threadIdx.x == kChunk - 1 ? 1 : 0); }
__device__ inline void wait_staged() {
  __pipeline_commit();
  __pipeline_wait_prior(0);
}
// Rows past n become identity rows x = 0 (they couple to nothing because c_{n-1} = 0), and the
// entries outside the matrix, a_0 and c_{n-1}, are zeroed. Each thread fixes its own rows; only
// the first and the last tile have any (uniform over the block).
__device__ inline void finish_tile_edges(Tile t, index_t first, index_t n) {
  if (first > 0 && first + kTileRows < n) return;
  for (int q = 0; q < kChunk; ++q) {
    const index_t i = first + staged_row(q);
    const int s = staged_slot(q);
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
//   sink.fetch(first, n)      pass 2, first thing in a tile: may start loading what its stores
//                             of the calling thread's rows need (their latency then overlaps
//                             the tile's load and sweeps)
//   sink.store_own(q, i, x_i) pass 2: the calling thread's q-th row, i (q a constant)
//   sink.store(i, x_i)        the one-block PCR: row i
//   sink.finish()             once per thread after its stores

// Rows read from arrays (the plain solver and the reduced levels).
struct ArrayRows {
  const real* __restrict__ a;
  const real* __restrict__ b;
  const real* __restrict__ c;
  const real* __restrict__ d;
  __device__ bool active() const { return true; }
  __device__ Row row(index_t i) const { return {a[i], b[i], c[i], d[i]}; }
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
  __device__ void fetch(index_t, index_t) const {}
  __device__ void store_own(int, index_t i, real value) const { x[i] = value; }
  __device__ void store(index_t i, real value) const { x[i] = value; }
  __device__ void passthrough(index_t) const {}
  __device__ void finish() {}
};

// ---- One chunk's sweeps ----------------------------------------------------------------------
// The arithmetic of both passes on one thread's chunk of kRows rows staged in a tile, for the
// kernels below (kChunk consecutive rows: kStep = 1) and for the batched solver's per-system
// kernels (batched_partitioned.cu: 16 rows, one column of a tile: kStep = its pitch). Row j of the
// chunk (x_0 = x_s, x_{kRows-1} = x_e) lies at slot s + j kStep of the tile's arrays. The kUnroll
// arguments are the loops' unroll counts (a count of at least the trip count unrolls a loop whole).

// The two rows a chunk reduces to (pass 1), coupling only chunk ends:
//   x_s + ap x_{e of the chunk before} + beta x_e = dq     (from the upward sweep)
//   x_e + alpha x_s + cp x_{s of the chunk after}  = dp     (from the downward sweep)
struct ChunkEnds {
  real ap, beta, dq;
  real alpha, cp, dp;
};

// Pass 1, rows j = 0 .. L (L = kRows - 1).
// Downward sweep, eliminating x_1 .. x_{L-1} from row L while keeping x_s as a parameter:
//   row j becomes  alpha_j x_s + x_j + c'_j x_{j+1} = d'_j  with, from alpha_1 = a_1/b_1,
//   c'_1 = c_1/b_1, d'_1 = d_1/b_1, and for j = 2..L with g = 1 / (b_j - a_j c'_{j-1}):
//   alpha_j = -a_j alpha_{j-1} g,  c'_j = c_j g,  d'_j = (d_j - a_j d'_{j-1}) g.
// Upward sweep, eliminating x_{L-1} .. x_1 from row 0 while keeping x_e as a parameter:
//   row j becomes  a''_j x_{j-1} + x_j + beta_j x_e = d''_j  with, from row L-1 normalised and
//   for j = L-2..0 with g = 1 / (b_j - c_j a''_{j+1}):
//   beta_j = -c_j beta_{j+1} g,  a''_j = a_j g,  d''_j = (d_j - c_j d''_{j+1}) g.
// The two sweeps are independent and run interleaved (instruction-level parallelism).
template <int kRows, int kStep, int kUnroll>
__device__ inline ChunkEnds reduce_chunk(const Tile& t, int s) {
  auto at = [&](int j) { return s + j * kStep; };
  constexpr int last = kRows - 1;
  real g = reciprocal(t.b[at(1)]);
  real alpha = t.a[at(1)] * g, cp = t.c[at(1)] * g, dp = t.d[at(1)] * g;
  g = reciprocal(t.b[at(last - 1)]);
  real beta = t.c[at(last - 1)] * g, ap = t.a[at(last - 1)] * g, dq = t.d[at(last - 1)] * g;
#pragma unroll(kUnroll)
  for (int k = 0; k < kRows - 2; ++k) {
    // (These index forms give both callers the machine code of their former inline copies;
    // at(2 + k) and at(last - 2 - k) make nvcc schedule the kernels below differently.)
    const int down = at(2) + k * kStep, up = at(last - 2) - k * kStep;
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
  return {ap, beta, dq, alpha, cp, dp};
}

// Pass 2. With x_0 = x_s and x_L = x_e known (the next level's solution), Thomas on rows
// 1..L-1: c'_1 = c_1/b_1, d'_1 = (d_1 - a_1 x_s)/b_1; for j = 2..L-1 with
// g = 1/(b_j - a_j c'_{j-1}): c'_j = c_j g, d'_j = (d_j - a_j d'_{j-1}) g; then
// x_j = d'_j - c'_j x_{j+1} for j = L-1..1.
// c' and d' are kept in the chunk's c and d slots; x replaces d in all its rows.
template <int kRows, int kStep, int kUnrollDown, int kUnrollUp>
__device__ inline void substitute_chunk(const Tile& t, int s, real xs, real xe) {
  auto at = [&](int j) { return s + j * kStep; };
  constexpr int last = kRows - 1;
  real g = reciprocal(t.b[at(1)]);
  real cp = t.c[at(1)] * g, dp = (t.d[at(1)] - t.a[at(1)] * xs) * g;
  t.c[at(1)] = cp;
  t.d[at(1)] = dp;
#pragma unroll(kUnrollDown)
  for (int j = 2; j < last; ++j) {
    const real a = t.a[at(j)];
    g = reciprocal(t.b[at(j)] - a * cp);
    cp = t.c[at(j)] * g;
    dp = (t.d[at(j)] - a * dp) * g;
    t.c[at(j)] = cp;
    t.d[at(j)] = dp;
  }
  real x = xe;
  t.d[at(last)] = xe;
#pragma unroll(kUnrollUp)
  for (int j = last - 1; j >= 1; --j) {
    x = t.d[at(j)] - t.c[at(j)] * x;
    t.d[at(j)] = x;
  }
  t.d[at(0)] = xs;
}

// Pass 1: thread = chunk; the chunk's two rows go to rows 2 chunk and 2 chunk + 1 of the next
// level.
template <class Rows>
__global__ void __launch_bounds__(kThreads) reduce_kernel(Rows rows, index_t n, Level next) {
  if (!rows.active()) return;
  extern __shared__ real shared[];
  const Tile t = tile_view(shared);
  const index_t first = blockIdx.x * kTileRows;
  rows.load(t, first, n);
  __syncthreads();
  rows.finish();

  const index_t chunk = blockIdx.x * static_cast<index_t>(kThreads) + threadIdx.x;
  if (chunk * kChunk >= n) return;
  const ChunkEnds e = reduce_chunk<kChunk, 1, 2>(t, static_cast<int>(threadIdx.x) * kStride);
  const index_t r = 2 * chunk;
  next.a[r] = e.ap;  // row of x_s
  next.b[r] = 1.0;
  next.c[r] = e.beta;
  next.d[r] = e.dq;
  next.a[r + 1] = e.alpha;  // row of x_e
  next.b[r + 1] = 1.0;
  next.c[r + 1] = e.cp;
  next.d[r + 1] = e.dp;
}

// Pass 2: thread = chunk, substitute_chunk with the next level's x_s and x_e; the block then
// writes its tile's x back.
template <class Rows, class Sink>
__global__ void __launch_bounds__(kThreads) substitute_kernel(Rows rows, index_t n,
                                                              const real* __restrict__ x_next,
                                                              Sink sink) {
  const index_t first = blockIdx.x * kTileRows;
  if (!rows.active()) {
    for (int q = 0; q < kChunk; ++q) {
      const index_t i = first + q * kThreads + threadIdx.x;
      if (i < n) sink.passthrough(i);
    }
    return;
  }
  // What the sweep and the stores will need from global memory is asked for first.
  sink.fetch(first, n);
  const index_t chunk = blockIdx.x * static_cast<index_t>(kThreads) + threadIdx.x;
  const bool own_chunk = chunk * kChunk < n;
  const real xs = own_chunk ? x_next[2 * chunk] : 0.0;
  const real xe = own_chunk ? x_next[2 * chunk + 1] : 0.0;
  extern __shared__ real shared[];
  const Tile t = tile_view(shared);
  rows.load(t, first, n);
  __syncthreads();

  if (own_chunk)
    substitute_chunk<kChunk, 1, 2, 4>(t, static_cast<int>(threadIdx.x) * kStride, xs, xe);
  __syncthreads();
  for_own_rows<true>(first, n, [&](int q, index_t i, int s) { sink.store_own(q, i, t.d[s]); });
  sink.finish();
}

// n <= kBaseRows: one block of P threads (P a power of two >= n, >= 32) and parallel cyclic
// reduction in shared memory. Step with stride s: row i takes k1 = a_i / b_{i-s} of row i-s and
// k2 = c_i / b_{i+s} of row i+s away:
//   a_i <- -a_{i-s} k1,  c_i <- -c_{i+s} k2,  b_i <- b_i - c_{i-s} k1 - a_{i+s} k2,
//   d_i <- d_i - d_{i-s} k1 - d_{i+s} k2;
// after s = 1, 2, .., P/2 every row is decoupled: x_i = d_i / b_i.
template <class Rows, class Sink>
__global__ void __launch_bounds__(kBaseRows) pcr_kernel(Rows rows, index_t n, Sink sink) {
  const int i = static_cast<int>(threadIdx.x);
  const int size = static_cast<int>(blockDim.x);
  if (!rows.active()) {
    if (i < n) sink.passthrough(i);
    return;
  }
  __shared__ real a[kBaseRows], b[kBaseRows], c[kBaseRows], d[kBaseRows];
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

// ---- Host side -------------------------------------------------------------------------------

// Memory for the reduced levels of any system of up to n_max unknowns, allocated once.
class Workspace {
 public:
  explicit Workspace(index_t n_max) {
    std::vector<index_t> sizes;
    for (index_t m = n_max; m > kBaseRows; m = reduced_size(m)) sizes.push_back(reduced_size(m));
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

// Launches kKernel (reduce_kernel or substitute_kernel) with one block per tile of a level of
// n rows and kTileBytes of dynamic shared memory, which the first launch of each kernel allows.
template <auto kKernel, class... Args>
void launch_on_tiles(index_t n, cudaStream_t stream, const Args&... args) {
  static const bool configured = [] {
    FHN_CUDA_CHECK(cudaFuncSetAttribute(kKernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(kTileBytes)));
    return true;
  }();
  (void)configured;
  kKernel<<<cuda::blocks_for(n, kTileRows), kThreads, kTileBytes, stream>>>(args...);
  FHN_CUDA_CHECK_LAUNCH();
}

// Kernels a solve of n unknowns launches: 2 per level above kBaseRows rows, plus one.
constexpr int launches(index_t n) { return n <= kBaseRows ? 1 : 2 + launches(reduced_size(n)); }
static_assert(launches(kBaseRows) == 1 && launches(kBaseRows + 1) == 3 &&
                  launches(index_t{1} << 20) == 7 && launches(index_t{1} << 26) == 9,
              "levels: 2^20 -> 2^16 -> 4096 -> 256; 2^26 -> 2^22 -> 2^18 -> 2^14 -> 1024");

// Solves the system given by `rows` (n <= the workspace's n_max) into `sink`; kernels are
// enqueued on `stream` (capturable into a CUDA graph), nothing waits for the device: launches(n)
// of them.
template <class Rows, class Sink>
void solve(const Rows& rows, const Sink& sink, index_t n, const Workspace& workspace,
           cudaStream_t stream, int depth = 0) {
  if (n <= kBaseRows) {
    pcr_kernel<Rows, Sink><<<1, pcr_threads(n), 0, stream>>>(rows, n, sink);
    FHN_CUDA_CHECK_LAUNCH();
    return;
  }
  const Level next = workspace.level(depth, n);
  launch_on_tiles<reduce_kernel<Rows>>(n, stream, rows, n, next);
  solve(ArrayRows{next.a, next.b, next.c, next.d}, ArraySink{next.d}, next.n, workspace, stream,
        depth + 1);
  launch_on_tiles<substitute_kernel<Rows, Sink>>(n, stream, rows, n, next.d, sink);
}

}  // namespace fhn::solvers::partitioned
