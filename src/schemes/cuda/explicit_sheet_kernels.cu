// Forward Euler kernels on a sheet: one step per pass at the copy bandwidth, and a temporally
// blocked kernel that advances up to kExplicitSheetMaxSteps steps per pass over memory.
//
// The step, per node (i, j) and step s (t = s dt, k = dt, r = D / h^2, f(v) = v (1 - v)(v - a)):
//   I_ij(t) = 0 + a_1 w_1(t) + a_2 w_2(t) + ...   over the stimuli covering (i, j), in table order
//   v+_ij   = v_ij + k (r [(v_W - 2 v_ij + v_E) + (v_S - 2 v_ij + v_N)] + f(v_ij) - w_ij + I_ij(t))
//   w+_ij   = w_ij + k eps (v_ij - gamma w_ij)
// sides (point_2d.hpp explicit_update): a no-flux side's mirrored ghost node turns its axis's
// difference into 2 (v_inner - v_ij); a Dirichlet side sets v+ to its value (corners: left,
// right, bottom, top first). Interior nodes take explicit_interior_update<2>'s expression, side
// nodes explicit_update's, in both kernels and on the CPU: which kernel or tile computes a node
// never changes its bits.
//
// Cost per node and step: 32 bytes of device memory when every step is a pass (read v, w; write
// v+, w+), about 21 fp64 instructions without FMA contraction (Laplacian: 2 v, 5 add, times r;
// f: 2 add, 2 mul; v+: 4 add, mul; w+: 3 mul, 2 add). At 4096 x 4096 on an H100 (about 2.8 TB/s
// copy, 132 SMs x 64 fp64 lanes x ~1.75 GHz = 15 T instructions/s) one step is 537 MB / 2.8 TB/s
// = 0.19 ms of memory against 21 x 2^24 / 15e12 = 0.023 ms of arithmetic: memory-bound by 8x, so
// only fusing steps (temporal blocking) goes faster; its floor is the arithmetic plus the halo's
// redundant work.
//
// ---- Slabs ----
// The arrays may hold only the global rows [row0, row0 + rows) (a rank's slab and its halo rows),
// and a launch computes the rows [j_begin, j_end). Loads are limited to the rows the arrays hold
// and the sheet has, [max(0, row0), min(N_y, row0 + rows)), zeros beyond (as outside the sheet);
// stores to [j_begin, j_end); every side test uses the global (i, j) and N_y. A stored node after
// s steps depends only on the nodes within s rows of it (one per step), so it is exact when those
// are. The launches for the whole sheet (row0 = 0, rows = N_y, rows [0, N_y)) are those of the
// kernels before slabs, block for block.
//
// ---- One step per pass ----
// Block 32 x 8 threads over 64 x 8 nodes; a thread owns nodes (i0, j), (i0 + 1, j), i0 even, and
// reads them with 16-byte loads (8-byte ones where N_x is odd: rows then start unaligned). v_W and
// v_E come from the neighbouring lanes (shuffles; the warp's outer lanes read memory), v_S and
// v_N are 16-byte loads of the rows below and above: cache hits, as the blocks of one band of 8
// rows run together and the band below was read just before. DRAM traffic: 32 B/node.
//
// ---- Several steps per pass (temporal blocking) ----
// A block of 32 x 8 threads owns a 64 x 64 region of nodes and keeps it in registers: lane l of
// warp y holds columns 2l, 2l + 1 and rows 8y .. 8y + 7 of the region (v and w: 32 doubles). Per
// step the west/east neighbours come from the adjacent lanes (shuffles), the south/north ones from
// the thread's own registers except at its first and last row, which the warps below and above
// publish in shared memory (16 KB, double buffered: one barrier per step). The region's outermost
// nodes lack a neighbour (their own v stands in), so after s steps only the nodes at least s from
// the region's edge are exact: the region is the written interior plus a halo of H = steps,
// rounded up to even (16-byte pairs), per side; the N_x columns and the computed rows (all N_y,
// or a slab's [j_begin, j_end), see "Slabs") are covered by ceil(N / (64 - 2H)) blocks each.
// Sides of the sheet are handled where they fall (nodes outside the sheet are
// zeros and never read by nodes inside); blocks whose region holds no side node skip the side
// tests.
// DRAM traffic per node and step: (16 (64 / (64 - 2H))^2 + 16) / steps bytes (H = 6: 6.7 B);
// arithmetic: (64 / (64 - 2H))^2 times the useful work (H = 6: 1.52x), plus per node 2 64-bit
// shuffles and per thread 4 shared stores and 4 loads per step. The regions away from the sides
// (all but a ring of blocks) run a variant without the side tests: 122 registers, no spills,
// 2 blocks (16 warps) per SM; the side variant (141) and the stimulus variants (148, 174) run one
// block per SM. FMA contraction is off for this file (CMakeLists.txt): with it, the interior
// expression inlined in different kernels rounded differently (blocked != one-step at 203 x 197).
//
// Measured on an H100 at 4096 x 4096 fp64 (`fhn bench`, one run; copy 2.81 TB/s): one step per
// pass 0.192 ms (100% of the copy bandwidth). Blocked, ms per step over steps per pass: 2: 0.120,
// 4: 0.069, 6: 0.063, 8: 0.066, 10: 0.079, 12: 0.081; 6 is the fastest, 3.05x the one-step kernel
// (the model above: memory 6.7 B/node-step = 0.040 ms, arithmetic 1.52 x 0.023 = 0.036 ms; load,
// compute and store phases overlap only in part). With a stimulus on, 0.163 ms per step (the
// stimulus variant, one block per SM): the scheme launches it only for passes in which one is on.
#include "schemes/cuda/explicit_sheet_kernels.cuh"

