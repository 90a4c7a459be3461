// Crank-Nicolson by Strang splitting (scheme.crank_nicolson.formulation: adi) over the members of
// a sweep (member_batch_cuda.cuh): the kernels of a single run (adi_kernels.cuh) with a member
// dimension, and the diffusion's line solves batched over members x lines. Per step, as AdiCuda:
//   reaction k/2 (every member's nodes, its own kinetics and stimuli; fused with the next
//   step's first half), then the diffusion: on a sheet
//     rhs_ = (I + (k/2) D_m dyy) v       (adi_rhs_kernel, every member)
//     solve along x: the rows of every member        (I - (k/2) D_m dxx) v* = rhs_
//     v = (I + (k/2) D_m dxx) v*
//     solve along y: the columns of every member     (I - (k/2) D_m dyy) v+ = v
//   and on a cable one right side and one solve along x (then v and rhs_ swap).
// The line matrices are constant but a member's D and its sides' types make its own. Member m's
// lines are a plane of the batch (pitch apart). With the partitioned solver every distinct matrix
// of an axis is factored once into one solver, which takes each plane's matrix from a per-member
// index (BatchedPartitionedSolver::set_matrices): every member's rows in one call and every
// member's columns in one call, whatever the members' D. With cuSPARSE the members that share a
// matrix share a solver, and consecutive members with one matrix are solved in one call (a sweep
// over D: member by member).
//
// The reaction logs (adi_kernels.cuh, one per member and step) are read back once per batch of
// log steps; the host records each member's Newton statistics from them while the device runs
// the next batch. A member whose Newton iteration fails at a node is reported with that step
// and the history fhn run gives; it is frozen when the host reads that log (at most two batches
// of log steps later: its state is then where it stood, not its last accepted one) and left out
// of every later kernel and solve (the right sides copy its values through).
//
// Bytes per node and step, as AdiCuda on one sheet: 96 (reaction 32, right sides 2 x 16, solves
// 2 x 16; the partitioned solver reads the right sides twice: 2 x 24). Device memory per node:
// v, w, the right side (24 B) and the partitioned solvers' interface values (about 4 B per
// axis); besides, two buffers of reaction logs (kLogBytes each, and as much pinned host memory).
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "core/cuda/cuda_check.hpp"
#include "core/cuda/pinned_buffer.hpp"
#include "schemes/adi_setup.hpp"
#include "schemes/cuda/adi_kernels.cuh"
#include "schemes/cuda/member_batch_cuda.cuh"
#include "solvers/batched_tridiagonal.hpp"
#include "solvers/cuda/batched_partitioned.hpp"

namespace fhn::cuda {
namespace {

// The logs one batch of steps keeps on the device (and in pinned host memory, twice over):
// steps x members entries of ReactionLog, at most this many bytes, at most kMaxLogSteps steps.
constexpr std::size_t kLogBytes = std::size_t{16} << 20;
constexpr index_t kMaxLogSteps = 256;

class AdiMembersCuda final : public MemberBatchCuda {
 public:
  AdiMembersCuda(const std::vector<Problem>& problems, const SchemeSpec& spec)
      : MemberBatchCuda(problems, spec),
        cn_(spec_.crank_nicolson),
        shape_(node_params(problems.front())),
        rhs_(entries(), "sweep ADI right side"),
        r_(problems.size(), "sweep ADI r"),
        log_steps_(std::clamp<index_t>(
            static_cast<index_t>(kLogBytes / (sizeof(ReactionLog) * problems.size())), 1, kMaxLogSteps)),
        log_device_{DeviceBuffer<ReactionLog>(log_entries(), "sweep reaction logs"),
                    DeviceBuffer<ReactionLog>(log_entries(), "sweep reaction logs")},
        log_host_{PinnedBuffer<ReactionLog>(log_entries()), PinnedBuffer<ReactionLog>(log_entries())},
        stats_(problems.size()) {
    std::vector<real> r;
    for (index_t m = 0; m < members_; ++m) {
      const AdiSetup setup = adi_setup(problems[static_cast<std::size_t>(m)], cn_);
      if (m == 0) reaction_ = setup.reaction;  // h = dt / 2 and the Newton settings: shared
      r.push_back(setup.r);
      for (int axis = 0; axis < domain_.dims; ++axis) add_member_matrix(axis, setup);
    }
    r_.upload(r.data(), r.size());
    for (int axis = 0; axis < domain_.dims; ++axis) make_solvers(axis);
    int device = 0;
    FHN_CUDA_CHECK(cudaGetDevice(&device));
    FHN_CUDA_CHECK(cudaDeviceGetAttribute(&sms_, cudaDevAttrMultiProcessorCount, device));
  }

