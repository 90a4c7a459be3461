// Crank-Nicolson / Newton over the members of a sweep (member_batch_cuda.cuh has the batch's
// layout and the byte counts of the kernels): the kernels of crank_nicolson_kernels.cuh, shared
// with the single run, over the members (CableMembers) with per-member Newton progress
// (MemberNewton, MemberOutcome); here the host schedule (batches of iterations, per-member
// freezing and failures) and one batched tridiagonal solve per iteration.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "config/names.hpp"
#include "core/cuda/block_reduce.cuh"
#include "core/cuda/launch.hpp"
#include "core/cuda/pinned_buffer.hpp"
#include "schemes/cuda/crank_nicolson_kernels.cuh"
#include "schemes/cuda/member_batch_cuda.cuh"
#include "schemes/newton.hpp"
#include "solvers/batched_tridiagonal.hpp"

namespace fhn::cuda {
namespace {

// ---- Host side ------------------------------------------------------------------------------

// Crank-Nicolson / Newton with the kernels of crank_nicolson_kernels.cuh over the members
// (CableMembers, MemberNewton) and one batched tridiagonal solve per iteration.
class CrankNicolsonMembersCuda final : public MemberBatchCuda {
 public:
  CrankNicolsonMembersCuda(const std::vector<Problem>& problems, const SchemeSpec& spec)
      : MemberBatchCuda(problems, spec),
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
    for (index_t s = 0; s < steps; ++s) {
      step();
      if (recording()) record_crossings(step_ - 1);
    }
    record_stats();
  }
  const NewtonStats* newton_stats(index_t member) const override {
    return &stats_.at(static_cast<std::size_t>(member));
  }

 private:
  Progress progress() {
    return {progress_.data(), static_cast<unsigned>(members_), max_iterations_};
  }

  // The members with their kinetics (form K's), W(u) = p in a leapfrog step.
  template <class K>
  CableMembers<K> cable(const K& form, bool leapfrog) const {
    return {view(), kinetics_of(form), leapfrog};
  }
  // Iteration j's record (j = 0 for a step's start and end).
  MemberNewton record(int j = 0) { return {progress(), frozen_.data(), n_, j}; }

  // Iteration j of every iterating member: assemble, one batched solve, update, check.
  void iteration(int j, bool leapfrog) {
    const unsigned blocks = blocks_for(static_cast<index_t>(entries()));
    with_kinetics(form_, [&](const auto& kin) {
      assemble_kernel<<<blocks, kBlock>>>(cable(kin, leapfrog), u_.data(), p_.data(), rhs_.data(),
                                          residual_.data(), diag_.data(), record(j));
      FHN_CUDA_CHECK_LAUNCH();
      solver_->solve(solvers::BatchLayout{n_, members_, 1, pitch_}, lower_.data(), diag_.data(),
                     upper_.data(), residual_.data());  // du
      update_kernel<<<blocks, kBlock>>>(cable(kin, leapfrog), u_.data(), residual_.data(),
                                        record(j));
      FHN_CUDA_CHECK_LAUNCH();
    });
    check_kernel<<<blocks_for(members_), kBlock>>>(record(j), cn_.newton.tolerance);
    FHN_CUDA_CHECK_LAUNCH();
  }

  void step() {
    const real t = time_.t(step_);
    const bool leapfrog = leapfrog_ && step_ > 0;
    const unsigned blocks = blocks_for(static_cast<index_t>(entries()));
    with_kinetics(form_, [&](const auto& kin) {
      prepare_kernel<<<blocks, kBlock>>>(cable(kin, leapfrog), v_.data(), StoredW{w_.data()},
                                         w_previous_.data(), t, leapfrog, p_.data(), rhs_.data(),
                                         u_.data(), record());
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
      accept_kernel<<<blocks, kBlock>>>(
          cable(kin, leapfrog), p_.data(), v_.data(), w_.data(),
          MemberOutcome{progress(), u_.data(), w_previous_.data(), leapfrog_, frozen_.data()});
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

std::unique_ptr<MemberBatch> make_crank_nicolson_members_cuda(const std::vector<Problem>& problems,
                                                              const SchemeSpec& spec) {
  return std::make_unique<CrankNicolsonMembersCuda>(problems, spec);
}

}  // namespace fhn::cuda