#include "schemes/cuda/explicit_kernels.cuh"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include "core/cuda/cuda_check.hpp"
#include "core/cuda/launch.hpp"
#include "core/cuda/staged.cuh"
#include "core/error.hpp"
#include "schemes/cuda/activation_record.cuh"

namespace fhn::cuda {
namespace {

// ---- Node updates from values (the point layer, schemes/point/) -------------------------------

// Interior node (0 < i < N_x - 1, 0 < j < N_y - 1), as explicit_interior_update<2>:
// D (L_h v) = r [(v_W - 2 v + v_E) + (v_S - 2 v + v_N)].
template <class K>
__device__ __forceinline__ ExplicitPointUpdate interior_update(real west, real east, real south,
                                                               real north, real v, real w,
                                                               real current, const NodeParams& q,
                                                               const K& kin) {
  const real below[2] = {west, south}, above[2] = {east, north};
  return explicit_interior_update_of<2>(below, v, above, w, current, q, kin);
}

// Any node, as point_2d.hpp's explicit_update: interior nodes as above, side nodes by
// explicit_update_of (neighbours across a side ignored, a Dirichlet side's v held).
template <class K>
__device__ __forceinline__ ExplicitPointUpdate node_update(real west, real east, real south,
                                                           real north, real v, real w,
                                                           real current, index_t i, index_t j,
                                                           const NodeParams& q, const K& kin) {
  if (i > 0 && i < q.n[0] - 1 && j > 0 && j < q.n[1] - 1)
    return interior_update(west, east, south, north, v, w, current, q, kin);
  const real below[2] = {west, south}, above[2] = {east, north};
  const index_t at[kMaxAxes] = {i, j, 0};
  return explicit_update_of<2>(below, v, above, w, current, at, q, kin);
}

// Nodes i0, i0 + 1 (i0 even, >= 0) of the row holding index c = i0 + N_x j: one 16-byte load
// where rows are 16-byte aligned (N_x even) and both are inside, else 8-byte loads; zeros past
// the row's end.
__device__ __forceinline__ double2 load_pair(const real* __restrict__ a, index_t c, index_t i0,
                                             index_t nx, bool pairs) {
  if (pairs && i0 + 1 < nx) return __ldg(reinterpret_cast<const double2*>(a + c));
  return make_double2(i0 < nx ? __ldg(a + c) : 0.0, i0 + 1 < nx ? __ldg(a + c + 1) : 0.0);
}

// The same for stores; nodes past the row's end are not written.
__device__ __forceinline__ void store_pair(real* __restrict__ a, index_t c, index_t i0, index_t nx,
                                           bool pairs, real first, real second) {
  if (pairs && i0 + 1 < nx) {
    *reinterpret_cast<double2*>(a + c) = make_double2(first, second);
    return;
  }
  if (i0 < nx) a[c] = first;
  if (i0 + 1 < nx) a[c + 1] = second;
}

// ---- One step per pass ----------------------------------------------------------------------
constexpr int kStepLanes = 32, kStepRows = 8;  // threads per block along x (2 nodes each) and y

// One step of the nodes (i0, j), (i0 + 1, j) of this thread: i0 from blockIdx.x and the lane,
// j = row0 + threadIdx.y (row0: the first of the block's kStepRows rows), rows from j_end on
// left alone. `frozen`: store the nodes unchanged (a sweep's failed member). `act`: the crossing
// test of each node's old and new v (schemes/point/activation_point.hpp), when recording.
template <class K>
__device__ __forceinline__ void sheet_step(const real* __restrict__ v, const real* __restrict__ w,
                                           real* __restrict__ v_next, real* __restrict__ w_next,
                                           const NodeParams& q, const K& kin,
                                           const StimulusTable& st, real t, index_t row0,
                                           index_t j_end, bool frozen,
                                           const ActivationArrays& act) {
  const index_t nx = q.n[0];
  const index_t i0 = 2 * (blockIdx.x * static_cast<index_t>(kStepLanes) + threadIdx.x);
  const index_t j = row0 + threadIdx.y;
  if (j >= j_end) return;  // a whole warp (one row per warp): the shuffles below see all lanes
  const unsigned lane = threadIdx.x;
  const bool pairs = (nx & 1) == 0;
  const index_t c = sheet_index(i0, j, q);
  const double2 vv = load_pair(v, c, i0, nx, pairs);
  const double2 ww = load_pair(w, c, i0, nx, pairs);
  if (frozen) {
    store_pair(v_next, c, i0, nx, pairs, vv.x, vv.y);
    store_pair(w_next, c, i0, nx, pairs, ww.x, ww.y);
    return;
  }
  // The rows below and above, where the sheet and the arrays have them.
  const bool has_south = j > max(index_t{0}, q.plane0);
  const bool has_north = j + 1 < min(q.n[1], q.plane0 + q.planes);
  const double2 south = has_south ? load_pair(v, c - nx, i0, nx, pairs) : make_double2(0.0, 0.0);
  const double2 north = has_north ? load_pair(v, c + nx, i0, nx, pairs) : make_double2(0.0, 0.0);
  real west = __shfl_up_sync(0xffffffffu, vv.y, 1);
  real east = __shfl_down_sync(0xffffffffu, vv.x, 1);
  if (i0 >= nx) return;
  if (lane == 0) west = i0 > 0 ? __ldg(v + c - 1) : 0.0;
  if (lane == kStepLanes - 1) east = i0 + 2 < nx ? __ldg(v + c + 2) : 0.0;

  const bool stimuli = st.count > 0;
  const real c0 = stimuli ? stimulus_current(st, i0, j, t, 0.0) : 0.0;
  const real c1 = stimuli && i0 + 1 < nx ? stimulus_current(st, i0 + 1, j, t, 0.0) : 0.0;
  const ExplicitPointUpdate u0 =
      node_update(west, vv.y, south.x, north.x, vv.x, ww.x, c0, i0, j, q, kin);
  const ExplicitPointUpdate u1 =
      node_update(vv.x, east, south.y, north.y, vv.y, ww.y, c1, i0 + 1, j, q, kin);
  store_pair(v_next, c, i0, nx, pairs, u0.v, u1.v);
  store_pair(w_next, c, i0, nx, pairs, u0.w, u1.w);
  if (act.on()) {
    record_crossing_in_kernel(act, c, vv.x, u0.v, t, q.k);
    if (i0 + 1 < nx) record_crossing_in_kernel(act, c + 1, vv.y, u1.v, t, q.k);
  }
}

template <class K>
__global__ void __launch_bounds__(kStepLanes * kStepRows)
    sheet_step_kernel(const real* __restrict__ v, const real* __restrict__ w,
                      real* __restrict__ v_next, real* __restrict__ w_next,
                      const __grid_constant__ NodeParams q, const __grid_constant__ K kin,
                      StimulusTable st, real t, index_t j_begin, index_t j_end,
                      ActivationArrays act) {
  sheet_step(v, w, v_next, w_next, q, kin, st, t,
             j_begin + blockIdx.y * static_cast<index_t>(kStepRows), j_end, false, act);
}

// The members of a sweep batch (MemberArrays): blockIdx.z = member - first_member, each block
// moved to its member's arrays, parameters, kinetics and stimuli, and striding over the
// member's rows in bands (the member's parameters staged once per block).
template <class K>
__global__ void __launch_bounds__(kStepLanes * kStepRows)
    sheet_members_step_kernel(const real* __restrict__ v, const real* __restrict__ w,
                              real* __restrict__ v_next, real* __restrict__ w_next,
                              MemberArrays batch, const K* __restrict__ kinetics,
                              StimulusTable st, index_t step, index_t first_member) {
  const index_t m = first_member + blockIdx.z;
  const index_t offset = m * batch.pitch;
  __shared__ Staged<NodeParams> staged_q;
  __shared__ Staged<K> staged_kin;
  const int thread = threadIdx.x + kStepLanes * threadIdx.y;
  staged_q.load(batch.params[m], thread, kStepLanes * kStepRows);
  staged_kin.load(kinetics[m], thread, kStepLanes * kStepRows);
  __syncthreads();
  const NodeParams& q = staged_q.get();
  const K& kin = staged_kin.get();
  st.table += m * st.count;
  const real t = step_time(step, q.k);
  const bool frozen = batch.frozen[m] != 0;
  // The block's bands of kStepRows rows, gridDim.y bands apart.
  for (index_t row0 = blockIdx.y * static_cast<index_t>(kStepRows); row0 < q.n[1];
       row0 += gridDim.y * static_cast<index_t>(kStepRows))
    sheet_step(v + offset, w + offset, v_next + offset, w_next + offset, q, kin, st, t, row0,
               q.n[1], frozen, ActivationArrays{});
}

// ---- Several steps per pass (temporal blocking) ----------------------------------------------
constexpr int kLanes = 32;                  // a warp spans the region's width, 2 columns per lane
constexpr int kWarps = 8;                   // warps stacked along y
constexpr int kRows = 8;                    // rows per thread
constexpr int kRegion = 2 * kLanes;         // region edge, along x and y
constexpr int kBlockedMinBlocks = 2;        // __launch_bounds__ minimum blocks per SM
static_assert(kWarps * kRows == kRegion, "the region is square");

int sheet_halo(int steps) { return (steps + 1) & ~1; }

static_assert(kRegion - 2 * ((kExplicitSheetMaxSteps + 1) & ~1) >= kRegion / 2,
              "the halo of the deepest pass must leave at least half the region's edge");

// The blocks of a pass: block (bx, by) writes the interior of the region whose lower left node is
// (bx (64 - 2H) - H, by (64 - 2H) - H). A launch covers the blocks [bx0, bx0 + grid.x) x
// [by0, by0 + grid.y). kSides: whether the regions may hold side nodes (then each node takes the
// interior or the side expression; else the interior one everywhere, with fewer registers).
// The pass of block (bx, by); sheet_blocked_kernel and, for a sweep's members,
// sheet_members_blocked_kernel call it. kRecord: each step's crossing test at the nodes the block
// writes (`act`, schemes/point/activation_point.hpp), which no other block writes.
template <bool kStimuli, bool kSides, bool kRecord, class K>
__device__ __forceinline__ void sheet_blocked_pass(
    const real* __restrict__ v, const real* __restrict__ w, real* __restrict__ v_next,
    real* __restrict__ w_next, const NodeParams& q, const K& kin, const StimulusTable& st,
    index_t first_step, int steps, int halo, index_t bx, index_t by, index_t j_begin,
    index_t j_end, const ActivationArrays& act) {
  __shared__ real edges[2][2][kWarps][kRegion];  // [buffer][first, last row][warp][column]
  const int lane = threadIdx.x, warp = threadIdx.y;
  const index_t nx = q.n[0];
  const int interior = kRegion - 2 * halo;
  const index_t x0 = bx * interior - halo;  // even
  const index_t y0 = j_begin + by * interior - halo;
  const index_t i0 = x0 + 2 * lane;    // this thread's columns i0, i0 + 1 (i0 even)
  const index_t j0 = y0 + kRows * warp;  // and rows j0 .. j0 + kRows - 1
  const bool pairs = (nx & 1) == 0;

  // 1. Load the region (zeros outside the sheet and the arrays' rows; i0 even, so i0 < 0 puts
  //    both columns outside).
  const index_t j_low = max(index_t{0}, q.plane0), j_high = min(q.n[1], q.plane0 + q.planes);
  real vr[kRows][2], wr[kRows][2];
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    const index_t j = j0 + r;
    double2 a = make_double2(0.0, 0.0), b = make_double2(0.0, 0.0);
    if (j >= j_low && j < j_high && i0 >= 0 && i0 < nx) {
      a = load_pair(v, sheet_index(i0, j, q), i0, nx, pairs);
      b = load_pair(w, sheet_index(i0, j, q), i0, nx, pairs);
    }
    vr[r][0] = a.x;
    vr[r][1] = a.y;
    wr[r][0] = b.x;
    wr[r][1] = b.y;
  }

