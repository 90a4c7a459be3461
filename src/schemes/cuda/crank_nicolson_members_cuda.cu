// Crank-Nicolson / Newton over the members of a sweep (member_batch_cuda.cuh has the batch's
// layout and the byte counts of these kernels): per-member Newton progress, one batched
// tridiagonal solve per iteration.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "config/names.hpp"
#include "core/cuda/block_reduce.cuh"
#include "core/cuda/launch.hpp"
#include "core/cuda/pinned_buffer.hpp"
#include "schemes/cuda/member_batch_cuda.cuh"
#include "schemes/newton.hpp"
#include "solvers/batched_tridiagonal.hpp"

namespace fhn::cuda {
namespace {

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

// c of w+ = W(u) (trapezoidal_w_point.hpp): the trapezoidal rule's, or 0 in a leapfrog step.
template <class K>
__device__ inline real w_coefficient(const NodeParams& q, const K& kin, bool leapfrog) {
  return leapfrog ? 0.0 : trapezoidal_w(kin, q.k).c;
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
  const TrapezoidalW<K> trap = trapezoidal_w(kin, q.k);
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
// takes w+ = W(u) (its v+ = u is already in v, confined first for a form that needs it,
// kinetics/barkley.hpp); any other gets v^n back from `v_old` (u's buffer now) and, leapfrog,
// w^n from `w_previous`, and is frozen.
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
    if constexpr (K::kConfined) v[g] = kinetics[m].confine(v[g]);
    const K kin = kinetics[m];
    w[g] = trapezoidal_w_at(kin, v[g], p[g], w_coefficient(b.params[m], kin, leapfrog));
  } else {
    v[g] = v_old[g];
    if (w_swapped) w[g] = w_previous[g];
  }
}

// ---- Host side ------------------------------------------------------------------------------

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
    std::transform(bits.begin(), bits.end(), rows.begin(), norm_from_bits);
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
      newton.record(norm_from_bits(on_host.du(j)[m]),
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
        du[j] = norm_from_bits(on_host.du(static_cast<int>(j))[m]);
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

}  // namespace

std::unique_ptr<MemberBatch> make_crank_nicolson_members_cuda(const std::vector<Config>& configs,
                                                              const std::vector<Problem>& problems) {
  return std::make_unique<CrankNicolsonMembersCuda>(configs, problems);
}

}  // namespace fhn::cuda
