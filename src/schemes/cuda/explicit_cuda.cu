// Forward Euler on the GPU, state resident on the device: the temporally blocked kernels of
// explicit_kernels.cu (cable) and explicit_sheet_kernels.cu (sheet) advance several steps per
// pass over memory, stimuli computed in the kernel from the device stimulus table; so does the
// box's (explicit_box_kernels.cu). A sheet and a box also run on slabs, one rank (and GPU) each,
// halos exchanged between passes.
#include <algorithm>
#include <string>

#include "core/cuda/stream.hpp"
#include "model/tissue.hpp"
#include "parallel/cuda/device_halo_exchange.hpp"
#include "schemes/cuda/cuda_scheme_factories.hpp"
#include "schemes/cuda/device_fields.cuh"
#include "schemes/cuda/explicit_box_kernels.cuh"
#include "schemes/cuda/explicit_kernels.cuh"
#include "schemes/cuda/explicit_sheet_kernels.cuh"
#include "schemes/cuda/explicit_tissue_kernels.cuh"

namespace fhn::cuda {
namespace {

// Whether a stimulus of `problem` is on at t = s dt for some step s of [first, first + steps)
// (the kernels' t and the schedule's tolerance): a pass without takes the kernel without
// stimulus code (I = 0 either way, bit for bit).
bool stimulus_on(const Problem& problem, index_t first, int steps) {
  for (const NodeStimulus& s : problem.stimuli.stimuli())
    for (index_t step = first; step < first + steps; ++step)
      if (problem.stimuli.active(s, problem.time.t(step))) return true;
  return false;
}

class ExplicitCuda final : public DeviceScheme {
 public:
  explicit ExplicitCuda(const Problem& problem)
      : DeviceScheme(problem),
        params_(node_params(problem)),
        v_next_(problem.domain.node_count(), "v (next)"),
        w_next_(problem.domain.node_count(), "w (next)") {}

  std::string name() const override { return "explicit forward Euler (cuda, " + device_name_ + ")"; }
  index_t steps_per_pass() const override { return kStepsPerPass; }

  // Full passes of kStepsPerPass steps, then one shorter pass for the rest, launched back to
  // back; nothing waits for the device here. Every step goes through the same kernel, so the
  // result does not depend on how the steps are split between advance() calls (restarts).
  void advance(index_t steps) override {
    const StimulusTable table = stimuli_.view();
    while (steps > 0) {
      const int pass = static_cast<int>(std::min<index_t>(steps, kStepsPerPass));
      launch_explicit_steps_blocked(fields_.v(), fields_.w(), v_next_.data(), w_next_.data(),
                                    params_, problem_.model.kinetics, table, step_, pass);
      std::swap(fields_.v_buffer(), v_next_);
      std::swap(fields_.w_buffer(), w_next_);
      step_ += pass;
      steps -= pass;
    }
  }


 private:
  NodeParams params_;
  DeviceBuffer<real> v_next_, w_next_;
};

// The same on a sheet: the blocked kernel of explicit_sheet_kernels.cu, kExplicitSheetStepsPerPass
// steps per pass, the rest by one shorter pass; on the whole sheet, or on one rank's slab of it.
//
// A slab (rank r of P, parallel/decomposition.hpp) holds its owned rows [first, first + count)
// and halo = kExplicitSheetStepsPerPass rows on each side. A pass of K <= halo steps makes an
// owned row exact when the K rows beyond it on each side are (explicit_sheet_kernels.cuh), so:
//   1. the halos of v AND w are refreshed to depth K (w too: a halo row's v at sub-step s + 1
//      reads its w at sub-step s), on the communication stream, while
//   2. the rows at least K from a neighbour's, [first + K_below, first + count - K_above) (K_side
//      = K where that neighbour exists, else 0), are computed on the compute stream from the
//      owned rows alone (the halos being written are not read);
//   3. after the exchange, the edge strips [first, first + K) and [first + count - K,
//      first + count) next to a neighbour are computed from the owned and halo rows.
// Events order the streams: the exchange waits for the previous pass (its owned rows), the strips
// for the exchange; the host waits for nothing (NCCL), or for the copies out (host staging).
// Every rank owns at least 2 x halo rows (make_slab's min_planes): the strips never overlap.
// The whole sheet is the slab of one rank: step 2 alone, over every row.
class ExplicitSheetCuda final : public DeviceScheme {
 public:
  explicit ExplicitSheetCuda(const Problem& problem)
      : DeviceScheme(problem), params_(whole_params(problem)), owned_params_(params_) {
    allocate_next();
  }