  // Fixed for the pass: whether a stimulus covers one of this thread's nodes.
  bool stimulated = false;
  if (kStimuli)
    for (int m = 0; m < st.count; ++m) {
      const NodeStimulus& s = st.table[m];
      stimulated |= s.first <= i0 + 1 && s.last >= i0 && s.first_y <= j0 + (kRows - 1) &&
                    s.last_y >= j0;
    }

  // Whether this thread's columns are written (the region's interior, inside the sheet; halo
  // even: a thread's column pair is wholly in or out).
  const bool written_columns = 2 * lane >= halo && 2 * lane < kRegion - halo && i0 < nx;

  // 2. The steps: v+ of row r from the old v of rows r - 1, r, r + 1 (below[] carries row r - 1's).
  for (int s = 0; s < steps; ++s) {
    const int b = s & 1;
    edges[b][0][warp][2 * lane] = vr[0][0];
    edges[b][0][warp][2 * lane + 1] = vr[0][1];
    edges[b][1][warp][2 * lane] = vr[kRows - 1][0];
    edges[b][1][warp][2 * lane + 1] = vr[kRows - 1][1];
    __syncthreads();
    real below[2], north[2];
#pragma unroll
    for (int col = 0; col < 2; ++col) {
      below[col] = warp > 0 ? edges[b][1][warp - 1][2 * lane + col] : vr[0][col];
      north[col] = warp < kWarps - 1 ? edges[b][0][warp + 1][2 * lane + col] : vr[kRows - 1][col];
    }
    const real t = step_time(first_step + s, q.k);
#pragma unroll
    for (int r = 0; r < kRows; ++r) {
      real west = __shfl_up_sync(0xffffffffu, vr[r][1], 1);
      real east = __shfl_down_sync(0xffffffffu, vr[r][0], 1);
      if (lane == 0) west = vr[r][0];  // the region's edge: any finite value will do
      if (lane == kLanes - 1) east = vr[r][1];
      const real above0 = r + 1 < kRows ? vr[r + 1][0] : north[0];
      const real above1 = r + 1 < kRows ? vr[r + 1][1] : north[1];
      const index_t j = j0 + r;
      real c0 = 0.0, c1 = 0.0;
      if (kStimuli && stimulated) {
        c0 = stimulus_current(st, i0, j, t, 0.0);
        c1 = stimulus_current(st, i0 + 1, j, t, 0.0);
      }
      ExplicitPointUpdate u0, u1;
      if (kSides) {
        u0 = node_update(west, vr[r][1], below[0], above0, vr[r][0], wr[r][0], c0, i0, j, q, kin);
        u1 = node_update(vr[r][0], east, below[1], above1, vr[r][1], wr[r][1], c1, i0 + 1, j, q,
                         kin);
      } else {
        u0 = interior_update(west, vr[r][1], below[0], above0, vr[r][0], wr[r][0], c0, q, kin);
        u1 = interior_update(vr[r][0], east, below[1], above1, vr[r][1], wr[r][1], c1, q, kin);
      }
      if (kRecord && written_columns && kRows * warp + r >= halo &&
          kRows * warp + r < kRegion - halo && j < j_end) {
        const index_t c = sheet_index(i0, j, q);
        record_crossing_in_kernel(act, c, vr[r][0], u0.v, t, q.k);
        if (i0 + 1 < nx) record_crossing_in_kernel(act, c + 1, vr[r][1], u1.v, t, q.k);
      }
      below[0] = vr[r][0];
      below[1] = vr[r][1];
      vr[r][0] = u0.v;
      vr[r][1] = u1.v;
      wr[r][0] = u0.w;
      wr[r][1] = u1.w;
    }
  }

