// Forward Euler kernels on a sheet: one step per pass at the copy bandwidth, and a temporally
// blocked kernel that advances up to kSheetStepsPerPass steps per pass.
//
// The step, per node (i, j) and step s (t = s dt, k = dt, r = D / h^2):
//   v+ = v + k (r [(v_W - 2 v + v_E) + (v_S - 2 v + v_N)] + f(v) - w + I(t)),
//   w+ = w + k eps (v - gamma w),
// a no-flux side's mirrored ghost node giving 2 (v_inner - v) for its axis, a Dirichlet side
// holding v (sheet_diffusion_of, sheet_dirichlet in node_updates.hpp).
//
// Bytes per node and step: 32 when every step is a pass (read v, w; write v+, w+; the four
// neighbours of v come from L1/L2, each v being read by five nodes of neighbouring threads).
// Blocked: a block loads a (32 + 2H) x (32 + 2H) region of v and w into shared memory, advances
// it H steps there (the exact part shrinks by one node per side and step) and writes its 32 x 32
// interior: 16 (32 + 2H)^2 / 32^2 + 16 bytes per node and pass, divided over H steps: with H = 8
// that is 42 B per node and pass, 5.3 B per node and step, 6x less than one step per pass. The
// pass is then bound by shared-memory traffic and barriers (one per step), and by the redundant
// halo updates: (32 + 2H - 2)^2 / 32^2 computed per useful node at the first step.
#include "schemes/cuda/sheet_kernels.cuh"

#include <cuda_runtime.h>

#include "core/cuda/cuda_check.hpp"
#include "core/error.hpp"

