// Forward Euler kernels: one step per pass at the copy bandwidth, and a temporally blocked
// kernel that advances up to kStepsPerPass steps per pass over memory.
//
// The step, per node i and step s (t = s dt, k = dt, r = D / h^2, f(v) = v (1 - v)(v - a)):
//   I_i(t) = 0 + a_1 w_1(t) + a_2 w_2(t) + ...   over the stimuli covering i, in table order
//   v+_i   = v_i + k (r (v_{i-1} - 2 v_i + v_{i+1}) + f(v_i) - w_i + I_i(t))
//   w+_i   = w_i + k eps (v_i - gamma w_i)
// ends (point_1d.hpp explicit_update): no-flux order 2 uses the ghost node,
// r (v_{i-1} - 2 v_i + v_{i+1}) -> 2 r (v_inner - v_end); order 1 then sets v+_end = v+_inner; a
// Dirichlet end sets v+_end = value.
//
// Cost per node and step: 32 bytes of device memory when every step is a pass (read v, w; write
// v+, w+), 14 fp64 instructions (diffusion: fma, add, mul; f: add, add, mul, mul; v+: add, add,
// add, fma; w+: fma, mul, fma). At n = 2^24 on an H100 (about 3.0 TB/s copy, 132 SMs x 64 fp64
// lanes x ~1.9 GHz = 16 T instructions/s) one step is 537 MB / 3.0 TB/s = 0.18 ms of memory
// against 14 x 2^24 / 16e12 = 0.015 ms of arithmetic: the one-step kernel is memory-bound by
// 12x, and only fusing S steps per pass (32/S bytes per node-step) moves it towards the
// arithmetic floor. With S = 16 memory and arithmetic are about equal (0.011 vs 0.015 ms/step).
#include "schemes/cuda/explicit_kernels.cuh"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "core/cuda/cuda_check.hpp"
#include "core/error.hpp"