  // 3. Store the interior: region rows and columns [halo, kRegion - halo) inside the sheet and
  //    below j_end (halo even: a thread's column pair is wholly in or out).
  if (!written_columns) return;
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    const int local = kRows * warp + r;
    const index_t j = j0 + r;
    if (local < halo || local >= kRegion - halo || j >= j_end) continue;
    store_pair(v_next, sheet_index(i0, j, q), i0, nx, pairs, vr[r][0], vr[r][1]);
    store_pair(w_next, sheet_index(i0, j, q), i0, nx, pairs, wr[r][0], wr[r][1]);
  }
}

template <bool kStimuli, bool kSides, bool kRecord, class K>
__global__ void __launch_bounds__(kLanes * kWarps, kSides || kStimuli ? 1 : kBlockedMinBlocks)
    sheet_blocked_kernel(const real* __restrict__ v, const real* __restrict__ w,
                         real* __restrict__ v_next, real* __restrict__ w_next,
                         const __grid_constant__ NodeParams q, const __grid_constant__ K kin,
                         StimulusTable st,
                         index_t first_step, int steps, int halo, index_t bx0, index_t by0,
                         index_t j_begin, index_t j_end, ActivationArrays act) {
  sheet_blocked_pass<kStimuli, kSides, kRecord>(v, w, v_next, w_next, q, kin, st, first_step,
                                                steps, halo, bx0 + blockIdx.x, by0 + blockIdx.y,
                                                j_begin, j_end, act);
}

