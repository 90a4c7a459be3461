// The members of a sweep on the GPU (MemberBatch, schemes/member_batch.hpp): every member is a
// cable of n nodes on the same grid, with its own parameters (NodeParams and its kinetics form's
// parameters, one form for all), initial state and
// stimuli, and all members advance together in one set of kernels over a (members x pitch)
// member-major array: member m owns entries [m pitch, m pitch + n), pitch = n rounded up to even
// (each member starts 16-byte aligned for the explicit kernel's pair loads).
//
// Forward Euler: the temporally blocked kernel of explicit_kernels.cu with a member dimension
// (launch_explicit_members_blocked, kStepsPerPass steps per pass). Bytes per node and step:
// 32 / kStepsPerPass (read v, w; write v+, w+ once per pass) plus the halos, as a single cable.
//
// Crank-Nicolson / Newton (w trapezoidal or leapfrog), per step from t (k = dt, one member's
// rows as crank_nicolson_point.hpp):
//   prepare:  p = cn_w_offset(v, w, w-),  rhs = cn_rhs_node (I = 1/2 (I^n + I^{n+1})),  u = v
//   Newton iteration j, while the member iterates:
//     assemble: F(u) and J's diagonal (cn_newton_node); ||F||_inf, diagonal dominance
//     solve:    J du = F, every member's system in ONE batched solve (J's off-diagonals are
//               constant: built once per member)
//     update:   u -= du; ||du||_inf
//     check:    ||du||_inf < tolerance: the member has converged and later iterations of the
//               step leave it alone; a non-finite norm or a row that is not dominant: failed
//   accept:   converged members take v+ = u (a buffer swap for all), w+ = p + c u; the others
//             (failed now or frozen before) get v^n, w^n copied back and are frozen.
// The host launches as many iterations as the previous step needed, then copies the per-member
// flags and norms once (pinned memory, one synchronisation) and launches single iterations
// while members still iterate; the Newton statistics of a step are recorded while the device
// runs the next one.
// Bytes per node (DRAM, each array read or written once; neighbours come from the cache):
//   prepare  read v, w (leapfrog: and w-), write p, rhs, u:   40 B (leapfrog 48 B)
//   assemble read u, p, rhs, write F, diag:                    40 B (off-diagonals recomputed)
//   solve    batched partitioned, per-system coefficients:     72 B (+ 10 B interface values)
//   update   read u, du, write u:                              24 B
//   accept   read p, u, write w:                               24 B
// so 136 B (+ 10) per Newton iteration and 64 B (leapfrog 72 B) per step besides.
//
// Device memory per node of a member (8-byte reals, over the pitch): forward Euler 32 B (v, w and
// the next ones); Crank-Nicolson 72 B (v, w, u, p, rhs, F/du, J's diagonal, lower, upper),
// leapfrog 80 B (w-), plus the solver's workspace: partitioned 4 B (8 interface values per 16
// rows), cusparse its gtsv2StridedBatch buffer. Per member besides: its NodeParams, stimulus
// table, frozen flag and (Newton) 3 + 2 max_iterations norm and flag slots of 8 B.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "config/names.hpp"
#include "core/cuda/block_reduce.cuh"
#include "core/cuda/device_buffer.hpp"
#include "core/cuda/launch.hpp"
#include "core/format.hpp"
#include "schemes/cuda/device_fields.cuh"
#include "schemes/cuda/explicit_kernels.cuh"
#include "schemes/cuda_schemes.hpp"
#include "schemes/member_batch.hpp"
#include "schemes/node_updates.hpp"
#include "solvers/batched_tridiagonal.hpp"

namespace fhn::cuda {
namespace {

// ---- The batch as the kernels see it --------------------------------------------------------

// Flat launches over members x pitch entries, thread g = m pitch + i (32-bit: a batch holds
// fewer than 2^31 entries, checked at construction).
struct Members {
  unsigned count = 0;  // members
  unsigned pitch = 0;  // entries per member (n rounded up to even)
  unsigned n = 0;      // nodes per member
  const NodeParams* params = nullptr;  // device, one per member
  StimulusTable stimuli;               // device table of count x stimuli.count entries