namespace fhn::cuda {
namespace {

// ---- Node updates from values (the point layer, schemes/point/) -------------------------------

// I_i(t) of a forward Euler step: the value at t (span 0), as StimulusSchedule::currents(t, 0).
__device__ __forceinline__ real step_current(const StimulusTable& st, index_t i, real t) {
  return fhn::stimulus_current(st, i, t, 0.0);
}

// I(t) at the kNodes nodes g0, g0+1, ... (cur[] holds zeros on entry): each stimulus's weight
// is evaluated once for the thread's nodes, then added in table order to the nodes it covers,
// times each node's fraction (stimulus_current's terms).
template <int kNodes>
__device__ __forceinline__ void add_stimulus_currents(const StimulusTable& st, index_t g0, real t,
                                                      real (&cur)[kNodes]) {
  for (int j = 0; j < st.count; ++j) {
    const NodeStimulus& s = st.table[j];
    if (s.last < g0 || s.first > g0 + (kNodes - 1)) continue;
    const real term = stimulus_term(st, s, t, 0.0);
#pragma unroll
    for (int p = 0; p < kNodes; ++p)
      if (g0 + p >= s.first && g0 + p <= s.last) cur[p] += term * s.fraction(g0 + p, 0);
  }
}

// Interior node from values: explicit_interior_update<1> without the arrays.
template <class K>
__device__ __forceinline__ ExplicitPointUpdate interior_update(real left, real v, real right,
                                                               real w, real current,
                                                               const NodeParams& q, const K& kin) {
  const real below[1] = {left}, above[1] = {right};
  return explicit_interior_update_of<1>(below, v, above, w, current, q, kin);
}

// End node i (0 or n-1) from values, as point_1d.hpp's explicit_update: the ghost-node update, a
// Dirichlet end's v replaced by its value. A first-order no-flux end (replaced_row 2) also needs
// its neighbour's new v, which the caller puts in (v+_0 = v+_1, v+_{n-1} = v+_{n-2}).
template <class K>
__device__ __forceinline__ ExplicitPointUpdate end_update(real v, real w, real inner, real current,
                                                          index_t i, const NodeParams& q,
                                                          const K& kin) {
  const real neighbour[1] = {inner};
  const index_t at[kMaxAxes] = {i, 0, 0};
  return explicit_update_of<1>(neighbour, v, neighbour, w, current, at, q, kin);
}

// ---- One step per pass ----------------------------------------------------------------------
// One thread per pair of nodes (i0, i0 + 1), i0 = 2 x thread: 16-byte read-only loads of v and w,
// 16-byte stores; the neighbours v_{i0-1}, v_{i0+2} come from the adjacent lanes (shuffles), from
// memory (cache hits) at the warp's edges. 32 bytes of DRAM traffic per node.
constexpr int kStepThreads = 256;

template <class K>
__global__ void __launch_bounds__(kStepThreads)
    explicit_step_kernel(const real* __restrict__ v, const real* __restrict__ w,
                         real* __restrict__ v_next, real* __restrict__ w_next, NodeParams q,
                         K kin, StimulusTable st, real t) {
  const index_t n = q.n[0];
  const index_t i0 = 2 * (blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x);
  const unsigned lane = threadIdx.x & 31u;
  double2 vv = make_double2(0.0, 0.0), ww = make_double2(0.0, 0.0);
  if (i0 + 1 < n) {
    vv = __ldg(reinterpret_cast<const double2*>(v + i0));
    ww = __ldg(reinterpret_cast<const double2*>(w + i0));
  } else if (i0 < n) {
    vv.x = __ldg(v + i0);
    ww.x = __ldg(w + i0);
  }
  // Every lane takes part in the shuffles, also those past the end.
  real left = __shfl_up_sync(0xffffffffu, vv.y, 1);
  real right = __shfl_down_sync(0xffffffffu, vv.x, 1);
  if (i0 >= n) return;
  if (lane == 0 && i0 > 0) left = __ldg(v + i0 - 1);
  if (lane == 31 && i0 + 2 < n) right = __ldg(v + i0 + 2);

  const real c0 = step_current(st, i0, t), c1 = step_current(st, i0 + 1, t);
  ExplicitPointUpdate u0 = interior_update(left, vv.x, vv.y, ww.x, c0, q, kin);
  ExplicitPointUpdate u1 = interior_update(vv.x, vv.y, right, ww.y, c1, q, kin);
  if (i0 == 0 || i0 + 2 >= n) {  // an end among this thread's nodes (n >= 3: never both)
    if (i0 == 0) {
      u0 = end_update(vv.x, ww.x, vv.y, c0, 0, q, kin);
      if (replaced_row(0, q) == 2) u0.v = u1.v;  // node 1 is interior and ours
    } else if (i0 + 1 == n - 1) {
      u1 = end_update(vv.y, ww.y, vv.x, c1, n - 1, q, kin);
      if (replaced_row(n - 1, q) == 2) u1.v = u0.v;  // node n-2 is interior and ours
    } else {  // i0 == n - 1: node n-2 belongs to the previous thread; compute its v+ here too
      u0 = end_update(vv.x, ww.x, left, c0, n - 1, q, kin);
      if (replaced_row(n - 1, q) == 2)
        u0.v = interior_update(__ldg(v + n - 3), left, vv.x, __ldg(w + n - 2),
                               step_current(st, n - 2, t), q, kin)
                   .v;
    }
  }
  if (i0 + 1 < n) {
    *reinterpret_cast<double2*>(v_next + i0) = make_double2(u0.v, u1.v);
    *reinterpret_cast<double2*>(w_next + i0) = make_double2(u0.w, u1.w);
  } else {
    v_next[i0] = u0.v;
    w_next[i0] = u0.w;
  }
}

// ---- Several steps per pass (temporal blocking) ----------------------------------------------
// A block owns a region of kTile = kThreads x kNodes nodes, [base, base + kTile): an interior of
// kTile - 2 H nodes that it writes, plus a halo of H nodes on each side. Thread t keeps nodes
// base + t kNodes + (0..kNodes-1) in registers (v and w); each step it exchanges only its first
// and last v with its neighbours through shared memory (double buffered: one barrier per step).
// The region's outermost nodes lack a neighbour, so after s steps only [base + s, base + kTile
// - s) is exact: a node depends on nodes up to `steps` away. Except a first-order no-flux right
// end: v+_{n-1} = v+_{n-2} reaches one node further (steps + 1), which matters when n-1 is the
// first node of a block's interior. Hence H = steps + 1, rounded up to even (16-byte pairs).
// The domain's ends are handled where they fall (also inside another block's halo): node 0 and
// n-1 take the end rows, nodes outside [0, n) are never read by nodes inside.
// DRAM traffic per node and step: 32 (kTile / (kTile - 2 H)) / steps bytes; shared memory:
// 32 bytes per thread and step; arithmetic as the one-step kernel plus 2H/kTile of redundant
// halo nodes.
//
// Measured on an H100 at n = 2^24 (threads x nodes per thread; ms per step; the one-step kernel
// takes 0.184 ms): at 16 steps per pass 128 x 4 0.0220-0.0227, 64 x 8 0.0217, 128 x 8 0.0219
// (equal within the run-to-run spread), 256 x 4 0.033, 128 x 16 0.026, 128 x 2 0.026; 128 x 4 over
// steps per pass: 1: 0.205, 4: 0.049, 8: 0.030, 12: 0.025, 16: 0.023, 24: 0.022, 32: 0.022.
// 128 x 4 has the fewest registers (84, 96 with stimuli; no spills) and is best at short passes.
// The arithmetic floor is 0.014 ms per step (14 x 2^24 fp64 instructions at 16 T/s), the memory
// floor 0.184 / 16 = 0.012 ms: each block alternates a load phase, 16 arithmetic steps and a
// store phase, and other blocks overlap them only in part.
constexpr int kBlockedThreads = 128;
constexpr int kBlockedNodes = 4;  // per thread; even (16-byte pairs), a pair never straddles 0
constexpr int kBlockedMinBlocks = 1;  // __launch_bounds__ minimum blocks per SM (higher: spills)

int blocked_halo(int steps) { return (steps + 2) & ~1; }

//
// kMembers: the members of a sweep batch, blockIdx.y = member - first_member (MemberArrays);
// each block first moves its arrays, parameters and stimulus table to its member's (`kinetics`:
// the members' forms, one K each). Without it the code is the single cable's, unchanged.
template <int kThreads, int kNodes, int kMinBlocks, bool kStimuli, bool kMembers, class K>
__global__ void __launch_bounds__(kThreads, kMinBlocks)
    explicit_blocked_kernel(const real* __restrict__ v, const real* __restrict__ w,
                            real* __restrict__ v_next, real* __restrict__ w_next, NodeParams q,
                            K kin, StimulusTable st, index_t first_step, int steps, int halo,
                            MemberArrays batch, const K* kinetics, index_t first_member) {
  static_assert(kNodes >= 2 && kNodes % 2 == 0, "nodes per thread come in 16-byte pairs");
  constexpr int kTile = kThreads * kNodes;
  __shared__ real first_v[2][kThreads], last_v[2][kThreads];
  __shared__ real copied[2];  // first-order no-flux ends: v+_1 and v+_{n-2}

  if constexpr (kMembers) {
    const index_t m = first_member + blockIdx.y;
    const index_t offset = m * batch.pitch;
    v += offset;
    w += offset;
    v_next += offset;
    w_next += offset;
    q = batch.params[m];
    kin = kinetics[m];
    st.table += m * st.count;
    if (batch.frozen[m]) steps = 0;  // a frozen member: load and store, nothing else
  }

  const index_t n = q.n[0];
  const int tid = threadIdx.x;
  const index_t base = blockIdx.x * static_cast<index_t>(kTile - 2 * halo) - halo;  // even
  const index_t g0 = base + static_cast<index_t>(tid) * kNodes;                    // even

  // Load: 16-byte pairs (g0 even, and 0 even: a pair is all in or all out at the left end),
  // zeros outside [0, n).
  real vr[kNodes], wr[kNodes];
  if (g0 >= 0 && g0 + kNodes <= n) {
#pragma unroll
    for (int p = 0; p < kNodes; p += 2) {
      const double2 va = __ldg(reinterpret_cast<const double2*>(v + g0 + p));
      const double2 wa = __ldg(reinterpret_cast<const double2*>(w + g0 + p));
      vr[p] = va.x;
      vr[p + 1] = va.y;
      wr[p] = wa.x;
      wr[p + 1] = wa.y;
    }
  } else {
#pragma unroll
    for (int p = 0; p < kNodes; ++p) {
      const index_t i = g0 + p;
      const bool inside = i >= 0 && i < n;
      vr[p] = inside ? __ldg(v + i) : 0.0;
      wr[p] = inside ? __ldg(w + i) : 0.0;
    }
  }

  // What this thread and block hold, fixed for the pass: the slots of the domain's ends and of
  // their neighbours in this thread (-1: not here), whether a first-order no-flux end lies in
  // this block's region (block-uniform), whether a stimulus covers one of this thread's nodes.
  auto slot_of = [&](index_t i) {
    return i >= g0 && i < g0 + kNodes ? static_cast<int>(i - g0) : -1;
  };
  const int end_slot[2] = {slot_of(0), slot_of(n - 1)};
  const int inner_slot[2] = {slot_of(1), slot_of(n - 2)};
  const bool copy_end[2] = {replaced_row(0, q) == 2 && base <= 0,
                            replaced_row(n - 1, q) == 2 && n - 1 < base + kTile};
  const bool has_end = end_slot[0] >= 0 || end_slot[1] >= 0;
  bool stimulated = false;
  if (kStimuli)
    for (int j = 0; j < st.count; ++j)
      stimulated |= !(st.table[j].last < g0 || st.table[j].first > g0 + (kNodes - 1));

  for (int s = 0; s < steps; ++s) {
    const int b = s & 1;
    first_v[b][tid] = vr[0];
    last_v[b][tid] = vr[kNodes - 1];
    __syncthreads();
    // The region's outer neighbours are unknown: any finite value will do (see above).
    const real left = tid > 0 ? last_v[b][tid - 1] : vr[0];
    const real right = tid < kThreads - 1 ? first_v[b][tid + 1] : vr[kNodes - 1];

    real cur[kNodes];
#pragma unroll
    for (int p = 0; p < kNodes; ++p) cur[p] = 0.0;
    const real t = step_time(first_step + s, st.dt);
    if (kStimuli && stimulated) add_stimulus_currents<kNodes>(st, g0, t, cur);

    // End rows first, from the old values (gathered by selects on compile-time slots, which
    // keeps the arrays in registers): one end_update per end this thread holds.
    ExplicitPointUpdate end_row[2] = {{0.0, 0.0}, {0.0, 0.0}};
    if (has_end) {
#pragma unroll
      for (int e = 0; e < 2; ++e) {
        const int slot = end_slot[e];
        const int inner = e == 0 ? slot + 1 : slot - 1;  // kNodes or -1: the neighbour's node
        real ve = 0.0, we = 0.0, ce = 0.0, vi = inner < 0 ? left : right;
#pragma unroll
        for (int p = 0; p < kNodes; ++p) {
          if (p == slot) {
            ve = vr[p];
            we = wr[p];
            ce = cur[p];
          }
          if (p == inner) vi = vr[p];
        }
        if (slot >= 0) end_row[e] = end_update(ve, we, vi, ce, e == 0 ? 0 : n - 1, q, kin);
      }
    }
    // Every node as an interior one, in place (old_left carries the old v of node p - 1).
    real old_left = left;
#pragma unroll
    for (int p = 0; p < kNodes; ++p) {
      const real old_v = vr[p];
      const ExplicitPointUpdate u =
          interior_update(old_left, old_v, p == kNodes - 1 ? right : vr[p + 1], wr[p], cur[p], q,
                          kin);
      old_left = old_v;
      vr[p] = u.v;
      wr[p] = u.w;
    }
    if (has_end) {
#pragma unroll
      for (int p = 0; p < kNodes; ++p)
#pragma unroll
        for (int e = 0; e < 2; ++e)
          if (p == end_slot[e]) {
            vr[p] = end_row[e].v;
            wr[p] = end_row[e].w;
          }
    }

    // First-order no-flux: v+_0 = v+_1, v+_{n-1} = v+_{n-2}; the neighbour may be another
    // thread's, so it goes through shared memory (only in blocks that hold such an end).
    if (copy_end[0] || copy_end[1]) {
#pragma unroll
      for (int p = 0; p < kNodes; ++p)
        for (int e = 0; e < 2; ++e)
          if (copy_end[e] && p == inner_slot[e]) copied[e] = vr[p];
      __syncthreads();
#pragma unroll
      for (int p = 0; p < kNodes; ++p)
        for (int e = 0; e < 2; ++e)
          if (copy_end[e] && p == end_slot[e]) vr[p] = copied[e];
    }
  }

  // Store the interior [lo, hi): 16-byte pairs (lo even), a single node where n is odd.
  const index_t lo = base + halo > 0 ? base + halo : 0;
  const index_t hi = base + kTile - halo < n ? base + kTile - halo : n;
  if (g0 >= lo && g0 + kNodes <= hi) {
#pragma unroll
    for (int p = 0; p < kNodes; p += 2) {
      *reinterpret_cast<double2*>(v_next + g0 + p) = make_double2(vr[p], vr[p + 1]);
      *reinterpret_cast<double2*>(w_next + g0 + p) = make_double2(wr[p], wr[p + 1]);
    }
  } else {
#pragma unroll
    for (int p = 0; p < kNodes; ++p) {
      const index_t i = g0 + p;
      if (i >= lo && i < hi) {
        v_next[i] = vr[p];
        w_next[i] = wr[p];
      }
    }
  }
}

// ---- Host side --------------------------------------------------------------------------------

void check_arguments(const real* v, const real* w, const real* v_next, const real* w_next,
                     const NodeParams& q, const StimulusTable& stimuli) {
  verify_explicit_arrays("explicit kernels", v, w, v_next, w_next, q.n[0], 3, stimuli);
}

}  // namespace

void verify_explicit_arrays(const char* kernels, const real* v, const real* w, const real* v_next,
                            const real* w_next, index_t n, index_t least,
                            const StimulusTable& stimuli) {
  const std::string name = kernels;
  FHN_VERIFY(n >= least, InternalError,
             name + " need at least " + std::to_string(least) + " nodes, got " + std::to_string(n));
  for (const real* p : {v, w, v_next, w_next})
    FHN_VERIFY(p != nullptr && reinterpret_cast<std::uintptr_t>(p) % 16 == 0, InternalError,
               name + " need 16-byte aligned device arrays");
  auto disjoint = [&](const real* a, const real* b) { return a + n <= b || b + n <= a; };
  FHN_VERIFY(disjoint(v, v_next) && disjoint(v, w_next) && disjoint(w, v_next) &&
                 disjoint(w, w_next) && disjoint(v_next, w_next),
             InternalError, name + " write out of place: outputs overlap an array");
  FHN_VERIFY(stimuli.count == 0 || stimuli.table != nullptr, InternalError,
             name + ": stimulus table missing");
}

void launch_explicit_step(const real* v, const real* w, real* v_next, real* w_next,
                          const NodeParams& q, const Kinetics& kinetics,
                          const StimulusTable& stimuli, index_t step) {
  check_arguments(v, w, v_next, w_next, q, stimuli);
  const index_t threads = (q.n[0] + 1) / 2;
  const auto blocks = static_cast<unsigned>((threads + kStepThreads - 1) / kStepThreads);
  const real t = step_time(step, stimuli.dt);
  with_kinetics(kinetics, [&](const auto& kin) {
    explicit_step_kernel<<<blocks, kStepThreads>>>(v, w, v_next, w_next, q, kin, stimuli, t);
  });
  FHN_CUDA_CHECK_LAUNCH();
}

void launch_explicit_steps_blocked(const real* v, const real* w, real* v_next, real* w_next,
                                   const NodeParams& q, const Kinetics& kinetics,
                                   const StimulusTable& stimuli, index_t first_step, int steps) {
  FHN_VERIFY(steps >= 1 && steps <= kStepsPerPass, InternalError,
             "blocked explicit kernel: steps must be 1.." + std::to_string(kStepsPerPass) +
                 ", got " + std::to_string(steps));
  check_arguments(v, w, v_next, w_next, q, stimuli);
  constexpr int kTile = kBlockedThreads * kBlockedNodes;
  static_assert(kTile - 2 * ((kStepsPerPass + 2) & ~1) >= kTile / 2,
                "the halo of a full pass must leave most of the tile to the interior");
  const int halo = blocked_halo(steps);
  const index_t interior = kTile - 2 * halo;
  const auto blocks = static_cast<unsigned>((q.n[0] + interior - 1) / interior);
  // Without stimuli the stimulus code is compiled out (fewer registers, see the note above).
  with_kinetics(kinetics, [&](const auto& kin) {
    using K = std::decay_t<decltype(kin)>;
    if (stimuli.count > 0)
      explicit_blocked_kernel<kBlockedThreads, kBlockedNodes, kBlockedMinBlocks, true, false, K>
          <<<blocks, kBlockedThreads>>>(v, w, v_next, w_next, q, kin, stimuli, first_step, steps,
                                        halo, MemberArrays{}, nullptr, 0);
    else
      explicit_blocked_kernel<kBlockedThreads, kBlockedNodes, kBlockedMinBlocks, false, false, K>
          <<<blocks, kBlockedThreads>>>(v, w, v_next, w_next, q, kin, stimuli, first_step, steps,
                                        halo, MemberArrays{}, nullptr, 0);
  });
  FHN_CUDA_CHECK_LAUNCH();
}

void launch_explicit_members_blocked(const real* v, const real* w, real* v_next, real* w_next,
                                     index_t n, const MemberArrays& members, const Kinetics& form,
                                     const StimulusTable& stimuli, index_t first_step, int steps) {
  FHN_VERIFY(steps >= 1 && steps <= kStepsPerPass, InternalError,
             "blocked explicit kernel: steps must be 1.." + std::to_string(kStepsPerPass) +
                 ", got " + std::to_string(steps));
  FHN_VERIFY(n >= 3 && members.pitch >= n && members.pitch % 2 == 0 && members.members >= 1 &&
                 members.params != nullptr && members.kinetics != nullptr &&
                 members.frozen != nullptr,
             InternalError,
             "batched explicit kernels need n >= 3, an even pitch >= n, members and their "
             "parameters; got n = " + std::to_string(n) + ", pitch " +
                 std::to_string(members.pitch) + ", " + std::to_string(members.members) +
                 " members");
  verify_explicit_arrays("batched explicit kernels", v, w, v_next, w_next,
                         members.members * members.pitch, 3, stimuli);
  constexpr int kTile = kBlockedThreads * kBlockedNodes;
  const int halo = blocked_halo(steps);
  const index_t interior = kTile - 2 * halo;
  const auto blocks = static_cast<unsigned>((n + interior - 1) / interior);
  // Each member's parameters come from members.params and members.kinetics; q carries only the
  // shared n.
  NodeParams q;
  q.n[0] = n;
  constexpr index_t kMaxGridY = 65535;
  with_kinetics(form, [&](const auto& kin) {
    using K = std::decay_t<decltype(kin)>;
    const K* kinetics = static_cast<const K*>(members.kinetics);
    for (index_t first = 0; first < members.members; first += kMaxGridY) {
      const dim3 grid(blocks, static_cast<unsigned>(std::min(members.members - first, kMaxGridY)));
      if (stimuli.count > 0)
        explicit_blocked_kernel<kBlockedThreads, kBlockedNodes, kBlockedMinBlocks, true, true, K>
            <<<grid, kBlockedThreads>>>(v, w, v_next, w_next, q, kin, stimuli, first_step, steps,
                                        halo, members, kinetics, first);
      else
        explicit_blocked_kernel<kBlockedThreads, kBlockedNodes, kBlockedMinBlocks, false, true, K>
            <<<grid, kBlockedThreads>>>(v, w, v_next, w_next, q, kin, stimuli, first_step, steps,
                                        halo, members, kinetics, first);
      FHN_CUDA_CHECK_LAUNCH();
    }
  });
}

}  // namespace fhn::cuda