// The members of a sweep batch (MemberArrays): blockIdx.z = member - first_member, each block
// moved to its member's arrays, parameters, kinetics and stimuli; a frozen member's pass loads
// and stores its nodes unchanged (no step). The side variant too is compiled for two blocks per
// SM (a register cap of 128, some spilled): a small member's regions mostly hold a side, and at
// one block per SM (154 registers) the four side launches of a pass took 78% of its time at 12%
// of the warps (ncu, 1024 x 256^2, H200); with two, 0.414 ms a step against 0.633.
template <bool kStimuli, bool kSides, class K>
__global__ void __launch_bounds__(kLanes * kWarps, kStimuli ? 1 : kBlockedMinBlocks)
    sheet_members_blocked_kernel(const real* __restrict__ v, const real* __restrict__ w,
                                 real* __restrict__ v_next, real* __restrict__ w_next,
                                 MemberArrays batch, const K* __restrict__ kinetics,
                                 StimulusTable st, index_t first_step, int steps, int halo,
                                 index_t bx0, index_t by0, index_t first_member) {
  const index_t m = first_member + blockIdx.z;
  const index_t offset = m * batch.pitch;
  // Copies in registers (measured faster here than shared loads in the steps' inner loop:
  // 0.637 against 0.723 ms per step at 1024 x 256^2, H200).
  const NodeParams q = batch.params[m];
  const K kin = kinetics[m];
  st.table += m * st.count;
  sheet_blocked_pass<kStimuli, kSides, false>(
      v + offset, w + offset, v_next + offset, w_next + offset, q, kin, st, first_step,
      batch.frozen[m] ? 0 : steps, halo, bx0 + blockIdx.x, by0 + blockIdx.y, 0, q.n[1],
      ActivationArrays{});
}

