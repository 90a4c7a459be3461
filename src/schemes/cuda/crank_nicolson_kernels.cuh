#pragma once
// The Crank-Nicolson / Newton kernels of a cable, written once for a single run
// (crank_nicolson_cuda.cu: the whole cable, or one rank's slab) and the members of a sweep
// (crank_nicolson_members_cuda.cu): assemble (F(u) and J's diagonal), update (u -= du), check
// (the convergence decision) and accept (w+ = W(u)), and the members' prepare (a step's start).
// Every node runs the rows of node_updates.hpp and crank_nicolson_point.hpp with the same
// expressions in the same order whoever launches it (what a member's step computes differs from
// its single run's only in the solve of J du = F, the batch's batched solver, and in the
// contraction of the start's offset: the single run starts its steps with its own
// cable_prepare_kernel, crank_nicolson_cuda.cu).
//
// The members of a sweep are one more axis of the nodes; a kernel's `Cable` says how a thread
// finds its member and node, and where that member's constants are:
// - OneCable: one member, thread k < count on array index offset + k, global node first + k (the
//   whole cable: 0, 0, n; a slab: its owned nodes after the halo node); NodeParams, kinetics
//   and the step's c by value; a launch's maxima by block_max, one atomic per block.
// - CableMembers: the (members x pitch) member-major batch (member_batch_cuda.cuh), thread
//   g = m pitch + i; every member's NodeParams and kinetics in device arrays, its trapezoidal
//   rule derived where used; maxima per member by segment_max (a member's lanes are consecutive),
//   one atomic per member and warp.
// A kernel's `Record` says what an iteration writes besides J, F and u, and who decides:
// - CableNewton (NewtonState): the whole cable, decided on the device by check_kernel; launched
//   iterations past convergence return at once;
// - SlabNewton (SlabIteration): a slab, decided on the host from the norms agreed over the ranks,
//   its rows' couplings to the neighbouring ranks on the side (crank_nicolson_cuda.cu);
// - MemberNewton (Progress, iteration j): per member, decided on the device; accept_kernel
//   freezes the members that fail (MemberOutcome).
#include <cstddef>

#include "core/cuda/block_reduce.cuh"
#include "kinetics/kinetics.hpp"
#include "schemes/cuda/device_fields.cuh"
#include "schemes/node_updates.hpp"

namespace fhn::cuda {

// ---- Layouts: the members as one more axis --------------------------------------------------

// A thread's node: member m, array index a (of v, w, u, p, rhs), row (of the Newton system's
// arrays: J, F, du; a slab's hold its owned rows only) and global node i of the member's cable.
// live: m is a member (the padding after its n nodes included); owned: a node of it.
struct CableNode {
  unsigned m;
  index_t a, row, i;
  bool live, owned;
};

// The nodes a single run covers: array index offset + k holds global node first + k, k < count.
struct OwnedNodes {
  index_t offset;
  index_t first;
  index_t count;
};

// One member (a single run). Its arrays are not declared __restrict__, as its kernels' never were
// (their instructions stay the base build's).
template <class K>
struct OneCable {
  using Kinetics = K;
  template <class T>
  using Array = T*;

  OwnedNodes nodes;
  NodeParams q;
  K kin;
  real c;  // c of this step's W(u) = p + c u: the trapezoidal rule's, 0 in a leapfrog step