namespace fhn::cuda {
namespace {

constexpr int kStepX = 32, kStepY = 8;  // one-step kernel: threads per block along x and y

// v+, w+ of node (i, j) from its own v, w and the neighbours' v (those across a side are
// ignored there), as explicit_sheet_node.
__device__ __forceinline__ ExplicitPointUpdate sheet_update(real west, real east, real south,
                                                            real north, real v, real w,
                                                            index_t i, index_t j,
                                                            const SheetParams& q,
                                                            const StimulusTable& st, real t) {
  const real current = st.count > 0 ? stimulus_current(st, i, j, t, 1.0, 0.0) : 0.0;
  ExplicitPointUpdate out =
      explicit_point_update(v, w, sheet_diffusion_of(west, east, south, north, v, i, j, q), current,
                            q.a, q.epsilon, q.gamma, q.k);
  real held = 0.0;
  if (sheet_dirichlet(i, j, q, held)) out.v = held;
  return out;
}

__global__ void __launch_bounds__(kStepX * kStepY)
    sheet_step_kernel(const real* __restrict__ v, const real* __restrict__ w,
                      real* __restrict__ v_next, real* __restrict__ w_next, SheetParams q,
                      StimulusTable st, real t) {
  const index_t i = blockIdx.x * static_cast<index_t>(kStepX) + threadIdx.x;
  const index_t j = blockIdx.y * static_cast<index_t>(kStepY) + threadIdx.y;
  if (i >= q.nx || j >= q.ny) return;
  const index_t c = i + q.nx * j;
  const real centre = __ldg(v + c);
  const real west = i > 0 ? __ldg(v + c - 1) : 0.0;
  const real east = i + 1 < q.nx ? __ldg(v + c + 1) : 0.0;
  const real south = j > 0 ? __ldg(v + c - q.nx) : 0.0;
  const real north = j + 1 < q.ny ? __ldg(v + c + q.nx) : 0.0;
  const ExplicitPointUpdate u = sheet_update(west, east, south, north, centre, __ldg(w + c), i, j, q, st, t);
  v_next[c] = u.v;
  w_next[c] = u.w;
}

// ---- Several steps per pass ---------------------------------------------------------------------
constexpr int kTile = 32;                              // interior written per block, along x and y
constexpr int kRegion = kTile + 2 * kSheetStepsPerPass;  // largest region edge (halo H per side)
constexpr int kBlockedX = 32, kBlockedY = 8;            // threads: a warp per row of the region
constexpr std::size_t kBlockedShared = 3 * kRegion * kRegion * sizeof(real);  // v, v', w

__global__ void __launch_bounds__(kBlockedX * kBlockedY)
    sheet_blocked_kernel(const real* __restrict__ v, const real* __restrict__ w,
                         real* __restrict__ v_next, real* __restrict__ w_next, SheetParams q,
                         StimulusTable st, index_t first_step, int steps) {
  extern __shared__ real shared[];
  real* sv = shared;                         // v of the region, row stride kRegion
  real* sv_next = shared + kRegion * kRegion;
  real* sw = shared + 2 * kRegion * kRegion;
  const int halo = steps, edge = kTile + 2 * halo;  // this pass's region: edge x edge
  const index_t x0 = blockIdx.x * static_cast<index_t>(kTile) - halo;
  const index_t y0 = blockIdx.y * static_cast<index_t>(kTile) - halo;
  const int tx = threadIdx.x, ty = threadIdx.y;
  // 1. Load the region; rows of the region are read by consecutive threads (coalesced).
  for (int ly = ty; ly < edge; ly += kBlockedY) {
    const index_t j = y0 + ly;
    for (int lx = tx; lx < edge; lx += kBlockedX) {
      const index_t i = x0 + lx;
      const bool inside = i >= 0 && j >= 0 && i < q.nx && j < q.ny;
      // Outside the sheet: zeros, read (and ignored) only as the missing neighbour of a side node.
      sv[lx + kRegion * ly] = inside ? __ldg(v + i + q.nx * j) : 0.0;
      sv_next[lx + kRegion * ly] = 0.0;
      sw[lx + kRegion * ly] = inside ? __ldg(w + i + q.nx * j) : 0.0;
    }
  }
  __syncthreads();
  // 2. Step s updates the nodes [s + 1, edge - s - 2]^2 of the region from [s, edge - s - 1]^2.
  //    w+ depends on the node's own v and w only: updated in place; v is double buffered.
  // The region's part inside the sheet: lx in [i_first, i_limit), ly in [j_first, j_limit).
  const int i_limit = q.nx - x0 < edge ? static_cast<int>(q.nx - x0) : edge;
  const int j_limit = q.ny - y0 < edge ? static_cast<int>(q.ny - y0) : edge;
  const int i_first = x0 < 0 ? static_cast<int>(-x0) : 0, j_first = y0 < 0 ? static_cast<int>(-y0) : 0;
  // A region whose updated nodes are all interior nodes of the sheet, without stimuli (most
  // blocks): the branch-free update, explicit_sheet_interior_node's expression.
  const bool interior = st.count == 0 && x0 >= 0 && y0 >= 0 && x0 + edge <= q.nx && y0 + edge <= q.ny;
  for (int s = 0; s < steps; ++s) {
    const real t = static_cast<real>(first_step + s) * q.k;
    const int lo = s + 1, hi = edge - s - 2;  // inclusive
    if (interior) {
      for (int ly = lo + ty; ly <= hi; ly += kBlockedY)
        for (int lx = lo + tx; lx <= hi; lx += kBlockedX) {
          const int c = lx + kRegion * ly;
          const real vc = sv[c];
          const real d = (sv[c - 1] - 2.0 * vc + sv[c + 1]) + (sv[c - kRegion] - 2.0 * vc + sv[c + kRegion]);
          const ExplicitPointUpdate u = explicit_point_update(vc, sw[c], q.r * d, 0.0, q.a, q.epsilon, q.gamma, q.k);
          sv_next[c] = u.v;
          sw[c] = u.w;
        }
      __syncthreads();
      real* swap = sv;
      sv = sv_next;
      sv_next = swap;
      continue;
    }
    for (int ly = max(lo, j_first) + ty; ly <= min(hi, j_limit - 1); ly += kBlockedY) {
      for (int lx = max(lo, i_first) + tx; lx <= min(hi, i_limit - 1); lx += kBlockedX) {
        const int c = lx + kRegion * ly;
        const ExplicitPointUpdate u =
            sheet_update(sv[c - 1], sv[c + 1], sv[c - kRegion], sv[c + kRegion], sv[c], sw[c],
                         x0 + lx, y0 + ly, q, st, t);
        sv_next[c] = u.v;
        sw[c] = u.w;
      }
    }
    __syncthreads();
    real* swap = sv;
    sv = sv_next;
    sv_next = swap;
  }
  // 3. Write the interior [halo, halo + kTile)^2.
  for (int ly = halo + ty; ly < halo + kTile; ly += kBlockedY) {
    const index_t j = y0 + ly;
    for (int lx = halo + tx; lx < halo + kTile; lx += kBlockedX) {
      const index_t i = x0 + lx;
      if (i >= q.nx || j >= q.ny) continue;
      v_next[i + q.nx * j] = sv[lx + kRegion * ly];
      w_next[i + q.nx * j] = sw[lx + kRegion * ly];
    }
  }
}

}  // namespace

void launch_sheet_step(const real* v, const real* w, real* v_next, real* w_next,
                       const SheetParams& q, const StimulusTable& stimuli, index_t step) {
  const dim3 block(kStepX, kStepY);
  const dim3 grid(static_cast<unsigned>((q.nx + kStepX - 1) / kStepX),
                  static_cast<unsigned>((q.ny + kStepY - 1) / kStepY));
  sheet_step_kernel<<<grid, block>>>(v, w, v_next, w_next, q, stimuli, static_cast<real>(step) * q.k);
  FHN_CUDA_CHECK_LAUNCH();
}

void launch_sheet_steps_blocked(const real* v, const real* w, real* v_next, real* w_next,
                                const SheetParams& q, const StimulusTable& stimuli,
                                index_t first_step, int steps) {
  FHN_VERIFY(steps >= 1 && steps <= kSheetStepsPerPass, InternalError,
             "launch_sheet_steps_blocked: steps = " + std::to_string(steps) + ", expected 1.." +
                 std::to_string(kSheetStepsPerPass));
  static const bool configured = [] {
    FHN_CUDA_CHECK(cudaFuncSetAttribute(sheet_blocked_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(kBlockedShared)));
    return true;
  }();
  (void)configured;
  const dim3 grid(static_cast<unsigned>((q.nx + kTile - 1) / kTile),
                  static_cast<unsigned>((q.ny + kTile - 1) / kTile));
  sheet_blocked_kernel<<<grid, dim3(kBlockedX, kBlockedY), kBlockedShared>>>(
      v, w, v_next, w_next, q, stimuli, first_step, steps);
  FHN_CUDA_CHECK_LAUNCH();
}

}  // namespace fhn::cuda