// ---- Host side --------------------------------------------------------------------------------

void check_arguments(const real* v, const real* w, const real* v_next, const real* w_next,
                     const NodeParams& q, const StimulusTable& stimuli, index_t j_begin,
                     index_t j_end) {
  FHN_VERIFY(q.n[0] >= 3 && q.n[1] >= 3, InternalError,
             "sheet kernels need at least 3 x 3 nodes, got " + std::to_string(q.n[0]) + " x " +
                 std::to_string(q.n[1]));
  FHN_VERIFY(0 <= j_begin && j_begin < j_end && j_end <= q.n[1] && q.plane0 <= j_begin &&
                 j_end <= q.plane0 + q.planes,
             InternalError,
             "sheet kernels: rows [" + std::to_string(j_begin) + ", " + std::to_string(j_end) +
                 ") are not inside the sheet's " + std::to_string(q.n[1]) +
                 " rows and the arrays' [" + std::to_string(q.plane0) + ", " +
                 std::to_string(q.plane0 + q.planes) + ")");
  verify_explicit_arrays("sheet kernels", v, w, v_next, w_next, q.n[0] * q.planes, 3, stimuli);
}

void check_steps(int steps) {
  FHN_VERIFY(steps >= 1 && steps <= kExplicitSheetMaxSteps, InternalError,
             "blocked sheet kernel: steps must be 1.." + std::to_string(kExplicitSheetMaxSteps) +
                 ", got " + std::to_string(steps));
}