  std::string name() const override {
    return std::string("Crank-Nicolson by Strang splitting, diffusion by ") +
           (domain_.dims == 2 ? "Peaceman-Rachford ADI on a sheet" : "Crank-Nicolson") + ", " +
           members_text() + " (cuda, " + device_name_ + ", " +
           std::string(solvers::backend_name(cn_.tridiagonal)) + ")";
  }

  // Batches of log_steps_ steps, as AdiCuda::advance: a step's second reaction half-step and the
  // next step's first in one pass (s + 1 passes for s steps). Batch b's logs go to buffer b % 2;
  // while the device runs batch b the host records batch b - 1's. While a member records
  // activation times, each step's halves run apart (the same operations per node, so the same
  // bits), so that v^{n+1} lands in memory for the crossing test.
  void advance(index_t steps) override {
    while (steps > 0) {
      update_runs();
      const index_t batch = std::min(steps, log_steps_);
      const int buffer = static_cast<int>(batches_ % 2);
      ReactionLog* logs = log_device_[buffer].data();
      const auto stride = static_cast<std::size_t>(members_);  // one step's entries
      FHN_CUDA_CHECK(cudaMemsetAsync(logs, 0, static_cast<std::size_t>(batch) * stride * sizeof(ReactionLog)));
      const index_t first = step_;
      const real k = time_.dt;
      react({time_.t(step_), 0.0}, {LogSlot{logs, 0}, LogSlot{}}, 1);
      for (index_t s = 0; s < batch; ++s, ++step_) {
        diffuse();
        const real half = time_.t(step_) + 0.5 * k;  // the second half-step's start
        ReactionLog* now = logs + static_cast<std::size_t>(s) * stride;
        if (s + 1 < batch && !recording()) {
          react({half, time_.t(step_ + 1)}, {LogSlot{now, 1}, LogSlot{now + stride, 0}}, 2);
          continue;
        }
        react({half, 0.0}, {LogSlot{now, 1}, LogSlot{}}, 1);
        if (!recording()) continue;
        record_crossings(step_);
        if (s + 1 < batch)
          react({time_.t(step_ + 1), 0.0}, {LogSlot{now + stride, 0}, LogSlot{}}, 1);
      }
      FHN_CUDA_CHECK(cudaMemcpyAsync(log_host_[buffer].data(), logs,
                                     static_cast<std::size_t>(batch) * stride * sizeof(ReactionLog),
                                     cudaMemcpyDeviceToHost));
      FHN_CUDA_CHECK(cudaEventRecord(copied_[buffer].event));
      record_pending();  // the previous batch's, while this one runs
      pending_ = {buffer, first, batch};
      ++batches_;
      steps -= batch;
    }
    record_pending();
  }

  const NewtonStats* newton_stats(index_t member) const override {
    return &stats_.at(static_cast<std::size_t>(member));
  }

 private:
  // A line matrix of one axis and (cuSPARSE) the solver that has it factored.
  struct Matrix {
    std::vector<real> lower, diag, upper;
    std::unique_ptr<solvers::BatchedTridiagonalSolver> solver;
  };
  // Consecutive members [first, first + count) that are not frozen (and, with cuSPARSE, share a
  // matrix: its solver).
  struct Run {
    index_t first, count;
    solvers::BatchedTridiagonalSolver* solver;
  };
  // A batch whose logs wait in log_host_[buffer] (buffer -1: none).
  struct Pending {
    int buffer = -1;
    index_t first_step = 0, steps = 0;
  };
  // A CUDA event, destroyed with its owner.
  struct Event {
    cudaEvent_t event = nullptr;
    Event() { FHN_CUDA_CHECK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming)); }
    ~Event() { cudaEventDestroy(event); }
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
  };

  std::size_t log_entries() const { return static_cast<std::size_t>(log_steps_ * members_); }

  // Member m's matrix along `axis` (the next member): an equal one seen before, or a new one.
  void add_member_matrix(int axis, const AdiSetup& setup) {
    std::vector<Matrix>& known = matrices_[axis];
    const auto same = [&](const Matrix& x) {
      return x.lower == setup.lower[axis] && x.diag == setup.diag[axis] && x.upper == setup.upper[axis];
    };
    auto found = std::find_if(known.begin(), known.end(), same);
    if (found == known.end()) {
      known.push_back({setup.lower[axis], setup.diag[axis], setup.upper[axis], nullptr});
      found = known.end() - 1;
    }
    matrix_of_[axis].push_back(static_cast<int>(found - known.begin()));
  }