  __device__ unsigned member(unsigned g) const { return g / pitch; }
  __device__ StimulusTable stimuli_of(unsigned m) const {
    StimulusTable st = stimuli;
    st.table += static_cast<std::size_t>(m) * st.count;
    return st;
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

// c of w+ = p + c u: the trapezoidal rule's, or 0 in a leapfrog step.
template <class K>
__device__ inline real w_coefficient(const NodeParams& q, const K& kin, bool leapfrog) {
  return leapfrog ? 0.0 : kin.trapezoidal(q.k).c;
}

// ---- Crank-Nicolson / Newton kernels --------------------------------------------------------

// Start of a step from t: p, rhs (stimulus weights 1/2, 1/2), u = v for every member that is not
// frozen; resets the members' flags. kinetics: one per member.
template <class K>
__global__ void prepare_kernel(Members b, const K* __restrict__ kinetics,
                               const real* __restrict__ v, const real* __restrict__ w,
                               const real* __restrict__ w_previous, real t, bool leapfrog,
                               const int* __restrict__ frozen, real* __restrict__ p,
                               real* __restrict__ rhs, real* __restrict__ u, Progress progress) {
  const unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= b.count * b.pitch) return;
  const unsigned m = b.member(g), i = g - m * b.pitch;
  if (i == 0) {
    progress.state()[m] = frozen[m] ? kFrozen : kIterating;
    progress.iterations()[m] = 0;
    progress.bad_row()[m] = b.n;
  }
  if (i >= b.n || frozen[m]) return;
  const NodeParams q = b.params[m];
  const K kin = kinetics[m];
  const std::size_t first = static_cast<std::size_t>(m) * b.pitch;
  const real* vm = v + first;
  const real* wm = w + first;
  const typename K::Trapezoidal trap = kin.trapezoidal(q.k);
  p[g] = cn_w_offset(vm[i], wm[i], leapfrog ? w_previous[g] : 0.0, leapfrog, trap, q, kin);
  rhs[g] = cn_rhs_node(vm, wm, stimulus_current(b.stimuli_of(m), i, t, 0.5, 0.5), i, q, kin);
  u[g] = vm[i];
}

// Iteration j: F(u) and J's diagonal of the iterating members; ||F||_inf per member and the
// first row that is not diagonally dominant (|J_ii| < |J_i,i-1| + |J_i,i+1|).
template <class K>
__global__ void assemble_kernel(Members b, const K* __restrict__ kinetics,
                                const real* __restrict__ u, const real* __restrict__ p,
                                const real* __restrict__ rhs, bool leapfrog,
                                real* __restrict__ residual, real* __restrict__ diag,
                                Progress progress, int j) {
  const unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned m = b.member(g), i = g - m * b.pitch;  // m >= count past the end
  const bool iterating = m < b.count && progress.state()[m] == kIterating;
  real magnitude = 0.0;
  if (iterating && i < b.n) {
    const NodeParams q = b.params[m];
    const K kin = kinetics[m];
    const std::size_t first = static_cast<std::size_t>(m) * b.pitch;
    const NewtonPoint row = cn_newton_node(u + first, p + first, rhs + first,
                                           w_coefficient(q, kin, leapfrog), i, q, kin);
    residual[g] = row.residual;
    diag[g] = row.diag;
    magnitude = fabs(row.residual);
    const OffDiagonals off = cn_off_diagonal_row(i, q);
    if (fabs(row.diag) < fabs(off.lower) + fabs(off.upper))
      atomicMin(&progress.bad_row()[m], static_cast<unsigned long long>(i));
  }
  bool head = false;
  const real member_max = segment_max(magnitude, m, head);
  if (head && iterating) atomic_max_norm(&progress.residual(j)[m], member_max);
}

// Iteration j: u -= du and ||du||_inf per member, for the iterating members.
__global__ void update_kernel(Members b, real* __restrict__ u, const real* __restrict__ du,
                              Progress progress, int j) {
  const unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned m = b.member(g), i = g - m * b.pitch;
  const bool iterating = m < b.count && progress.state()[m] == kIterating;
  real magnitude = 0.0;
  if (iterating && i < b.n) {
    u[g] -= du[g];
    magnitude = fabs(du[g]);
  }
  bool head = false;
  const real member_max = segment_max(magnitude, m, head);
  if (head && iterating) atomic_max_norm(&progress.du(j)[m], member_max);
}

// One thread per member after iteration j: count it, then converged (||du||_inf < tolerance) or
// failed (a norm not finite, a row not dominant) or go on.
__global__ void check_kernel(Progress progress, index_t n, int j, real tolerance) {
  const unsigned m = blockIdx.x * blockDim.x + threadIdx.x;
  if (m >= progress.members || progress.state()[m] != kIterating) return;
  progress.iterations()[m] = static_cast<unsigned long long>(j + 1);
  const real du = __longlong_as_double(static_cast<long long>(progress.du(j)[m]));
  const real residual = __longlong_as_double(static_cast<long long>(progress.residual(j)[m]));
  if (progress.bad_row()[m] < static_cast<unsigned long long>(n) || !isfinite(du) ||
      !isfinite(residual))
    progress.state()[m] = kFailed;
  else if (du < tolerance)
    progress.state()[m] = kConverged;
}

// End of a step, after the host swapped v with u (and, leapfrog, w with w-): a converged member
// takes w+ = p + c u (its v+ = u is already in v); any other gets v^n back from `v_old` (u's
// buffer now) and, leapfrog, w^n from `w_previous`, and is frozen.
template <class K>
__global__ void accept_kernel(Members b, const K* __restrict__ kinetics,
                              const real* __restrict__ p, real* __restrict__ v,
                              const real* __restrict__ v_old, real* __restrict__ w,
                              const real* __restrict__ w_previous, bool leapfrog,
                              bool w_swapped, int* __restrict__ frozen, Progress progress) {
  const unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= b.count * b.pitch) return;
  const unsigned m = b.member(g), i = g - m * b.pitch;
  const unsigned long long state = progress.state()[m];
  if (i == 0 && state != kConverged && state != kFrozen) frozen[m] = 1;
  if (i >= b.n) return;
  if (state == kConverged) {
    w[g] = p[g] + w_coefficient(b.params[m], kinetics[m], leapfrog) * v[g];
  } else {
    v[g] = v_old[g];
    if (w_swapped) w[g] = w_previous[g];
  }
}

// ---- Kernels of every scheme ----------------------------------------------------------------

// Per member, the first node whose v or w is not finite (first_bad[m] starts at ~0: none);
// frozen members are skipped.
__global__ void first_non_finite_kernel(Members b, const real* __restrict__ v,
                                        const real* __restrict__ w, const int* __restrict__ frozen,
                                        unsigned long long* first_bad) {
  const unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= b.count * b.pitch) return;
  const unsigned m = b.member(g), i = g - m * b.pitch;
  if (i < b.n && !frozen[m] && !(isfinite(v[g]) && isfinite(w[g])))
    atomicMin(&first_bad[m], static_cast<unsigned long long>(i));
}

// out[m count + k] = v_m[nodes[k]].
__global__ void gather_kernel(Members b, const real* __restrict__ v,
                              const index_t* __restrict__ nodes, unsigned count,
                              real* __restrict__ out) {
  const unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= b.count * count) return;
  const unsigned m = g / count, k = g - m * count;
  out[g] = v[static_cast<std::size_t>(m) * b.pitch + nodes[k]];
}