  // Rank comm.rank()'s slab; the device is chosen (use_rank_device) before this runs.
  ExplicitSheetCuda(const Problem& problem, Communicator& comm)
      : DeviceScheme(problem, make_slab(problem.domain, comm.rank(), comm.size(), kHalo,
                                        2 * kHalo)),
        params_(slab_params(problem, fields_.slab())),
        owned_params_(owned_rows(params_, fields_.slab())),
        slab_scheme_(true) {
    allocate_next();
    if (!fields_.slab().whole()) exchange_ = make_device_halo_exchange(fields_.slab(), comm, 2);
  }

  index_t steps_per_pass() const override { return kExplicitSheetStepsPerPass; }

  std::string name() const override {
    const Slab& slab = fields_.slab();
    std::string where = device_name_;
    if (slab_scheme_)
      where += ", slab " + std::to_string(slab.rank + 1) + " of " + std::to_string(slab.ranks);
    if (exchange_) where += ", " + exchange_->describe();
    return "explicit forward Euler on a sheet (cuda, " + where + ")";
  }

  // Full passes, then a shorter one. A node takes the same expression in every pass and tile, so
  // the result does not depend on how the steps are split (restarts exact) nor on the slabs. A
  // pass in which no stimulus is on takes the kernel without stimulus code (I = 0 either way, bit
  // for bit).
  void advance(index_t steps) override {
    const Slab& slab = fields_.slab();
    const index_t first = slab.first, end = slab.first + slab.count;
    if (fields_.quadrants()) {
      // Fields (one process): one step per pass, the masked kernel for a tissue mask alone, the
      // heterogeneous one for per-node parameters or anisotropy.
      const bool heterogeneous_sheet = heterogeneous(problem_.fields);
      const MediumView medium = fields_.medium(problem_);
      if (heterogeneous_sheet && blocks_.across == 0)
        blocks_ = medium_blocks(tissue_quadrants(problem_.fields.node_type, problem_.domain),
                                params_);
      for (; steps > 0; --steps, ++step_) {
        const StimulusTable table =
            stimulus_on(problem_, step_, 1) ? stimuli_.view() : StimulusTable{};
        if (heterogeneous_sheet)
          launch_explicit_sheet_medium_step(fields_.v(), fields_.w(), v_next_.data(),
                                            w_next_.data(), medium, blocks_, params_,
                                            problem_.model.kinetics, table, step_, compute_);
        else
          launch_explicit_sheet_masked_step(fields_.v(), fields_.w(), v_next_.data(),
                                            w_next_.data(), fields_.quadrants(), params_,
                                            problem_.model.kinetics, table, step_, compute_);
        std::swap(fields_.v_buffer(), v_next_);
        std::swap(fields_.w_buffer(), w_next_);
      }
      return;
    }
    while (steps > 0) {
      const int pass = static_cast<int>(std::min<index_t>(steps, kExplicitSheetStepsPerPass));
      const StimulusTable table =
          stimulus_on(problem_, step_, pass) ? stimuli_.view() : StimulusTable{};
      const index_t below = slab.below() != kNoRank ? pass : 0;
      const index_t above = slab.above() != kNoRank ? pass : 0;
      // 2. (and 1. started first) The rows that need no halo, from the owned arrays alone.
      if (exchange_) {
        FHN_CUDA_CHECK(cudaEventRecord(computed_, compute_));
        FHN_CUDA_CHECK(cudaStreamWaitEvent(exchange_stream_, computed_));
      }
      const index_t offset = slab.owned_offset();
      launch_rows(owned_params_, offset, table, pass, first + below, end - above);
      // 1. The halos, then 3. the edge strips next to a neighbour, from the whole arrays.
      if (exchange_) {
        exchange_->exchange({fields_.v(), fields_.w()}, pass, exchange_stream_);
        FHN_CUDA_CHECK(cudaEventRecord(exchanged_, exchange_stream_));
        FHN_CUDA_CHECK(cudaStreamWaitEvent(compute_, exchanged_));
        launch_rows(params_, 0, table, pass, first, first + below);
        launch_rows(params_, 0, table, pass, end - above, end);
      }
      std::swap(fields_.v_buffer(), v_next_);
      std::swap(fields_.w_buffer(), w_next_);
      step_ += pass;
      steps -= pass;
    }
  }