  // The solvers of `axis`, their matrices factored: the partitioned solver with every matrix and
  // the members' indices on the device, or one cuSPARSE solver per matrix.
  void make_solvers(int axis) {
    const index_t n = domain_.nodes[axis];
    std::vector<Matrix>& known = matrices_[axis];
    if (cn_.tridiagonal == solvers::TridiagonalBackend::partitioned) {
      std::vector<real> lower, diag, upper;
      for (const Matrix& x : known) {
        lower.insert(lower.end(), x.lower.begin(), x.lower.end());
        diag.insert(diag.end(), x.diag.begin(), x.diag.end());
        upper.insert(upper.end(), x.upper.begin(), x.upper.end());
      }
      shared_[axis] = std::make_unique<solvers::BatchedPartitionedSolver>();
      shared_[axis]->set_matrices(lower.data(), diag.data(), upper.data(), n,
                                  static_cast<index_t>(known.size()));
      plane_matrix_[axis] = DeviceBuffer<int>(matrix_of_[axis].size(), "sweep ADI line matrices");
      plane_matrix_[axis].upload(matrix_of_[axis].data(), matrix_of_[axis].size());
      return;
    }
    for (Matrix& x : known) {  // cusparse (check_batchable refused the others)
      x.solver = solvers::make_batched_tridiagonal_solver(cn_.tridiagonal);
      x.solver->set_matrix(x.lower.data(), x.diag.data(), x.upper.data(), n);
    }
  }

  // The runs of every axis, again when members were frozen since they were made.
  void update_runs() {
    const auto frozen = static_cast<index_t>(std::count(frozen_host_.begin(), frozen_host_.end(), 1));
    if (frozen == runs_frozen_ && !runs_[0].empty()) return;
    for (int axis = 0; axis < domain_.dims; ++axis) {
      runs_[axis].clear();
      for (index_t m = 0; m < members_; ++m) {
        if (frozen_host_[m]) continue;
        solvers::BatchedTridiagonalSolver* solver =
            shared_[axis] ? nullptr
                          : matrices_[axis][static_cast<std::size_t>(matrix_of_[axis][static_cast<std::size_t>(m)])]
                                .solver.get();
        std::vector<Run>& runs = runs_[axis];
        if (!runs.empty() && runs.back().first + runs.back().count == m && runs.back().solver == solver)
          ++runs.back().count;
        else
          runs.push_back({m, 1, solver});
      }
    }
    runs_frozen_ = frozen;
  }

  AdiMembers members_view(index_t first) const {
    return {first, pitch_, params_.data(), kinetics_.data(), r_.data(), frozen_.data()};
  }

  // A reaction pass over every member (AdiCuda::react): blocks of a member's rows along y, as
  // many as make about kReactionBlocksPerSm blocks per SM over the batch, the members along z.
  void react(Pair<real> times, Pair<LogSlot> slots, int halves) {
    const unsigned row_blocks = reaction_row_blocks(shape_.n[0]);
    const index_t per_member = std::clamp<index_t>(
        kReactionBlocksPerSm * sms_ / (row_blocks * members_), 1, shape_.planes);
    const StimulusTable table = view().stimuli;
    with_kinetics(form_, [&](const auto& kin) {
      using K = std::decay_t<decltype(kin)>;
      auto* kernel = halves == 2 ? reaction_kernel<false, false, true, 2, K>
                                 : reaction_kernel<false, false, true, 1, K>;
      for_grid_z_chunks(members_, [&](index_t first, unsigned count) {
        kernel<<<dim3(row_blocks, static_cast<unsigned>(per_member), count), kReactionThreads>>>(
            v_.data(), w_.data(), nullptr, shape_, kin, ReactionMedium{}, members_view(first),
            reaction_, table, times, slots);
        FHN_CUDA_CHECK_LAUNCH();
      });
    });
  }

  // out = in + (r_m/2) d(in) along `axis` for every member (a frozen one copied through).
  void right_sides(const real* in, real* out, int axis) {
    const auto row_blocks = static_cast<unsigned>((shape_.n[0] + kBlock - 1) / kBlock);
    for_grid_z_chunks(members_, [&](index_t first, unsigned count) {
      adi_rhs_kernel<true><<<dim3(row_blocks, static_cast<unsigned>(shape_.planes), count), kBlock>>>(
          in, out, shape_, 0.0, axis, members_view(first));
      FHN_CUDA_CHECK_LAUNCH();
    });
  }