// ---- Host side ------------------------------------------------------------------------------

// Page-locked host memory (fast asynchronous copies from the device).
template <class T>
class PinnedBuffer {
 public:
  explicit PinnedBuffer(std::size_t count) {
    FHN_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&data_), count * sizeof(T)));
  }
  ~PinnedBuffer() { cudaFreeHost(data_); }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  T* data() { return data_; }
  const T* data() const { return data_; }

 private:
  T* data_ = nullptr;
};

double from_bits(unsigned long long bits) {
  double value = 0.0;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

// What both schemes share: the member-major v and w, the members' parameters (NodeParams and
// their kinetics, of the form of member 0, which every member shares), stimuli and frozen flags
// on the device, and the MemberBatch methods that need nothing else.
class MemberBatchCuda : public MemberBatch {
 public:
  MemberBatchCuda(const std::vector<Config>& configs, const std::vector<Problem>& problems)
      : members_(static_cast<index_t>(problems.size())),
        n_(problems.front().domain.node_count()),
        pitch_((n_ + 1) / 2 * 2),
        time_(problems.front().time),
        domain_(problems.front().domain),
        spec_(configs.front().scheme),
        v_(entries(), "sweep v"),
        w_(entries(), "sweep w"),
        params_(problems.size(), "sweep member parameters"),
        form_(problems.front().model.kinetics),
        frozen_(problems.size(), "sweep frozen flags"),
        first_bad_(problems.size(), "sweep non-finite search"),
        stimulus_count_(static_cast<int>(problems.front().stimuli.stimuli().size())),
        table_(problems.size() * static_cast<std::size_t>(stimulus_count_), "sweep stimuli"),
        frozen_host_(problems.size(), 0),
        member_step_(problems.size(), 0),
        device_name_(current_device_name()) {
    std::vector<NodeParams> params;
    std::vector<NodeStimulus> table;
    std::vector<real> v(entries(), 0.0), w(entries(), 0.0);
    for (index_t m = 0; m < members_; ++m) {
      const Problem& problem = problems[static_cast<std::size_t>(m)];
      FHN_VERIFY(problem.domain.node_count() == n_ && problem.time.dt == time_.dt &&
                     static_cast<int>(problem.stimuli.stimuli().size()) == stimulus_count_ &&
                     problem.model.kinetics.index() == form_.index(),
                 InternalError,
                 "cuda sweep: member " + std::to_string(m) +
                     " differs from member 0 in its node count, time step, number of stimuli or "
                     "kinetics form");
      params.push_back(node_params(problem));
      table.insert(table.end(), problem.stimuli.stimuli().begin(), problem.stimuli.stimuli().end());
      std::copy(problem.v0.begin(), problem.v0.end(), v.begin() + m * pitch_);
      std::copy(problem.w0.begin(), problem.w0.end(), w.begin() + m * pitch_);
    }
    params_.upload(params.data(), params.size());
    with_kinetics(form_, [&](const auto& kin) {
      using K = std::decay_t<decltype(kin)>;
      std::vector<K> kinetics;
      for (const Problem& problem : problems) kinetics.push_back(std::get<K>(problem.model.kinetics));
      kinetics_ = DeviceBuffer<unsigned char>(kinetics.size() * sizeof(K), "sweep member kinetics");
      kinetics_.upload(reinterpret_cast<const unsigned char*>(kinetics.data()),
                       kinetics.size() * sizeof(K));
    });
    if (!table.empty()) table_.upload(table.data(), table.size());
    v_.upload(v.data(), v.size());
    w_.upload(w.data(), w.size());
    FHN_CUDA_CHECK(cudaMemset(frozen_.data(), 0, frozen_.size() * sizeof(int)));
    stimulus_dt_ = problems.front().stimuli.dt();
    stimulus_tolerance_ = problems.front().stimuli.tolerance();
  }

  index_t members() const override { return members_; }
  index_t node_count() const override { return n_; }
  index_t steps_done() const override { return step_; }
  void synchronize() const override { FHN_CUDA_CHECK(cudaDeviceSynchronize()); }

  // One gather kernel and one copy; the device copy of `nodes` is kept for the next call.
  void sample(const std::vector<index_t>& nodes, std::vector<real>& out) override {
    for (const index_t node : nodes)
      FHN_VERIFY(node >= 0 && node < n_, InternalError,
                 "cuda sweep: sample node " + std::to_string(node) + " outside 0.." +
                     std::to_string(n_ - 1));
    out.resize(static_cast<std::size_t>(members_) * nodes.size());
    if (nodes.empty()) return;
    if (nodes != sample_nodes_) {
      sample_index_ = DeviceBuffer<index_t>(nodes.size(), "sweep sample nodes");
      sample_index_.upload(nodes.data(), nodes.size());
      sample_out_ = DeviceBuffer<real>(out.size(), "sweep samples");
      sample_nodes_ = nodes;
    }
    const auto count = static_cast<unsigned>(nodes.size());
    gather_kernel<<<blocks_for(static_cast<index_t>(out.size())), kBlock>>>(
        view(), v_.data(), sample_index_.data(), count, sample_out_.data());
    FHN_CUDA_CHECK_LAUNCH();
    sample_out_.download(out.data(), out.size());
  }

  // One search kernel and one copy of a flag per member; each member found is frozen where it
  // stands and reported as fhn run reports a non-finite solution.
  void check_finite() override {
    FHN_CUDA_CHECK(
        cudaMemset(first_bad_.data(), 0xff, first_bad_.size() * sizeof(unsigned long long)));
    first_non_finite_kernel<<<blocks_for(static_cast<index_t>(entries())), kBlock>>>(
        view(), v_.data(), w_.data(), frozen_.data(), first_bad_.data());
    FHN_CUDA_CHECK_LAUNCH();
    std::vector<unsigned long long> bad(first_bad_.size());
    first_bad_.download(bad.data(), bad.size());
    for (index_t m = 0; m < members_; ++m) {
      const unsigned long long node = bad[static_cast<std::size_t>(m)];
      if (node >= static_cast<unsigned long long>(n_) || frozen_host_[m]) continue;
      freeze(m);
      Snapshot snap;
      snapshot(m, snap);
      const auto i = static_cast<std::size_t>(node);
      failures_.push_back(
          {m, step_,
           "the solution stopped being finite: v = " + format_exact(snap.v[i]) + ", w = " +
               format_exact(snap.w[i]) + " at x = " +
               format_exact(snap.x()[static_cast<index_t>(i)]) + " (node " +
               std::to_string(node) + "), appeared between t = " +
               format_exact(time_.t(last_check_)) + " and t = " +
               format_exact(time_.t(step_)) + " (steps " +
               std::to_string(last_check_) + " to " + std::to_string(step_) + ")"});
    }
    last_check_ = step_;
  }

  std::vector<MemberFailure> take_failures() override {
    std::stable_sort(
        failures_.begin(), failures_.end(),
        [](const MemberFailure& a, const MemberFailure& b) { return a.member < b.member; });
    return std::exchange(failures_, {});
  }

  void snapshot(index_t member, Snapshot& out) const override {
    FHN_VERIFY(member >= 0 && member < members_, InternalError,
               "cuda sweep: no member " + std::to_string(member));
    const auto first = static_cast<std::size_t>(member * pitch_);
    const auto n = static_cast<std::size_t>(n_);
    out.step = frozen_host_[member] ? member_step_[member] : step_;
    out.t = time_.t(out.step);
    out.domain = domain_;
    out.nodes.clear();
    out.v.resize(n);
    out.w.resize(n);
    FHN_CUDA_CHECK(cudaMemcpy(out.v.data(), v_.data() + first, n * sizeof(real),
                              cudaMemcpyDeviceToHost));
    FHN_CUDA_CHECK(cudaMemcpy(out.w.data(), w_.data() + first, n * sizeof(real),
                              cudaMemcpyDeviceToHost));
  }

 protected:
  std::size_t entries() const { return static_cast<std::size_t>(members_ * pitch_); }
  Members view() const {
    return {static_cast<unsigned>(members_), static_cast<unsigned>(pitch_),
            static_cast<unsigned>(n_), params_.data(),
            StimulusTable{table_.data(), stimulus_count_, stimulus_dt_, stimulus_tolerance_}};
  }
  // Stops advancing member m (its state stays as it is now, at step_).
  void freeze(index_t m) {
    frozen_host_[m] = 1;
    member_step_[m] = step_;
    const int one = 1;
    FHN_CUDA_CHECK(cudaMemcpy(frozen_.data() + m, &one, sizeof one, cudaMemcpyHostToDevice));
  }
  // The members' kinetics as form K's (K: the type of `form`, form_'s alternative).
  template <class K>
  const K* kinetics_of(const K&) const {
    return reinterpret_cast<const K*>(kinetics_.data());
  }
  std::string members_text() const {
    return std::to_string(members_) + (members_ == 1 ? " member" : " members");
  }

  index_t members_, n_, pitch_;
  TimeGrid time_;  // member 0's; every member shares its dt (checked in the constructor)
  Domain domain_;  // member 0's; every member shares its grid
  SchemeSpec spec_;
  DeviceBuffer<real> v_, w_;
  DeviceBuffer<NodeParams> params_;
  Kinetics form_;                      // member 0's: the type of kinetics_'s entries
  DeviceBuffer<unsigned char> kinetics_;  // one of form_'s type per member
  DeviceBuffer<int> frozen_;
  DeviceBuffer<unsigned long long> first_bad_;  // per member: first non-finite node, ~0 none
  int stimulus_count_;
  real stimulus_dt_ = 0.0, stimulus_tolerance_ = 0.0;
  DeviceBuffer<NodeStimulus> table_;
  std::vector<char> frozen_host_;    // mirrors frozen_
  std::vector<index_t> member_step_;  // where a frozen member stopped
  std::vector<MemberFailure> failures_;
  std::string device_name_;
  index_t step_ = 0;
  index_t last_check_ = 0;  // step of the last check_finite()
  std::vector<index_t> sample_nodes_;
  DeviceBuffer<index_t> sample_index_;
  DeviceBuffer<real> sample_out_;
};

// Forward Euler: full passes of kStepsPerPass steps, then one shorter pass for the rest (as the
// single cable, so a member's result does not depend on how advance() is split). Frozen members
// are copied through by the kernel.
class ExplicitMembersCuda final : public MemberBatchCuda {
 public:
  ExplicitMembersCuda(const std::vector<Config>& configs, const std::vector<Problem>& problems)
      : MemberBatchCuda(configs, problems),
        v_next_(entries(), "sweep v (next)"),
        w_next_(entries(), "sweep w (next)") {}

  std::string name() const override {
    return "explicit forward Euler, " + members_text() + " (cuda, " + device_name_ + ")";
  }
  void advance(index_t steps) override {
    const Members b = view();
    const MemberArrays arrays{members_, pitch_, params_.data(), kinetics_.data(), frozen_.data()};
    while (steps > 0) {
      const int pass = static_cast<int>(std::min<index_t>(steps, kStepsPerPass));
      launch_explicit_members_blocked(v_.data(), w_.data(), v_next_.data(), w_next_.data(), n_,
                                      arrays, form_, b.stimuli, step_, pass);
      std::swap(v_, v_next_);
      std::swap(w_, w_next_);
      step_ += pass;
      steps -= pass;
    }
  }
  const NewtonStats* newton_stats(index_t) const override { return nullptr; }

 private:
  DeviceBuffer<real> v_next_, w_next_;
};

// Crank-Nicolson / Newton with the kernels above and one batched tridiagonal solve per iteration.
class CrankNicolsonMembersCuda final : public MemberBatchCuda {
 public:
  CrankNicolsonMembersCuda(const std::vector<Config>& configs, const std::vector<Problem>& problems)
      : MemberBatchCuda(configs, problems),
        cn_(spec_.crank_nicolson),
        max_iterations_(static_cast<int>(cn_.newton.max_iterations)),
        leapfrog_(cn_.w_update == WUpdate::leapfrog),
        solver_(solvers::make_batched_tridiagonal_solver(cn_.tridiagonal)),
        u_(entries(), "sweep Newton iterate"),
        p_(entries(), "sweep w offset"),
        rhs_(entries(), "sweep right-hand side"),
        residual_(entries(), "sweep Newton residual"),
        diag_(entries(), "sweep Jacobian diagonal"),
        lower_(entries(), "sweep Jacobian lower"),
        upper_(entries(), "sweep Jacobian upper"),
        w_previous_(leapfrog_ ? entries() : 0, "sweep w (previous)"),
        progress_(static_cast<std::size_t>(members_) * Progress::rows(max_iterations_),
                  "sweep Newton progress"),
        host_{PinnedBuffer<unsigned long long>(progress_.size()),
              PinnedBuffer<unsigned long long>(progress_.size())},
        stats_(static_cast<std::size_t>(members_)) {
    // J's off-diagonals, constant in time: per member, 0 in the padding.
    std::vector<real> lower(entries(), 0.0), upper(entries(), 0.0);
    for (index_t m = 0; m < members_; ++m)
      cn_off_diagonals(node_params(problems[m]), lower.data() + m * pitch_,
                     upper.data() + m * pitch_);
    lower_.upload(lower.data(), lower.size());
    upper_.upload(upper.data(), upper.size());
    FHN_CUDA_CHECK(cudaMemset(residual_.data(), 0, entries() * sizeof(real)));
    FHN_CUDA_CHECK(cudaMemset(diag_.data(), 0, entries() * sizeof(real)));
  }

  std::string name() const override {
    return "Crank-Nicolson/Newton, " + members_text() + " (cuda, " + device_name_ + ", " +
           std::string(solvers::backend_name(cn_.tridiagonal)) + ", w " +
           name_of(w_update_names(), cn_.w_update) + ")";
  }
  void advance(index_t steps) override {
    for (index_t s = 0; s < steps; ++s) step();
    record_stats();
  }
  const NewtonStats* newton_stats(index_t member) const override {
    return &stats_.at(static_cast<std::size_t>(member));
  }

 private:
  Progress progress() {
    return {progress_.data(), static_cast<unsigned>(members_), max_iterations_};
  }

  // Iteration j of every iterating member: assemble, one batched solve, update, check.
  void iteration(int j, bool leapfrog) {
    const Members b = view();
    const unsigned blocks = blocks_for(static_cast<index_t>(entries()));
    with_kinetics(form_, [&](const auto& kin) {
      assemble_kernel<<<blocks, kBlock>>>(b, kinetics_of(kin), u_.data(), p_.data(), rhs_.data(),
                                          leapfrog, residual_.data(), diag_.data(), progress(), j);
    });
    FHN_CUDA_CHECK_LAUNCH();
    solver_->solve(solvers::BatchLayout{n_, members_, 1, pitch_}, lower_.data(), diag_.data(),
                   upper_.data(), residual_.data());  // du
    update_kernel<<<blocks, kBlock>>>(b, u_.data(), residual_.data(), progress(), j);
    FHN_CUDA_CHECK_LAUNCH();
    check_kernel<<<blocks_for(members_), kBlock>>>(progress(), n_, j, cn_.newton.tolerance);
    FHN_CUDA_CHECK_LAUNCH();
  }

  void step() {
    const real t = time_.t(step_);
    const bool leapfrog = leapfrog_ && step_ > 0;
    const Members b = view();
    const unsigned blocks = blocks_for(static_cast<index_t>(entries()));
    with_kinetics(form_, [&](const auto& kin) {
      prepare_kernel<<<blocks, kBlock>>>(b, kinetics_of(kin), v_.data(), w_.data(),
                                         w_previous_.data(), t, leapfrog, frozen_.data(),
                                         p_.data(), rhs_.data(), u_.data(), progress());
    });
    FHN_CUDA_CHECK_LAUNCH();

    // Newton: a batch of iterations (as many as the last step needed), one copy of the flags and
    // norms, then single iterations while members still iterate. The previous step's statistics
    // are recorded while the first batch runs.
    PinnedBuffer<unsigned long long>& host = host_[step_ % 2];
    const Progress on_host{host.data(), static_cast<unsigned>(members_), max_iterations_};
    int launched = 0;
    int batch = std::max(1, last_iterations_);
    for (;;) {
      const int count = std::min(batch, max_iterations_ - launched);
      const std::size_t bytes =
          static_cast<std::size_t>(count) * members_ * sizeof(unsigned long long);
      FHN_CUDA_CHECK(cudaMemsetAsync(progress().du(launched), 0, bytes));
      FHN_CUDA_CHECK(cudaMemsetAsync(progress().residual(launched), 0, bytes));
      for (int j = launched; j < launched + count; ++j) iteration(j, leapfrog);
      launched += count;
      FHN_CUDA_CHECK(cudaMemcpyAsync(host.data(), progress_.data(),
                                     static_cast<std::size_t>(members_) *
                                         (Progress::kFlagRows + launched) *
                                         sizeof(unsigned long long),
                                     cudaMemcpyDeviceToHost));
      record_stats();
      FHN_CUDA_CHECK(cudaStreamSynchronize(0));
      if (launched >= max_iterations_ || !any_iterating(on_host)) break;
      batch = 1;
    }

    // Members that did not converge are frozen at v^n, w^n (accept_kernel) and reported.
    int most = 0;
    std::vector<real> residuals;  // rows of ||F||_inf, copied only when a member failed
    for (index_t m = 0; m < members_; ++m) {
      const unsigned long long state = on_host.state()[m];
      if (state == kFrozen) continue;
      if (state == kConverged) {
        most = std::max(most, static_cast<int>(on_host.iterations()[m]));
        continue;
      }
      if (residuals.empty()) residuals = residual_rows(launched);
      failures_.push_back({m, step_, failure_reason(on_host, residuals, m, t)});
      frozen_host_[m] = 1;
      member_step_[m] = step_;
    }
    last_iterations_ = most;
    pending_ = static_cast<int>(step_ % 2);

    // Accept: v+ = u (a buffer swap), w+ = p + c u; leapfrog keeps w^n as the previous w.
    std::swap(v_, u_);
    if (leapfrog_) std::swap(w_, w_previous_);
    with_kinetics(form_, [&](const auto& kin) {
      accept_kernel<<<blocks, kBlock>>>(b, kinetics_of(kin), p_.data(), v_.data(), u_.data(),
                                        w_.data(), w_previous_.data(), leapfrog, leapfrog_,
                                        frozen_.data(), progress());
    });
    FHN_CUDA_CHECK_LAUNCH();
    ++step_;
  }

  static bool any_iterating(const Progress& on_host) {
    const unsigned long long* state = on_host.state();
    return std::any_of(state, state + on_host.members,
                       [](unsigned long long s) { return s == kIterating; });
  }

  // Rows 0 .. launched - 1 of ||F||_inf as numbers (synchronises).
  std::vector<real> residual_rows(int launched) {
    std::vector<unsigned long long> bits(static_cast<std::size_t>(launched) * members_);
    FHN_CUDA_CHECK(cudaMemcpy(bits.data(), progress().residual(0),
                              bits.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    std::vector<real> rows(bits.size());
    std::transform(bits.begin(), bits.end(), rows.begin(), from_bits);
    return rows;
  }

  // As fhn run reports it: the matrix lost diagonal dominance, or Newton did not converge
  // (norms not finite included) with the member's history.
  std::string failure_reason(const Progress& on_host, const std::vector<real>& residuals,
                             index_t m, real t) {
    NewtonStep newton(cn_.newton, step_, t, time_.dt, nullptr, stats_[static_cast<std::size_t>(m)]);
    const unsigned long long bad_row = on_host.bad_row()[m];
    if (bad_row < static_cast<unsigned long long>(n_))
      return newton.not_dominant(static_cast<index_t>(bad_row)).what();
    const auto iterations = static_cast<int>(on_host.iterations()[m]);
    for (int j = 0; j < iterations; ++j)
      newton.record(from_bits(on_host.du(j)[m]),
                    residuals[static_cast<std::size_t>(j) * members_ + m]);
    return newton.failure().what();
  }

  // The Newton statistics of the step whose flags and norms wait in host_[pending_]: the ||du||
  // history of every member that converged.
  void record_stats() {
    if (pending_ < 0) return;
    const Progress on_host{host_[pending_].data(), static_cast<unsigned>(members_),
                           max_iterations_};
    std::vector<real> du;
    for (index_t m = 0; m < members_; ++m) {
      if (on_host.state()[m] != kConverged) continue;
      du.resize(static_cast<std::size_t>(on_host.iterations()[m]));
      for (std::size_t j = 0; j < du.size(); ++j)
        du[j] = from_bits(on_host.du(static_cast<int>(j))[m]);
      stats_[static_cast<std::size_t>(m)].add_step(du);
    }
    pending_ = -1;
  }

  CrankNicolsonSpec cn_;
  int max_iterations_;
  bool leapfrog_;
  std::unique_ptr<solvers::BatchedTridiagonalSolver> solver_;
  DeviceBuffer<real> u_, p_, rhs_, residual_, diag_, lower_, upper_, w_previous_;
  DeviceBuffer<unsigned long long> progress_;
  PinnedBuffer<unsigned long long> host_[2];  // the flags and norms of the last two steps
  int pending_ = -1;                          // host_ entry whose statistics are not recorded
  std::vector<NewtonStats> stats_;
  int last_iterations_ = 3;
};

// The schemes the cuda sweep batches; ConfigError naming the key otherwise.
void check_batchable(const Config& config, const Problem& problem) {
  const std::string supported =
      "; the cuda sweep supports scheme.type explicit and crank_nicolson with formulation "
      "newton and tridiagonal partitioned or cusparse, on a cable";
  FHN_VERIFY(problem.domain.dims == 1, ConfigError,
             "domain: the cuda sweep runs cables, not sheets" + supported);
  const SchemeSpec& s = config.scheme;
  FHN_VERIFY(s.type == SchemeType::explicit_euler || s.type == SchemeType::crank_nicolson,
             ConfigError,
             "scheme.type: " + name_of(scheme_type_names(), s.type) +
                 " cannot be swept on the cuda backend" + supported);
  if (s.type != SchemeType::crank_nicolson) return;
  FHN_VERIFY(s.crank_nicolson.formulation == Formulation::newton, ConfigError,
             "scheme.crank_nicolson.formulation: " +
                 name_of(formulation_names(), s.crank_nicolson.formulation) +
                 " cannot be swept on the cuda backend" + supported);
  const solvers::TridiagonalBackend backend = s.crank_nicolson.tridiagonal;
  FHN_VERIFY(backend == solvers::TridiagonalBackend::partitioned ||
                 backend == solvers::TridiagonalBackend::cusparse,
             ConfigError,
             "scheme.crank_nicolson.tridiagonal: " + std::string(solvers::backend_name(backend)) +
                 " has no batched GPU form" + supported);
}

}  // namespace
}  // namespace fhn::cuda

namespace fhn {

std::unique_ptr<MemberBatch> make_cuda_member_batch(const std::vector<Config>& configs,
                                                    const std::vector<Problem>& problems) {
  FHN_VERIFY(!configs.empty() && configs.size() == problems.size(), InternalError,
             "cuda sweep: " + std::to_string(configs.size()) + " configs for " +
                 std::to_string(problems.size()) + " problems");
  cuda::check_batchable(configs.front(), problems.front());
  const index_t pitch = (problems.front().domain.node_count() + 1) / 2 * 2;
  FHN_VERIFY(static_cast<double>(pitch) * static_cast<double>(problems.size()) < 2147483648.0,
             DeviceError,
             "cuda sweep: " + std::to_string(problems.size()) + " members of " +
                 std::to_string(problems.front().domain.node_count()) +
                 " nodes exceed 2^31 nodes in one batch; split the sweep into smaller batches");
  cuda::require_device();
  if (configs.front().scheme.type == SchemeType::explicit_euler)
    return std::make_unique<cuda::ExplicitMembersCuda>(configs, problems);
  return std::make_unique<cuda::CrankNicolsonMembersCuda>(configs, problems);
}

}  // namespace fhn