  __device__ CableNode node() const {
    const index_t k = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x;
    const bool owned = k < nodes.count;
    return {0u, nodes.offset + k, k, nodes.first + k, owned, owned};
  }
  __device__ const NodeParams& params(unsigned) const { return q; }
  __device__ const K& kinetics(unsigned) const { return kin; }
  __device__ real w_coefficient(const NodeParams&, const K&) const { return c; }
  // *slot(0) = max(*slot(0), the largest x over the block): every thread calls it; `active`
  // unused (a record whose member is done returned before).
  template <class Slot>
  __device__ void record_max(real x, const CableNode&, bool, Slot slot) const {
    const real block = block_max(x);
    if (threadIdx.x == 0) atomic_max_norm(slot(0u), block);
  }
};

// The maximum of x over the lanes of the calling warp that hold the same key (a member's lanes
// are consecutive), valid in the first lane of each run of equal keys (`head`). Every lane of the
// warp must call it. Doubling steps: after offsets 1, 2, .., 16 lane L holds the maximum over
// lanes [L, L + 32) with its key.
__device__ inline real segment_max(real x, unsigned key, bool& head) {
  constexpr unsigned kAll = 0xffffffffu;
  const unsigned lane = threadIdx.x & 31u;
  for (unsigned offset = 1; offset < 32; offset <<= 1) {
    const real other = __shfl_down_sync(kAll, x, offset);
    const unsigned other_key = __shfl_down_sync(kAll, key, offset);
    if (lane + offset < 32 && other_key == key) x = nan_max(x, other);
  }
  const unsigned before = __shfl_up_sync(kAll, key, 1);
  head = lane == 0 || before != key;
  return x;
}

// The members of a sweep (Members: device_fields.cuh), flat over members x pitch entries,
// thread g = m pitch + i (32-bit: a batch holds fewer than 2^31 entries); member m's kinetics
// kinetics_of[m]. Its arrays never alias: __restrict__.
template <class K>
struct CableMembers {
  using Kinetics = K;
  template <class T>
  using Array = T* __restrict__;

  Members b;
  const K* kinetics_of;
  bool leapfrog;  // this step's W(u) = p: c = 0

  __device__ CableNode node() const {
    const unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned m = b.member(g), i = g - m * b.pitch;  // m >= count past the end
    const bool live = m < b.count;
    return {m, g, g, i, live, live && i < b.n};
  }
  __device__ NodeParams params(unsigned m) const { return b.params[m]; }
  __device__ K kinetics(unsigned m) const { return kinetics_of[m]; }
  __device__ StimulusTable stimuli_of(unsigned m) const { return b.stimuli_of(m); }
  __device__ TrapezoidalW<K> trapezoidal(const NodeParams& q, const K& kin) const {
    return trapezoidal_w(kin, q.k);
  }
  // c of W(u) = p + c u (trapezoidal_w_point.hpp): the trapezoidal rule's, or 0 in a leapfrog step.
  __device__ real w_coefficient(const NodeParams& q, const K& kin) const {
    return leapfrog ? 0.0 : trapezoidal_w(kin, q.k).c;
  }
  // *slot(m) = max(*slot(m), the largest x over member m's lanes of the warp), where `active`:
  // every lane of the warp calls it.
  template <class Slot>
  __device__ void record_max(real x, const CableNode& node, bool active, Slot slot) const {
    bool head = false;
    const real member_max = segment_max(x, node.m, head);
    if (head && active) atomic_max_norm(slot(node.m), member_max);
  }
};

// A kernel's arrays as its layout declares them.
template <class Cable>
using In = typename Cable::template Array<const real>;
template <class Cable>
using Out = typename Cable::template Array<real>;

// ---- Records: what an iteration keeps, and who decides -------------------------------------

constexpr int kMaxIterations = 1000;  // the config's upper bound for newton.max_iterations

// The whole cable's Newton state: written by the kernels, read by the host once per step. Norms
// are stored as the bit patterns of non-negative doubles, which order like the numbers (so
// atomicMax works), NaN above all.
struct NewtonState {
  int converged;
  int iterations;
  unsigned long long bad_row;  // first row that is not diagonally dominant, n when none
  struct Norms {
    unsigned long long du_bits;
    unsigned long long residual_bits;
  } norms[kMaxIterations];  // per iteration, so that one copy brings the used ones
};

// What a record gives the kernels: kUniform (one decision for the whole launch: the kernels of
// an iteration past it return at once), iterating(m), for the members' prepare start(node) (the
// flags' reset) and frozen(m),
// J's off_diagonals(node, q) for the dominance check, couplings(node) (assemble's extra right
// sides), the slots bad_row(m), residual_norm(m) and du_norm(m), the step du(du, row) that update
// takes, and for check_kernel members() and check(m, tolerance).

// The whole cable: NewtonState; J's off-diagonals read from the solve's arrays, as its kernel
// always did (recomputed, as the slab and the members do, they would save 16 B per node and
// iteration, but change its instructions).
struct CableNewton {
  NewtonState* state;
  const real* lower = nullptr;  // assemble only
  const real* upper = nullptr;