  // The lines along `axis` of the run's members, in place in `x` (member m's at m pitch), one
  // plane per member: a cable's or a sheet's rows (contiguous) or a sheet's columns (interleaved).
  // The partitioned solver takes each plane's matrix (and addresses members that lie end to end
  // as one plane); a cuSPARSE run shares one matrix, and its rows are laid out as one batch where
  // they can be (cuSPARSE solves a batch of planes plane by plane).
  void solve(const Run& run, int axis, real* x) const {
    const index_t nx = shape_.n[0], ny = shape_.planes;
    const solvers::BatchLayout planes =
        axis == 0 ? solvers::BatchLayout{nx, ny, 1, nx, run.count, pitch_}
                  : solvers::BatchLayout{ny, nx, nx, 1, run.count, pitch_};
    real* first = x + run.first * pitch_;
    if (shared_[axis]) {
      shared_[axis]->solve(planes, plane_matrix_[axis].data() + run.first, first);
      return;
    }
    if (axis == 0 && ny == 1)
      run.solver->solve(solvers::BatchLayout{nx, run.count, 1, pitch_}, first);
    else if (axis == 0 && pitch_ == nx * ny)
      run.solver->solve(solvers::BatchLayout::rows(nx, ny * run.count), first);
    else
      run.solver->solve(planes, first);
  }

  // The diffusion over one step (AdiCuda::diffuse) for every member that is not frozen.
  void diffuse() {
    if (domain_.dims == 1) {
      right_sides(v_.data(), rhs_.data(), 0);
      for (const Run& run : runs_[0]) solve(run, 0, rhs_.data());
      std::swap(v_, rhs_);
      return;
    }
    right_sides(v_.data(), rhs_.data(), 1);  // (I - (k/2) D dxx) v* = (I + (k/2) D dyy) v
    for (const Run& run : runs_[0]) solve(run, 0, rhs_.data());
    right_sides(rhs_.data(), v_.data(), 0);  // (I - (k/2) D dyy) v+ = (I + (k/2) D dxx) v*
    for (const Run& run : runs_[1]) solve(run, 1, v_.data());
  }

  // The Newton statistics of the pending batch's steps, member by member in step order; the
  // first stage whose Newton failed at a node ends the member's: it is reported with fhn run's
  // message and frozen (here, where its state now stands).
  void record_pending() {
    if (pending_.buffer < 0) return;
    FHN_CUDA_CHECK(cudaEventSynchronize(copied_[pending_.buffer].event));
    const ReactionLog* logs = log_host_[pending_.buffer].data();
    for (index_t m = 0; m < members_; ++m) {
      if (frozen_host_[m]) continue;
      NewtonStats& stats = stats_[static_cast<std::size_t>(m)];
      for (index_t s = 0; s < pending_.steps && !frozen_host_[m]; ++s) {
        const ReactionLog& entry = logs[static_cast<std::size_t>(s * members_ + m)];
        for (int stage = 0; stage < 2; ++stage) {
          const index_t step = pending_.first_step + s;
          NewtonStep newton(cn_.newton, step, time_.t(step), time_.dt, nullptr, stats, stage);
          if (record_reaction_stage(entry, stage, newton)) {
            newton.finish(true);  // as AdiCuda::record_newton
            continue;
          }
          failures_.push_back({m, step, newton.failure().what()});
          freeze(m);
          break;
        }
      }
    }
    pending_ = {};
  }

  CrankNicolsonSpec cn_;
  NodeParams shape_;  // the members' common grid (member 0's parameters; the kernels read each member's own)
  DeviceBuffer<real> rhs_;
  DeviceBuffer<real> r_;  // per member: k D / h^2
  ReactionParams reaction_;
  std::vector<Matrix> matrices_[2];  // per axis: the distinct line matrices
  std::vector<int> matrix_of_[2];    // per axis and member: its entry of matrices_
  // Partitioned: per axis the solver with every matrix and matrix_of_ on the device.
  std::unique_ptr<solvers::BatchedPartitionedSolver> shared_[2];
  DeviceBuffer<int> plane_matrix_[2];
  std::vector<Run> runs_[2];
  index_t runs_frozen_ = -1;  // frozen members when runs_ was made
  index_t log_steps_;
  DeviceBuffer<ReactionLog> log_device_[2];
  PinnedBuffer<ReactionLog> log_host_[2];
  Event copied_[2];
  Pending pending_;
  index_t batches_ = 0;
  std::vector<NewtonStats> stats_;
  int sms_ = 1;
};

}  // namespace

std::unique_ptr<MemberBatch> make_adi_members_cuda(const std::vector<Problem>& problems,
                                                   const SchemeSpec& spec) {
  return std::make_unique<AdiMembersCuda>(problems, spec);
}

}  // namespace fhn::cuda