// The blocks of a blocked pass over the rows [j_begin, j_end) of the sheet `q`, as rectangles
// launch(sides, bx0, by0, grid): `sides` std::true_type where the regions may hold side nodes
// (the side kernel), std::false_type for the inner blocks; in the order inner, bottom, top,
// left, right.
// Blocks [1, ex) x [by_inner, ey) hold no side node, the rest (a ring of blocks) takes the side
// kernel. Along x, block bx's region starts at x0 = bx (64 - 2H) - H: x0 >= 1 for bx >= 1, and
// x0 + 64 <= N_x - 1 for (bx + 1) (64 - 2H) + H <= N_x - 1. Along y it starts at
// y0 = j_begin + by (64 - 2H) - H: y0 >= 1 for by >= ceil((1 + H - j_begin) / (64 - 2H)) (1 for
// the whole sheet, j_begin = 0), and y0 + 64 <= N_y - 1 for
// by + 1 <= (N_y - 1 - H - j_begin) / (64 - 2H).
template <class Launch>
void for_block_rings(const NodeParams& q, int halo, index_t j_begin, index_t j_end,
                     Launch&& launch) {
  const index_t interior = kRegion - 2 * halo;
  const index_t nbx = (q.n[0] + interior - 1) / interior;
  const index_t nby = (j_end - j_begin + interior - 1) / interior;
  const index_t ex = (q.n[0] - 1 - halo) / interior;
  const index_t by_inner = std::max<index_t>(0, (1 + halo - j_begin + interior - 1) / interior);
  const index_t ey = std::min(nby, (q.n[1] - 1 - halo - j_begin) / interior);
  auto rectangle = [&](auto sides, index_t bx0, index_t bx1, index_t by0, index_t by1) {
    if (bx1 <= bx0 || by1 <= by0) return;
    launch(sides, bx0, by0,
           dim3(static_cast<unsigned>(bx1 - bx0), static_cast<unsigned>(by1 - by0)));
  };
  if (ex <= 1 || ey <= by_inner) {
    rectangle(std::true_type{}, 0, nbx, 0, nby);
    return;
  }
  rectangle(std::false_type{}, 1, ex, by_inner, ey);
  rectangle(std::true_type{}, 0, nbx, 0, by_inner);    // bottom
  rectangle(std::true_type{}, 0, nbx, ey, nby);        // top
  rectangle(std::true_type{}, 0, 1, by_inner, ey);     // left
  rectangle(std::true_type{}, ex, nbx, by_inner, ey);  // right
}

}  // namespace

void launch_explicit_sheet_step(const real* v, const real* w, real* v_next, real* w_next,
                                const NodeParams& q, const Kinetics& kinetics,
                                const StimulusTable& stimuli, index_t step, index_t j_begin,
                                index_t j_end, cudaStream_t stream,
                                const ActivationArrays& activation) {
  check_arguments(v, w, v_next, w_next, q, stimuli, j_begin, j_end);
  const dim3 block(kStepLanes, kStepRows);
  const dim3 grid(static_cast<unsigned>((q.n[0] + 2 * kStepLanes - 1) / (2 * kStepLanes)),
                  static_cast<unsigned>((j_end - j_begin + kStepRows - 1) / kStepRows));
  const real t = step_time(step, q.k);
  with_kinetics(kinetics, [&](const auto& kin) {
    sheet_step_kernel<<<grid, block, 0, stream>>>(v, w, v_next, w_next, q, kin, stimuli, t,
                                                  j_begin, j_end, activation);
  });
  FHN_CUDA_CHECK_LAUNCH();
}

void launch_explicit_sheet_steps_blocked(const real* v, const real* w, real* v_next, real* w_next,
                                         const NodeParams& q, const Kinetics& kinetics,
                                         const StimulusTable& stimuli, index_t first_step,
                                         int steps, index_t j_begin, index_t j_end,
                                         cudaStream_t stream, const ActivationArrays& activation) {
  check_steps(steps);
  check_arguments(v, w, v_next, w_next, q, stimuli, j_begin, j_end);
  const int halo = sheet_halo(steps);
  // Without stimuli the stimulus code is compiled out, and so is the crossing test without
  // recording.
  with_kinetics(kinetics, [&](const auto& kin) {
    using K = std::decay_t<decltype(kin)>;
    for_block_rings(q, halo, j_begin, j_end, [&](auto sides, index_t bx0, index_t by0, dim3 grid) {
      constexpr bool kSides = decltype(sides)::value;
      const auto kernel =
          activation.on()
              ? (stimuli.count > 0 ? sheet_blocked_kernel<true, kSides, true, K>
                                   : sheet_blocked_kernel<false, kSides, true, K>)
              : (stimuli.count > 0 ? sheet_blocked_kernel<true, kSides, false, K>
                                   : sheet_blocked_kernel<false, kSides, false, K>);
      kernel<<<grid, dim3(kLanes, kWarps), 0, stream>>>(v, w, v_next, w_next, q, kin, stimuli,
                                                        first_step, steps, halo, bx0, by0,
                                                        j_begin, j_end, activation);
      FHN_CUDA_CHECK_LAUNCH();
    });
  });
}