 private:
  static constexpr index_t kHalo = kExplicitSheetStepsPerPass;  // a full pass: one exchange
  // The owned rows start halo x N_x nodes into the arrays: 16-byte aligned (the kernels' paired
  // loads) for odd N_x too only when the halo is even.
  static_assert(kHalo % 2 == 0, "the slab's halo must be even");

  static NodeParams whole_params(const Problem& problem) {
    return node_params(problem);
  }
  // The arrays of a slab hold its array planes (rows) [first - halo, first + count + halo).
  static NodeParams slab_params(const Problem& problem, const Slab& slab) {
    NodeParams q = whole_params(problem);
    q.plane0 = slab.array_first();
    q.planes = slab.array_planes();
    return q;
  }
  // The owned rows alone (arrays from the slab's owned offset on).
  static NodeParams owned_rows(NodeParams q, const Slab& slab) {
    q.plane0 = slab.first;
    q.planes = slab.count;
    return q;
  }

  void allocate_next() {
    const auto n = static_cast<std::size_t>(fields_.slab().array_nodes());
    v_next_ = DeviceBuffer<real>(n, "v (next)");
    w_next_ = DeviceBuffer<real>(n, "w (next)");
  }

  // One blocked pass of `pass` steps over rows [j_begin, j_end) (nothing when empty), arrays
  // laid out as q says from array node `offset` on, on the compute stream.
  void launch_rows(const NodeParams& q, index_t offset, const StimulusTable& table, int pass,
                   index_t j_begin, index_t j_end) {
    if (j_end <= j_begin) return;
    launch_explicit_sheet_steps_blocked(fields_.v() + offset, fields_.w() + offset,
                                        v_next_.data() + offset, w_next_.data() + offset, q,
                                        problem_.model.kinetics, table, step_, pass, j_begin,
                                        j_end, compute_);
  }

  NodeParams params_;        // the arrays: every row they hold
  NodeParams owned_params_;  // the owned rows only
  bool slab_scheme_ = false;  // built by make_cuda_slab_scheme (names its slab)
  DeviceBuffer<real> v_next_, w_next_;
  MediumBlocks blocks_;  // a heterogeneous sheet's blocks (made at its first step)
  Stream compute_, exchange_stream_;
  Event computed_, exchanged_;
  std::unique_ptr<DeviceHaloExchange> exchange_;  // none on the whole sheet
};

// A box: passes of kExplicitBoxStepsPerPass steps (one step per pass: the one-step kernel; more:
// the blocked kernel; the rest by one shorter pass), on the whole box or on one rank's slab of z
// planes. A slab holds halo = kExplicitBoxStepsPerPass planes on each side. Before a pass of K
// steps the K halo planes of v and w next to each neighbour are refreshed (w too: a halo plane's
// v at step s + 1 reads its w at step s), as the sheet's, then the kernel steps the owned planes,
// which are exact when the K planes beyond them are (explicit_box_kernels.cuh). Every node takes the
// same expression in every pass and tile, so the result does not depend on how the steps are
// split (restarts exact) and the slabs gathered equal the one-rank run bit for bit.
class ExplicitBoxCuda final : public DeviceScheme {
 public:
  explicit ExplicitBoxCuda(const Problem& problem)
      : DeviceScheme(problem), params_(node_params(problem)) {
    allocate_next();
  }

