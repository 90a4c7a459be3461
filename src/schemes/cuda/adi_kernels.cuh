#pragma once
// The kernels of the split Crank-Nicolson scheme (adi_point.hpp) that a single run
// (adi_cuda.cu) and the members of a sweep (adi_members_cuda.cu) share: the reaction pass with
// its Newton log, and the right sides of a cable's or sheet's diffusion half-steps. The member
// forms take the member from blockIdx.z and run each member with the same expressions in the
// same order as the single form runs its problem: a member equals its single run bit for bit.
#include <algorithm>
#include <cstddef>

#include "core/cuda/block_reduce.cuh"
#include "core/cuda/staged.cuh"
#include "kinetics/kinetics.hpp"
#include "schemes/adi_point.hpp"
#include "schemes/cuda/device_fields.cuh"
#include "schemes/newton.hpp"
#include "schemes/node_updates.hpp"

namespace fhn::cuda {

// Iterations of each reaction half-step whose largest |du| and |g| are kept for newton.csv and
// the statistics; a half-step that needs more still counts its iterations.
constexpr int kHistory = 8;

// What the host reads back once per step: per stage the largest |du|, |g| per iteration (as
// the bit patterns of non-negative doubles, which order like the numbers), the most iterations
// any node needed and whether one did not converge.
struct ReactionLog {
  unsigned long long du[2][kHistory];
  unsigned long long g[2][kHistory];
  unsigned int iterations[2];
  unsigned int failed[2];
};

// The kernels below run over the rows [row0, row0 + rows) = [q.plane0, q.plane0 + q.planes) of a
// sheet (a slab's owned rows; the whole sheet's or a cable's row), their arrays starting at row
// row0: node (i, j) at i + N_x (j - row0) (sheet_index); on a box the reaction runs over the
// planes [q.plane0, q.plane0 + q.planes) alike (RowNode).

// Two values a kernel takes by value, one per half-step of a reaction pass.
template <class T>
struct Pair {
  T value[2];
  __host__ __device__ const T& operator[](int h) const { return value[h]; }
};

// Where a reaction pass records a half-step: the step's log entry and the stage (0: the first
// half-step of the step, 1: its second).
struct LogSlot {
  ReactionLog* log = nullptr;
  int stage = 0;
};

// The members of a sweep (adi_members_cuda.cu), when the kernels below run over them: member m
// (blockIdx.z + first) owns entries [m pitch, m pitch + n) of every array, takes params[m], its
// kinetics (one of the launcher's form's type each), its rows of the stimulus table (count
// entries each), r[m] = k D_m / h^2 (adi_setup's) and its log entries at LogSlot::log + m; a
// frozen member is left alone.
struct AdiMembers {
  index_t first = 0;
  index_t pitch = 0;
  const NodeParams* params = nullptr;
  const void* kinetics = nullptr;
  const real* r = nullptr;
  const int* frozen = nullptr;
  // The member a block works on (blockIdx.z) and where its arrays start.
  __device__ index_t member() const { return first + blockIdx.z; }
  __device__ std::size_t offset() const { return static_cast<std::size_t>(member()) * pitch; }
  // The member's parameters copied into `shared` (block shared memory) once per block: every node
  // then reads them there rather than from global memory. Every thread of the block calls it.
  __device__ const NodeParams& staged_params(Staged<NodeParams>& shared) const {
    shared.load(params[member()], threadIdx.x + blockDim.x * threadIdx.y, blockDim.x * blockDim.y);
    __syncthreads();
    return shared.get();
  }
};

// kHalves reaction half-steps (1, or 2: a step's second and the next step's first, Strang
// splitting's consecutive halves) at every node, v and w kept in registers between them: the
// same operations per node as kHalves passes, bit for bit, for one read and one write of v and
// w. Half-step h starts at times[h] (the currents at times[h] and times[h] + k/2) and is logged
// in slots[h]. Dirichlet nodes are held before and after each (as AdiCpu::step: hold, react,
// hold). A grid of a few blocks per SM strides over the rows (blockIdx.y, threadIdx.x along a
// row: no index division on a sheet). Each thread keeps its own maxima of |du| and |g| per
// half-step and iteration as floats rounded upwards (the log's resolution is a float's; half
// the registers of doubles, so that two half-steps' fit), reduced over the warp, then the
// block, then one atomic per block and entry (at most 34 a block). Non-negative floats order
// like their bit patterns, so the maxima are kept and reduced as unsigned integers.
//
// `increment` (nullptr but after a box's diffusion, laid out as v): added to v before the first
// half-step (adi_cuda.cu: Douglas's increment form), the box's step completed as the pass reads v.
// kMedium: a sheet with fields (one process), where a node outside the tissue (quadrant byte 0)
// keeps its state and the others take the form's parameters at the node (kinetics_at).
// kMembers: blockIdx.z is a member of a sweep (AdiMembers); q0 and `uniform` are member 0's.
struct ReactionMedium {
  const std::uint8_t* quadrants = nullptr;
  const real* kinetics[kMaxFormParameters] = {};
};

// Node i of row `row` of the rows a reaction kernel walks: a cable's or a sheet's row j (array
// index sheet_index: a slab's rows too), or on a box the row j + N_y k, node (i, j, k) at
// i + N_x (row - N_y plane0) (box_index: a slab's planes [plane0, plane0 + planes) too). The
// node's indices along each axis are found only where asked (a Dirichlet side, a stimulus): a
// box's j and k take a division.
template <bool kBox>
struct RowNode {
  index_t i, row;
  index_t node;  // the array index
  __device__ RowNode(index_t i_, index_t row_, const NodeParams& q)
      : i(i_),
        row(row_),
        node(kBox ? i_ + q.n[0] * (row_ - q.n[1] * q.plane0) : sheet_index(i_, row_, q)) {}
  // The rows of the grid (of a slab's planes on a box): [first, end).
  static __device__ index_t first(const NodeParams& q) {
    return kBox ? q.n[1] * q.plane0 : q.plane0;
  }
  static __device__ index_t end(const NodeParams& q) {
    return kBox ? q.n[1] * (q.plane0 + q.planes) : q.plane0 + q.planes;
  }
  // (i, j, k). (A box's rows number N_y N_z < 2^31: its j and k by one 32-bit division.)
  __device__ void indices(const NodeParams& q, index_t (&at)[kMaxAxes]) const {
    at[0] = i;
    at[1] = kBox ? static_cast<unsigned>(row) % static_cast<unsigned>(q.n[1]) : row;
    at[2] = kBox ? static_cast<unsigned>(row) / static_cast<unsigned>(q.n[1]) : 0;
  }
  __device__ bool dirichlet(const NodeParams& q, real& value) const {
    index_t at[kMaxAxes];
    indices(q, at);
    return dirichlet_at<kBox ? 3 : 2>(q.sides, at, q.n, value);
  }
  // The stimuli's mean current over [t, t + span] (stimulus_current).
  __device__ real stimulus(const NodeParams& q, const StimulusTable& st, real t, real span) const {
    index_t at[kMaxAxes];
    indices(q, at);
    return stimulus_current(st, at[0], at[1], at[2], t, span);
  }
};

// Blocks of 2 warps, 16 resident per SM (64 registers a thread), launched 32 per SM (two waves;
// the grid strides over the rows). A block's warps wait for each other only at the log's
// reduction at the end; in small blocks a block that is done leaves room for the next sooner.
// Measured on an H200 (a pass of two half-steps, 2^24 nodes, nodes at rest): blocks of 8 warps,
// 4 resident and 8 launched per SM took 362 us on a 256^3 box and 365 us on a 4096^2 sheet;
// these take 292 and 317 us.
constexpr int kReactionThreads = 64;
constexpr int kReactionResident = 16;   // blocks per SM
constexpr int kReactionBlocksPerSm = 32;  // blocks launched per SM
// A reaction grid's blocks along a row of n nodes: one per kBlock nodes (its kReactionThreads
// threads stride over them), at most 64; the rows then take the rest of the launch.
inline unsigned reaction_row_blocks(index_t n) {
  return static_cast<unsigned>(std::min<index_t>(64, (n + kBlock - 1) / kBlock));
}
template <bool kMedium, bool kBox, bool kMembers, int kHalves, class K>
__global__ void __launch_bounds__(kReactionThreads, kReactionResident)
    reaction_kernel(real* __restrict__ v, real* __restrict__ w, const real* __restrict__ increment,
                    const __grid_constant__ NodeParams q0,
                    const __grid_constant__ K uniform, const __grid_constant__ ReactionMedium medium,
                    const __grid_constant__ AdiMembers members, ReactionParams rp,
                    StimulusTable st, Pair<real> times, Pair<LogSlot> slots) {
  static_assert(!(kMembers && (kMedium || kBox)), "members are uniform cables or sheets");
  if (kMembers && members.frozen[members.member()]) return;  // the whole block
  __shared__ Staged<NodeParams> member_params;
  const NodeParams& q = kMembers ? members.staged_params(member_params) : q0;
  const K member_kinetics = kMembers ? static_cast<const K*>(members.kinetics)[members.member()] : uniform;
  if (kMembers) {
    v += members.offset();
    w += members.offset();
    st.table += static_cast<std::size_t>(members.member()) * st.count;
  }
  unsigned du_max[kHalves][kHistory], g_max[kHalves][kHistory];  // float bits
#pragma unroll
  for (int h = 0; h < kHalves; ++h)
#pragma unroll
    for (int k = 0; k < kHistory; ++k) du_max[h][k] = g_max[h][k] = 0u;
  int iterations[kHalves] = {};
  bool failed[kHalves] = {};
  // A value's float bits rounded upwards; NaN counts as 0 (skipped, as fmax would).
  auto bits = [](real x) { return x == x ? __float_as_uint(__double2float_ru(x)) : 0u; };
  using Row = RowNode<kBox>;
  // Whether any side holds v (else no node needs its indices for it).
  const bool held_sides = any_dirichlet<kBox ? 3 : 2>(q.sides);
  for (index_t j = Row::first(q) + blockIdx.y; j < Row::end(q); j += gridDim.y)
    for (index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x; i < q.n[0];
         i += static_cast<index_t>(gridDim.x) * blockDim.x) {
      const Row at(i, j, q);
      const index_t node = at.node;
      if (kMedium && medium.quadrants[node] == 0) continue;
      const K kin = kMedium ? kinetics_at(uniform, medium.kinetics, node) : member_kinetics;
      real held = 0.0;
      const bool is_held = held_sides && at.dirichlet(q, held);
      real v_now = is_held ? held : increment != nullptr ? v[node] + increment[node] : v[node];
      real w_now = w[node];
#pragma unroll
      for (int h = 0; h < kHalves; ++h) {
        // The stimuli's mean over the half-step at both of its ends (adi_point.hpp).
        const real current = st.count > 0 ? at.stimulus(q, st, times[h], rp.h) : 0.0;
        // reaction_half_step with its first kHistory iterations unrolled: the maxima stay in
        // registers at fixed indices; a converged node leaves the loop at once.
        ReactionNewton<K> newton(v_now, w_now, current, current, rp, kin);
        bool done = false;
        int used = 0;
#pragma unroll
        for (int k = 0; k < kHistory; ++k) {
          if (done || k >= rp.max_iterations) break;
          real g = 0.0;
          const real du = newton.iterate(kin, g);
          du_max[h][k] = max(du_max[h][k], bits(du));
          g_max[h][k] = max(g_max[h][k], bits(g));
          used = k + 1;
          done = du < rp.tolerance;
        }
        for (int k = kHistory; !done && k < rp.max_iterations; ++k) {
          real g = 0.0;
          done = newton.iterate(kin, g) < rp.tolerance;
          used = k + 1;
        }
        newton.confine(kin);
        v_now = is_held ? held : newton.u;
        w_now = newton.w(kin);
        iterations[h] = max(iterations[h], used);
        failed[h] = failed[h] || !done;
      }
      v[node] = v_now;
      w[node] = w_now;
    }
  // Warp maxima (one instruction each), then the block's in shared memory, then the log.
  __shared__ unsigned block_du[kHalves][kHistory], block_g[kHalves][kHistory];
  __shared__ unsigned block_iterations[kHalves], block_failed[kHalves];
  for (int e = threadIdx.x; e < kHalves * kHistory; e += blockDim.x) {
    block_du[e / kHistory][e % kHistory] = 0u;
    block_g[e / kHistory][e % kHistory] = 0u;
  }
  if (threadIdx.x < kHalves) block_iterations[threadIdx.x] = block_failed[threadIdx.x] = 0u;
  __syncthreads();
  const bool leader = threadIdx.x % 32 == 0;
#pragma unroll
  for (int h = 0; h < kHalves; ++h) {
#pragma unroll
    for (int k = 0; k < kHistory; ++k) {
      const unsigned du = __reduce_max_sync(0xffffffffu, du_max[h][k]);
      const unsigned g = __reduce_max_sync(0xffffffffu, g_max[h][k]);
      if (leader && du != 0u) atomicMax(&block_du[h][k], du);
      if (leader && g != 0u) atomicMax(&block_g[h][k], g);
    }
    const unsigned most = __reduce_max_sync(0xffffffffu, static_cast<unsigned>(iterations[h]));
    const bool any = __any_sync(0xffffffffu, failed[h]);
    if (leader) {
      atomicMax(&block_iterations[h], most);
      if (any) atomicOr(&block_failed[h], 1u);
    }
  }
  __syncthreads();
  for (int e = threadIdx.x; e < kHalves * kHistory; e += blockDim.x) {
    const int h = e / kHistory, k = e % kHistory;
    ReactionLog* log = slots[h].log + (kMembers ? members.member() : 0);
    const int stage = slots[h].stage;
    // Non-negative doubles order like their bit patterns.
    const real du = __uint_as_float(block_du[h][k]), g = __uint_as_float(block_g[h][k]);
    if (du > 0.0) atomicMax(&log->du[stage][k], static_cast<unsigned long long>(__double_as_longlong(du)));
    if (g > 0.0) atomicMax(&log->g[stage][k], static_cast<unsigned long long>(__double_as_longlong(g)));
  }
  if (threadIdx.x < kHalves) {
    ReactionLog* log = slots[threadIdx.x].log + (kMembers ? members.member() : 0);
    const int stage = slots[threadIdx.x].stage;
    atomicMax(&log->iterations[stage], block_iterations[threadIdx.x]);
    if (block_failed[threadIdx.x] != 0u) atomicMax(&log->failed[stage], 1u);
  }
}

// The right side at node (i, j) of a sheet (or cable) from u there and its neighbours along
// `axis` (0 where the sheet has none): a Dirichlet node's value, else u + (r/2) d(u) along
// `axis` (axis_difference: mirrored at the sheet's ends).
__device__ inline real sheet_right_side(index_t i, index_t j, int axis, real below, real centre,
                                        real above, const NodeParams& q, real r) {
  real held = 0.0;
  if (sheet_dirichlet(i, j, q, held)) return held;
  const index_t k = axis == 0 ? i : j;
  return adi_rhs(centre, axis_difference(below, centre, above, k == 0, k == q.n[axis] - 1), r);
}

// out = in + (r/2) d(in) along `axis` (0: x, 1: y), Dirichlet nodes set to their value: the right
// side of the diffusion half-step whose lines run along the other axis (a cable: axis 0, its own).
// Along y, `in` also holds the rows row0 - 1 and row0 + rows where the sheet has them (a slab's
// halo rows). Row j = row0 + blockIdx.y. kMembers: blockIdx.z is a member of a sweep
// (AdiMembers: its arrays, parameters and r; q0 and r0 are member 0's); a frozen member's values
// are copied through (out = in), so that its state survives the solves that leave it out.
template <bool kMembers>
__global__ void adi_rhs_kernel(const real* __restrict__ in, real* __restrict__ out,
                               const __grid_constant__ NodeParams q0, real r0, int axis,
                               const __grid_constant__ AdiMembers members) {
  const index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x;
  const index_t j = q0.plane0 + blockIdx.y;
  __shared__ Staged<NodeParams> member_params;
  const NodeParams& q = kMembers ? members.staged_params(member_params) : q0;
  if (i >= q0.n[0]) return;
  const real r = kMembers ? members.r[members.member()] : r0;
  if (kMembers) {
    in += members.offset();
    out += members.offset();
  }
  const index_t node = sheet_index(i, j, q);
  if (kMembers && members.frozen[members.member()]) {
    out[node] = in[node];
    return;
  }
  const index_t k = axis == 0 ? i : j, stride = axis == 0 ? 1 : q.n[0];
  const real below = k > 0 ? __ldg(in + node - stride) : 0.0;
  const real above = k + 1 < q.n[axis] ? __ldg(in + node + stride) : 0.0;
  out[node] = sheet_right_side(i, j, axis, below, __ldg(in + node), above, q, r);
}

// sheet_right_side on a whole sheet (one process) as a right side formed by the batched
// solver as it reads v (BatchedPartitionedSolver::solve_formed): `axis` is the difference's, the
// lines run along the other one. Entry `row` of system s is node (row, s) for axis 1 (the rows'
// solve) and (s, row) for axis 0 (the columns'); below and above are v in the systems s -+ 1.
struct SheetAcrossRight {
  NodeParams q;
  real r;
  int axis;
  __device__ real operator()(index_t s, index_t row, real below, real centre, real above) const {
    return axis == 1 ? sheet_right_side(row, s, axis, below, centre, above, q, r)
                     : sheet_right_side(s, row, axis, below, centre, above, q, r);
  }
};

// Records stage `stage` (0: a step's first reaction half-step, 1: its second) of a log into
// `newton`: the largest |du| and |g| of each iteration the slowest node took, as far as the log
// keeps them (kHistory). Returns whether every node converged (NewtonStep::finish's argument).
inline bool record_reaction_stage(const ReactionLog& entry, int stage, NewtonStep& newton) {
  const int iterations = static_cast<int>(entry.iterations[stage]);
  for (int k = 0; k < std::min(iterations, kHistory); ++k)  // as the slowest node took them
    newton.record(norm_from_bits(entry.du[stage][k]), norm_from_bits(entry.g[stage][k]));
  return entry.failed[stage] == 0;
}

}  // namespace fhn::cuda