  static constexpr bool kUniform = true;  // one decision for the whole launch
  __device__ unsigned members() const { return 1u; }
  __device__ bool iterating(unsigned) const { return !state->converged; }
  __device__ OffDiagonals off_diagonals(const CableNode& node, const NodeParams&) const {
    return {lower[node.row], upper[node.row]};
  }
  __device__ void couplings(const CableNode&) const {}
  __device__ unsigned long long* bad_row(unsigned) const { return &state->bad_row; }
  __device__ unsigned long long* residual_norm(unsigned) const {
    return &state->norms[state->iterations].residual_bits;
  }
  __device__ unsigned long long* du_norm(unsigned) const {
    return &state->norms[state->iterations].du_bits;
  }
  __device__ real du(const real* du, index_t row) const { return du[row]; }
  // One thread: count the iteration, decide convergence (||du||_inf < tolerance; non-finite
  // norms run on to max_iterations and fail on the host), clear the next iteration's norm slots.
  __device__ void check(unsigned, real tolerance) const {
    if (state->converged) return;
    const int iteration = state->iterations;
    state->iterations = iteration + 1;
    if (__longlong_as_double(static_cast<long long>(state->norms[iteration].du_bits)) < tolerance)
      state->converged = 1;
    if (iteration + 1 < kMaxIterations) {
      state->norms[iteration + 1].du_bits = 0;
      state->norms[iteration + 1].residual_bits = 0;
    }
  }
};

// A slab's Newton iteration, written by its kernels and read by the host (twice per iteration).
struct SlabIteration {
  real ends[6];  // y_0, y_{m-1}, p_0, p_{m-1}, q_0, q_{m-1}: the ends of the block's solutions
  unsigned long long bad_row;        // first global row of J not diagonally dominant, ~0 when none
  unsigned long long residual_bits;  // ||F||_inf over the owned rows (bits, as NewtonState's)
  unsigned long long du_bits;        // ||du||_inf over the owned rows
};

// A slab of m owned rows (crank_nicolson_cuda.cu's slab_newton): SlabIteration; J's
// off-diagonals recomputed (the solve's arrays hold T, the block without its couplings). assemble
// writes the right sides of the coupling solves, p = -a_0 e_0 and q = -c_{m-1} e_{m-1} (a_0,
// c_{m-1}: J's entries towards the neighbouring ranks, 0 where there is none); update takes
// du = y + L p + R q.
struct SlabNewton {
  SlabIteration* it;
  index_t m;
  real coupling_left = 0.0, coupling_right = 0.0;  // assemble: a_0, c_{m-1}
  real* left_response = nullptr;                   // p (assemble writes, update reads)
  real* right_response = nullptr;                  // q
  real left = 0.0, right = 0.0;                    // update: L, R