  // Rank comm.rank()'s slab; the device is chosen (use_rank_device) before this runs. Every rank
  // owns at least a halo's planes (a pass reaches no further than the neighbour's slab).
  ExplicitBoxCuda(const Problem& problem, Communicator& comm)
      : DeviceScheme(problem, make_slab(problem.domain, comm.rank(), comm.size(), kHalo, kHalo)),
        params_(slab_params(problem, fields_.slab())),
        slab_scheme_(true) {
    allocate_next();
    if (!fields_.slab().whole()) exchange_ = make_device_halo_exchange(fields_.slab(), comm, 2);
  }

  index_t steps_per_pass() const override { return kExplicitBoxStepsPerPass; }

  std::string name() const override {
    const Slab& slab = fields_.slab();
    std::string where = device_name_;
    if (slab_scheme_)
      where += ", slab " + std::to_string(slab.rank + 1) + " of " + std::to_string(slab.ranks);
    if (exchange_) where += ", " + exchange_->describe();
    return "explicit forward Euler on a box (cuda, " + where + ")";
  }

  void advance(index_t steps) override {
    const Slab& slab = fields_.slab();
    while (steps > 0) {
      const int pass = static_cast<int>(std::min<index_t>(steps, kExplicitBoxStepsPerPass));
      const StimulusTable table =
          stimulus_on(problem_, step_, pass) ? stimuli_.view() : StimulusTable{};
      if (exchange_) exchange_->exchange({fields_.v(), fields_.w()}, pass, nullptr);
      launch_explicit_box_steps_blocked(fields_.v(), fields_.w(), v_next_.data(), w_next_.data(),
                                        params_, problem_.model.kinetics, table, step_, pass,
                                        nullptr, slab.first, slab.first + slab.count);
      std::swap(fields_.v_buffer(), v_next_);
      std::swap(fields_.w_buffer(), w_next_);
      step_ += pass;
      steps -= pass;
    }
  }

 private:
  static constexpr index_t kHalo = kExplicitBoxStepsPerPass;  // a full pass: one exchange

  // The arrays of a slab hold its planes [first - halo, first + count + halo) (those in the box).
  static NodeParams slab_params(const Problem& problem, const Slab& slab) {
    NodeParams q = node_params(problem);
    q.plane0 = slab.array_first();
    q.planes = slab.array_planes();
    return q;
  }
  void allocate_next() {
    const auto n = static_cast<std::size_t>(fields_.slab().array_nodes());
    v_next_ = DeviceBuffer<real>(n, "v (next)");
    w_next_ = DeviceBuffer<real>(n, "w (next)");
  }

  NodeParams params_;  // the arrays' planes
  bool slab_scheme_ = false;
  DeviceBuffer<real> v_next_, w_next_;
  std::unique_ptr<DeviceHaloExchange> exchange_;  // none on the whole box
};

}  // namespace

std::unique_ptr<Scheme> make_explicit_cuda(const Problem& problem) {
  if (problem.domain.dims == 3) return std::make_unique<ExplicitBoxCuda>(problem);
  if (problem.domain.dims == 2) return std::make_unique<ExplicitSheetCuda>(problem);
  return std::make_unique<ExplicitCuda>(problem);
}

std::unique_ptr<Scheme> make_explicit_sheet_slab_cuda(const Problem& problem, Communicator& comm) {
  return std::make_unique<ExplicitSheetCuda>(problem, comm);
}

std::unique_ptr<Scheme> make_explicit_box_slab_cuda(const Problem& problem, Communicator& comm) {
  return std::make_unique<ExplicitBoxCuda>(problem, comm);
}

}  // namespace fhn::cuda