// ---- The members of a sweep batch -----------------------------------------------------------

namespace {

// The checks of a members launch (`shape`: the members' common grid).
void check_members(const real* v, const real* w, const real* v_next, const real* w_next,
                   const NodeParams& shape, const MemberArrays& members,
                   const StimulusTable& stimuli) {
  const index_t n = shape.n[0] * shape.n[1];
  FHN_VERIFY(shape.n[0] >= 3 && shape.n[1] >= 3 && shape.plane0 == 0 &&
                 shape.planes == shape.n[1] && members.pitch >= n && members.pitch % 2 == 0 &&
                 members.members >= 1 && members.params != nullptr &&
                 members.kinetics != nullptr && members.frozen != nullptr,
             InternalError,
             "batched sheet kernels need whole sheets of at least 3 x 3 nodes, an even pitch >= "
             "the nodes, members and their parameters; got " + std::to_string(shape.n[0]) +
                 " x " + std::to_string(shape.n[1]) + ", pitch " + std::to_string(members.pitch) +
                 ", " + std::to_string(members.members) + " members");
  verify_explicit_arrays("batched sheet kernels", v, w, v_next, w_next,
                         members.members * members.pitch, 3, stimuli);
}

}  // namespace

void launch_explicit_sheet_members_step(const real* v, const real* w, real* v_next, real* w_next,
                                        const NodeParams& shape, const MemberArrays& members,
                                        const Kinetics& form, const StimulusTable& stimuli,
                                        index_t step) {
  check_members(v, w, v_next, w_next, shape, members, stimuli);
  const dim3 block(kStepLanes, kStepRows);
  with_kinetics(form, [&](const auto& kin) {
    using K = std::decay_t<decltype(kin)>;
    for_grid_z_chunks(members.members, [&](index_t first, unsigned count) {
      // Bands of at most kMemberBands blocks along y, each striding over the rows.
      constexpr index_t kMemberBands = 4;
      const dim3 grid(static_cast<unsigned>((shape.n[0] + 2 * kStepLanes - 1) / (2 * kStepLanes)),
                      static_cast<unsigned>(std::min<index_t>(kMemberBands, (shape.n[1] + kStepRows - 1) / kStepRows)),
                      count);
      sheet_members_step_kernel<K><<<grid, block>>>(v, w, v_next, w_next, members,
                                                    static_cast<const K*>(members.kinetics),
                                                    stimuli, step, first);
      FHN_CUDA_CHECK_LAUNCH();
    });
  });
}

void launch_explicit_sheet_members_blocked(const real* v, const real* w, real* v_next,
                                           real* w_next, const NodeParams& shape,
                                           const MemberArrays& members, const Kinetics& form,
                                           const StimulusTable& stimuli, index_t first_step,
                                           int steps) {
  check_steps(steps);
  check_members(v, w, v_next, w_next, shape, members, stimuli);
  const int halo = sheet_halo(steps);
  with_kinetics(form, [&](const auto& kin) {
    using K = std::decay_t<decltype(kin)>;
    const K* kinetics = static_cast<const K*>(members.kinetics);
    for_grid_z_chunks(members.members, [&](index_t first, unsigned count) {
      for_block_rings(shape, halo, 0, shape.n[1],
                      [&](auto sides, index_t bx0, index_t by0, dim3 grid) {
                        constexpr bool kSides = decltype(sides)::value;
                        const auto kernel = stimuli.count > 0
                                                ? sheet_members_blocked_kernel<true, kSides, K>
                                                : sheet_members_blocked_kernel<false, kSides, K>;
                        grid.z = count;
                        kernel<<<grid, dim3(kLanes, kWarps)>>>(v, w, v_next, w_next, members,
                                                               kinetics, stimuli, first_step,
                                                               steps, halo, bx0, by0, first);
                        FHN_CUDA_CHECK_LAUNCH();
                      });
    });
  });
}

}  // namespace fhn::cuda