  static constexpr bool kUniform = true;
  __device__ bool iterating(unsigned) const { return true; }
  __device__ OffDiagonals off_diagonals(const CableNode& node, const NodeParams& q) const {
    return cn_off_diagonal_row(node.i, q);
  }
  __device__ void couplings(const CableNode& node) const {
    left_response[node.row] = node.row == 0 ? -coupling_left : 0.0;
    right_response[node.row] = node.row == m - 1 ? -coupling_right : 0.0;
  }
  __device__ unsigned long long* bad_row(unsigned) const { return &it->bad_row; }
  __device__ unsigned long long* residual_norm(unsigned) const { return &it->residual_bits; }
  __device__ unsigned long long* du_norm(unsigned) const { return &it->du_bits; }
  __device__ real du(const real* y, index_t row) const {
    return y[row] + (left * left_response[row] + right * right_response[row]);
  }
};

// What a member's Newton iteration is doing this step.
enum MemberState : unsigned long long {
  kIterating = 0,
  kConverged = 1,
  kFailed = 2,  // a norm not finite or a row not diagonally dominant
  kFrozen = 3,  // failed in an earlier step (or found not finite): left alone
};

// Per-member Newton progress: rows of `members` 8-byte slots in one device array, so that the
// host reads the flags and the norms of the iterations so far in one copy:
//   row 0 state, row 1 iterations this step, row 2 first row not diagonally dominant (n: none),
//   rows 3 .. 3 + J - 1: ||du||_inf of iteration j, rows 3 + J .. 3 + 2J - 1: ||F||_inf (J =
//   max_iterations). Norms are bit patterns of non-negative doubles (atomicMax orders them as
//   the numbers, NaN above all).
struct Progress {
  unsigned long long* base = nullptr;
  unsigned members = 0;
  int max_iterations = 0;

  static constexpr int kFlagRows = 3;
  __host__ __device__ unsigned long long* row(int r) const {
    return base + static_cast<std::size_t>(r) * members;
  }
  __host__ __device__ unsigned long long* state() const { return row(0); }
  __host__ __device__ unsigned long long* iterations() const { return row(1); }
  __host__ __device__ unsigned long long* bad_row() const { return row(2); }
  __host__ __device__ unsigned long long* du(int j) const { return row(kFlagRows + j); }
  __host__ __device__ unsigned long long* residual(int j) const {
    return row(kFlagRows + max_iterations + j);
  }
  static std::size_t rows(int max_iterations) {
    return kFlagRows + 2 * static_cast<std::size_t>(max_iterations);
  }
};

// The members of a sweep in iteration j: Progress, per member; J's off-diagonals recomputed;
// frozen members left alone.
struct MemberNewton {
  Progress progress;
  const int* frozen_flags;
  index_t n;
  int j = 0;

  static constexpr bool kUniform = false;
  __device__ unsigned members() const { return progress.members; }
  __device__ bool iterating(unsigned m) const { return progress.state()[m] == kIterating; }
  // prepare: member m's flags reset by its first thread.
  __device__ void start(const CableNode& node) const {
    if (node.i == 0) {
      progress.state()[node.m] = frozen_flags[node.m] ? kFrozen : kIterating;
      progress.iterations()[node.m] = 0;
      progress.bad_row()[node.m] = static_cast<unsigned long long>(n);
    }
  }
  __device__ bool frozen(unsigned m) const { return frozen_flags[m]; }
  __device__ OffDiagonals off_diagonals(const CableNode& node, const NodeParams& q) const {
    return cn_off_diagonal_row(node.i, q);
  }
  __device__ void couplings(const CableNode&) const {}
  __device__ unsigned long long* bad_row(unsigned m) const { return &progress.bad_row()[m]; }
  __device__ unsigned long long* residual_norm(unsigned m) const {
    return &progress.residual(j)[m];
  }
  __device__ unsigned long long* du_norm(unsigned m) const { return &progress.du(j)[m]; }
  __device__ real du(const real* du, index_t row) const { return du[row]; }
  // Member m after iteration j: count it, then converged (||du||_inf < tolerance) or failed (a
  // norm not finite, a row not dominant) or go on.
  __device__ void check(unsigned m, real tolerance) const {
    if (progress.state()[m] != kIterating) return;
    progress.iterations()[m] = static_cast<unsigned long long>(j + 1);
    const real du = __longlong_as_double(static_cast<long long>(progress.du(j)[m]));
    const real residual = __longlong_as_double(static_cast<long long>(progress.residual(j)[m]));
    if (progress.bad_row()[m] < static_cast<unsigned long long>(n) || !isfinite(du) ||
        !isfinite(residual))
      progress.state()[m] = kFailed;
    else if (du < tolerance)
      progress.state()[m] = kConverged;
  }
};

// ---- The kernels ----------------------------------------------------------------------------

// w^n in w (the members: every step accepts); read-only, through the non-coherent cache (__ldg:
// a struct's pointer does not carry __restrict__ to the compiler as a kernel parameter does).
struct StoredW {
  const real* w;
  __device__ real at(index_t a, real) const { return __ldg(w + a); }
  __device__ void keep(index_t, real) const {}
};

// Start of a member's step from t (the single run's start is its own: crank_nicolson_cuda.cu's
// cable_prepare_kernel, whose contraction of the offset differs): w^n (StoredW), w+ = p + c u
// (p here), the explicit half
//   rhs_i = v_i/k + 1/2 [D (L_h v)_i + f(v_i, w_i)] + (I_i's mean over [t, t + k]),
// u = v (when u is given: the fused path reads its first iterate from v); the record's flags
// reset (a slab keeps its own per iteration); a frozen member left alone.
template <class Cable, class WIn, class Record>
__global__ void prepare_kernel(Cable cable, In<Cable> v, WIn w_in, In<Cable> w_previous, real t,
                               bool leapfrog, Out<Cable> p, Out<Cable> rhs, Out<Cable> u,
                               Record record) {
  const CableNode node = cable.node();
  if (!node.live) return;
  record.start(node);
  if (!node.owned || record.frozen(node.m)) return;
  const NodeParams& q = cable.params(node.m);
  const auto& kin = cable.kinetics(node.m);
  const auto& trap = cable.trapezoidal(q, kin);
  // Every load before the first store: a store may alias v (for all the compiler knows), so a
  // load of v after it would wait for the store. The trapezoidal rule, then p from v_i and w_i,
  // then the stencil: in this order nvcc contracts a closed-form offset keep w + c v of the
  // members as fma(keep, w, c v), as their kernel did before it was shared (the other order
  // gave fma(c, v, keep w): other bits).
  const real centre = v[node.a];
  const real w = w_in.at(node.a, centre);
  const real offset = cn_w_offset(centre, w, leapfrog ? w_previous[node.a] : 0.0, leapfrog, trap,
                                  q, kin);
  const Stencil around = array_stencil(v, node.a, node.i, q);
  const StimulusTable stimuli = cable.stimuli_of(node.m);
  const real current = stimulus_current(stimuli, node.i, t, stimuli.dt);  // the step's mean
  w_in.keep(node.a, w);
  p[node.a] = offset;
  rhs[node.a] = cn_rhs(around.centre, w, stencil_diffusion(around, node.i, q), current, kin, q.k);
  if (u) u[node.a] = around.centre;
}

// F(u) and J's diagonal of the iterating members' rows; ||F||_inf per member, and the first row
// that is not diagonally dominant (|J_ii| < |J_i,i-1| + |J_i,i+1|, couplings to other ranks
// included).
template <class Cable, class Record>
__global__ void assemble_kernel(Cable cable, In<Cable> u, In<Cable> p, In<Cable> rhs,
                                Out<Cable> residual, Out<Cable> diag, Record record) {
  // A uniform record's decision holds for the whole grid: safe before the block reduction.
  if (Record::kUniform && !record.iterating(0u)) return;
  const CableNode node = cable.node();
  const bool iterating = node.live && record.iterating(node.m);
  real magnitude = 0.0;
  if (iterating && node.owned) {
    const NodeParams& q = cable.params(node.m);
    const auto& kin = cable.kinetics(node.m);
    const NewtonPoint row = cn_newton_row(array_stencil(u, node.a, node.i, q), p[node.a],
                                          rhs[node.a], cable.w_coefficient(q, kin), node.i, q, kin);
    residual[node.row] = row.residual;
    diag[node.row] = row.diag;
    record.couplings(node);
    magnitude = fabs(row.residual);
    const OffDiagonals off = record.off_diagonals(node, q);
    if (fabs(row.diag) < fabs(off.lower) + fabs(off.upper))
      atomicMin(record.bad_row(node.m), static_cast<unsigned long long>(node.i));
  }
  cable.record_max(magnitude, node, iterating,
                   [&](unsigned m) { return record.residual_norm(m); });
}

// u -= du (the record's: the solve's, or a slab's y + L p + R q) and ||du||_inf per member, for
// the iterating members.
template <class Cable, class Record>
__global__ void update_kernel(Cable cable, Out<Cable> u, In<Cable> du, Record record) {
  if (Record::kUniform && !record.iterating(0u)) return;
  const CableNode node = cable.node();
  const bool iterating = node.live && record.iterating(node.m);
  real magnitude = 0.0;
  if (iterating && node.owned) {
    const real step = record.du(du, node.row);
    u[node.a] -= step;
    magnitude = fabs(step);
  }
  cable.record_max(magnitude, node, iterating, [&](unsigned m) { return record.du_norm(m); });
}

// One thread per member after an iteration: the record's decision (CableNewton, MemberNewton).
template <class Record>
__global__ void check_kernel(Record record, real tolerance) {
  const unsigned m = blockIdx.x * blockDim.x + threadIdx.x;
  if (m < record.members()) record.check(m, tolerance);
}

// A single run accepts every step (one that does not converge throws on the host).
struct AllConverged {
  __device__ bool settle(const CableNode&) const { return true; }
  __device__ void restore(index_t, real*, real*) const {}
};
// The members after the host swapped v with u (and, leapfrog, w with w-): a member converged
// when its Progress state says so; any other (failed now or frozen before) gets v^n back from
// `v_old` (u's buffer now) and, when w's buffers were swapped, w^n from `w_previous`, and its
// frozen flag.
struct MemberOutcome {
  Progress progress;
  const real* v_old;       // read-only (__ldg, as StoredW)
  const real* w_previous;
  bool w_swapped;
  int* frozen;
  // Whether member m converged; its first thread freezes it if it did not now.
  __device__ bool settle(const CableNode& node) const {
    const unsigned long long state = progress.state()[node.m];
    if (node.i == 0 && state != kConverged && state != kFrozen) frozen[node.m] = 1;
    return state == kConverged;
  }
  __device__ void restore(index_t a, real* v, real* w) const {
    v[a] = __ldg(v_old + a);
    if (w_swapped) w[a] = __ldg(w_previous + a);
  }
};

// End of a step, v+ = u already in v (a buffer swap on the host): a member that converged takes
// w+ = W(u) (p + c u, or Newton's root: trapezoidal_w_point.hpp), u confined first for a form
// that needs it (kinetics/barkley.hpp; the other forms' kernels read u only); any other goes
// back to v^n, w^n (`outcome`: AllConverged, MemberOutcome).
template <class Cable, class Outcome>
__global__ void accept_kernel(Cable cable, In<Cable> p, Out<Cable> v, Out<Cable> w,
                              Outcome outcome) {
  const CableNode node = cable.node();
  if (!node.live) return;
  const bool converged = outcome.settle(node);
  if (!node.owned) return;
  if (converged) {
    using K = typename Cable::Kinetics;
    const K& kin = cable.kinetics(node.m);
    real x = v[node.a];
    if constexpr (K::kConfined) {
      x = kin.confine(x);
      v[node.a] = x;
    }
    w[node.a] = trapezoidal_w_at(kin, x, p[node.a], cable.w_coefficient(cable.params(node.m), kin));
  } else {
    outcome.restore(node.a, v, w);
  }
}

}  // namespace fhn::cuda
