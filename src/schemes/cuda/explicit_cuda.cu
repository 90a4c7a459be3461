// Forward Euler on the GPU, state resident on the device, one scheme for a cable, a sheet and a
// box: each pass runs the fast path registered for the run's dimension and medium (the hand-tuned
// kernels: the temporally blocked cable (explicit_kernels.cu), sheet (explicit_sheet_kernels.cu)
// and box (explicit_box_kernels.cu) passes, the one-step tissue kernels
// (explicit_tissue_kernels.cu)), or the generic path: for_each_node over the point layer's
// update (ExplicitStep), one step per launch, which each fast path equals bit for bit (the
// cable's to rounding: its kernels contract FMAs). Stimuli are computed in the kernels from the
// device stimulus table. A sheet and a box also run on slabs, one rank (and GPU) each, halos
// exchanged between passes.
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
#include "schemes/cuda/for_each_node.cuh"
#include "schemes/explicit_step.hpp"

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

// The media of the explicit update (a sheet's fields: a tissue mask alone, or per-node
// parameters and anisotropy), by which the fast paths are registered.
enum class Medium { uniform, masked, tensor };

Medium medium_of(const Problem& problem) {
  if (problem.domain.dims != 2 || problem.fields.uniform()) return Medium::uniform;
  return heterogeneous(problem.fields) ? Medium::tensor : Medium::masked;
}

// One pass of `steps` steps from t = first_step dt over the planes [begin, end) of the slab axis
// (rows of a sheet, z planes of a box; a cable has one), arrays laid out as q says, queued on
// `stream` (the sheet's passes; the cable's and the box's take the default stream).
struct Pass {
  const real* v;
  const real* w;
  real* v_next;
  real* w_next;
  const NodeParams& q;
  const Kinetics& kinetics;
  const StimulusTable& table;
  index_t first_step;
  int steps;
  index_t begin, end;
  cudaStream_t stream;
  const std::uint8_t* quadrants;  // a sheet with fields: the nodes' quadrant bytes (device)
  const MediumView& medium;       // a heterogeneous sheet: device pointers
  const MediumBlocks& blocks;     // and its blocks
  ActivationArrays activation;    // recording: the arrays from the same node as v (else off)
};

// A fast path: the kernels of one (dimension, medium), the steps they fuse per pass (a slab's
// halo depth), and whether a slab computes its rows away from the halos while the exchange runs
// (then every rank owns at least two halos, make_slab's min_planes).
struct FastPath {
  int dims;
  Medium medium;
  int steps_per_pass;
  bool overlap;
  void (*launch)(const Pass&);
};

// The owned rows start halo x N_x nodes into a sheet slab's arrays: 16-byte aligned (the
// kernels' paired loads) for odd N_x too only when the halo is even.
static_assert(kExplicitSheetStepsPerPass % 2 == 0, "the sheet slab's halo must be even");

constexpr FastPath kFastPaths[] = {
    {1, Medium::uniform, kStepsPerPass, false,
     [](const Pass& p) {
       FHN_VERIFY(!p.activation.on(), InternalError,
                  "ExplicitCuda: a cable records no activation times (sheets and boxes do)");
       launch_explicit_steps_blocked(p.v, p.w, p.v_next, p.w_next, p.q, p.kinetics, p.table,
                                     p.first_step, p.steps);
     }},
    {2, Medium::uniform, kExplicitSheetStepsPerPass, true,
     [](const Pass& p) {
       launch_explicit_sheet_steps_blocked(p.v, p.w, p.v_next, p.w_next, p.q, p.kinetics, p.table,
                                           p.first_step, p.steps, p.begin, p.end, p.stream,
                                           p.activation);
     }},
    {2, Medium::masked, 1, false,
     [](const Pass& p) {
       launch_explicit_sheet_masked_step(p.v, p.w, p.v_next, p.w_next, p.quadrants, p.q,
                                         p.kinetics, p.table, p.first_step, p.stream,
                                         p.activation);
     }},
    {2, Medium::tensor, 1, false,
     [](const Pass& p) {
       launch_explicit_sheet_medium_step(p.v, p.w, p.v_next, p.w_next, p.medium, p.blocks, p.q,
                                         p.kinetics, p.table, p.first_step, p.stream,
                                         p.activation);
     }},
    {3, Medium::uniform, kExplicitBoxStepsPerPass, false,
     [](const Pass& p) {
       launch_explicit_box_steps_blocked(p.v, p.w, p.v_next, p.w_next, p.q, p.kinetics, p.table,
                                         p.first_step, p.steps, nullptr, p.begin, p.end,
                                         p.activation);
     }},
};

const FastPath* fast_path_of(const Problem& problem, ExplicitPath path) {
  if (path == ExplicitPath::generic) return nullptr;
  const Medium medium = medium_of(problem);
  for (const FastPath& f : kFastPaths)
    if (f.dims == problem.domain.dims && f.medium == medium) return &f;
  return nullptr;
}

// The current of a forward Euler step at node (i, j, k) at time t (its value at t), from the
// device stimulus table, as the kernels compute it.
template <int Dims>
struct TableCurrents {
  StimulusTable st;
  real t;
  __device__ real operator()(index_t, index_t i, index_t j, index_t k) const {
    if constexpr (Dims == 3)
      return stimulus_current(st, i, j, k, t, 0.0);
    else if constexpr (Dims == 2)
      return stimulus_current(st, i, j, t, 0.0);
    else
      return stimulus_current(st, i, t, 0.0);
  }
};

// The explicit scheme on the whole grid, or on one rank's slab (rank r of P,
// parallel/decomposition.hpp) holding its owned planes [first, first + count) and halo = the
// fast path's steps per pass on each side. A pass of K <= halo steps makes an owned plane exact
// when the K planes beyond it on each side are (explicit_sheet_kernels.cuh,
// explicit_box_kernels.cuh), so before each pass the halos of v AND w are refreshed to depth K
// (w too: a halo plane's v at sub-step s + 1 reads its w at sub-step s). Where the fast path
// overlaps (the sheet's), the exchange runs on its own stream while
//   1. the planes at least K from a neighbour's, [first + K_below, first + count - K_above)
//      (K_side = K where that neighbour exists, else 0), are computed on the compute stream from
//      the owned planes alone (the halos being written are not read);
//   2. after the exchange, the edge strips [first, first + K) and [first + count - K,
//      first + count) next to a neighbour are computed from the owned and halo planes.
// Events order the streams: the exchange waits for the previous pass (its owned planes), the
// strips for the exchange; the host waits for nothing (NCCL), or for the copies out (host
// staging). Otherwise (the box's) the exchange completes before the pass. Every node takes the
// same expression in every pass and tile, so the result does not depend on how the steps are
// split (restarts exact) and the slabs gathered equal the one-rank run bit for bit.
class ExplicitCuda final : public DeviceScheme {
 public:
  ExplicitCuda(const Problem& problem, ExplicitPath path)
      : DeviceScheme(problem),
        fast_(fast_path_of(problem, path)),
        params_(node_params(problem)),
        owned_params_(params_) {
    allocate_next();
  }

  // Rank comm.rank()'s slab of a sheet or a box; the device is chosen (use_rank_device) before
  // this runs.
  ExplicitCuda(const Problem& problem, Communicator& comm)
      : DeviceScheme(problem, slab_of(problem, comm)),
        fast_(fast_path_of(problem, ExplicitPath::fast)),
        params_(planes(node_params(problem), fields_.slab().array_first(),
                       fields_.slab().array_planes())),
        owned_params_(planes(params_, fields_.slab().first, fields_.slab().count)),
        slab_scheme_(true) {
    allocate_next();
    if (!fields_.slab().whole()) exchange_ = make_device_halo_exchange(fields_.slab(), comm, 2);
  }

  index_t steps_per_pass() const override { return fast_ ? fast_->steps_per_pass : 1; }

  std::string name() const override {
    const Slab& slab = fields_.slab();
    std::string where = device_name_;
    if (slab_scheme_)
      where += ", slab " + std::to_string(slab.rank + 1) + " of " + std::to_string(slab.ranks);
    if (exchange_) where += ", " + exchange_->describe();
    if (problem_.domain.dims == 1) return "explicit forward Euler (cuda, " + where + ")";
    return std::string("explicit forward Euler on a ") + problem_.domain.kind() + " (cuda, " +
           where + ")";
  }

  // Full passes, then a shorter one, launched back to back; nothing waits for the device here
  // (but a host-staged exchange). A pass in which no stimulus is on takes the kernel without
  // stimulus code (I = 0 either way, bit for bit).
  void advance(index_t steps) override {
    const Slab& slab = fields_.slab();
    const index_t first = slab.first, end = slab.first + slab.count;
    while (steps > 0) {
      const int pass = static_cast<int>(std::min<index_t>(steps, steps_per_pass()));
      const StimulusTable table =
          stimulus_on(problem_, step_, pass) ? stimuli_.view() : StimulusTable{};
      if (!exchange_) {
        launch(params_, 0, table, pass, first, end);
      } else if (!fast_->overlap) {
        exchange_->exchange({fields_.v(), fields_.w()}, pass, nullptr);
        launch(params_, 0, table, pass, first, end);
      } else {
        const index_t below = slab.below() != kNoRank ? pass : 0;
        const index_t above = slab.above() != kNoRank ? pass : 0;
        // 1. (the exchange started first) The planes that need no halo, from the owned arrays.
        FHN_CUDA_CHECK(cudaEventRecord(computed_, compute_));
        FHN_CUDA_CHECK(cudaStreamWaitEvent(exchange_stream_, computed_));
        launch(owned_params_, slab.owned_offset(), table, pass, first + below, end - above);
        exchange_->exchange({fields_.v(), fields_.w()}, pass, exchange_stream_);
        FHN_CUDA_CHECK(cudaEventRecord(exchanged_, exchange_stream_));
        FHN_CUDA_CHECK(cudaStreamWaitEvent(compute_, exchanged_));
        // 2. The edge strips next to a neighbour, from the whole arrays.
        launch(params_, 0, table, pass, first, first + below);
        launch(params_, 0, table, pass, end - above, end);
      }
      std::swap(fields_.v_buffer(), v_next_);
      std::swap(fields_.w_buffer(), w_next_);
      step_ += pass;
      steps -= pass;
    }
  }

 private:
  // A slab with the fast path's halo (the uniform sheet's or box's: slabs run no other).
  static Slab slab_of(const Problem& problem, Communicator& comm) {
    const FastPath* fast = fast_path_of(problem, ExplicitPath::fast);
    FHN_VERIFY(fast && problem.domain.dims >= 2 && medium_of(problem) == Medium::uniform,
               InternalError, "ExplicitCuda: slabs of a uniform sheet or box only");
    const index_t halo = fast->steps_per_pass;
    return make_slab(problem.domain, comm.rank(), comm.size(), halo,
                     fast->overlap ? 2 * halo : halo);
  }
  // q on the arrays of the slab axis's planes [plane0, plane0 + planes).
  static NodeParams planes(NodeParams q, index_t plane0, index_t count) {
    q.plane0 = plane0;
    q.planes = count;
    return q;
  }

  void allocate_next() {
    const auto n = static_cast<std::size_t>(fields_.slab().array_nodes());
    v_next_ = DeviceBuffer<real>(n, "v (next)");
    w_next_ = DeviceBuffer<real>(n, "w (next)");
  }

  // One pass of `pass` steps over the planes [begin, end) (nothing when empty), arrays laid out
  // as q says from array node `offset` on: the fast path's kernels, or the generic one.
  void launch(const NodeParams& q, index_t offset, const StimulusTable& table, int pass,
              index_t begin, index_t end) {
    if (end <= begin) return;
    const Medium medium = medium_of(problem_);
    if (medium == Medium::tensor && blocks_.across == 0 && fast_)
      blocks_ = medium_blocks(tissue_quadrants(problem_.fields.node_type, problem_.domain), q);
    const MediumView view = medium == Medium::tensor ? fields_.medium(problem_) : MediumView{};
    if (!fast_) return generic_step(q, view, table);
    fast_->launch({fields_.v() + offset, fields_.w() + offset, v_next_.data() + offset,
                   w_next_.data() + offset, q, problem_.model.kinetics, table, step_, pass, begin,
                   end, compute_, fields_.quadrants(), view, blocks_,
                   activation_.arrays(offset)});
  }

  // One step of the generic path: for_each_node over every node of the whole grid.
  void generic_step(const NodeParams& q, const MediumView& view, const StimulusTable& table) {
    NodeBox box;
    for (int a = 0; a < kMaxAxes; ++a) box.hi[a] = q.n[a];
    const real t = problem_.time.t(step_);
    with_kinetics(problem_.model.kinetics, [&](const auto& kin) {
      using K = std::decay_t<decltype(kin)>;
      auto run = [&](auto dims, const auto& medium) {
        constexpr int kDims = decltype(dims)::value;
        using Step = ExplicitStep<kDims, std::decay_t<decltype(medium)>, K, TableCurrents<kDims>>;
        for_each_node(CudaExec{compute_}, box,
                      Step{fields_.v(), fields_.w(), v_next_.data(), w_next_.data(), q, medium,
                           kin, {table, t}});
      };
      using One = std::integral_constant<int, 1>;
      using Two = std::integral_constant<int, 2>;
      using Three = std::integral_constant<int, 3>;
      switch (problem_.domain.dims == 2 ? medium_of(problem_) : Medium::uniform) {
        case Medium::tensor: return run(Two{}, view);
        case Medium::masked: return run(Two{}, MaskedMedium{fields_.quadrants()});
        case Medium::uniform: break;
      }
      if (problem_.domain.dims == 1) return run(One{}, UniformMedium{});
      if (problem_.domain.dims == 2) return run(Two{}, UniformMedium{});
      run(Three{}, UniformMedium{});
    });
    if (activation_.on())
      launch_record_crossings(fields_.v(), v_next_.data(), problem_.domain.node_count(),
                              activation_.arrays(), t, q.k, compute_);
  }

  const FastPath* fast_;     // nullptr: the generic path
  NodeParams params_;        // the arrays: every plane they hold
  NodeParams owned_params_;  // the owned planes only
  bool slab_scheme_ = false;  // built by make_cuda_slab_scheme (names its slab)
  DeviceBuffer<real> v_next_, w_next_;
  MediumBlocks blocks_;  // a heterogeneous sheet's blocks (made at its first step)
  Stream compute_, exchange_stream_;
  Event computed_, exchanged_;
  std::unique_ptr<DeviceHaloExchange> exchange_;  // none on the whole grid
};

}  // namespace

std::unique_ptr<Scheme> make_explicit_cuda(const Problem& problem, ExplicitPath path) {
  return std::make_unique<ExplicitCuda>(problem, path);
}

std::unique_ptr<Scheme> make_explicit_slab_cuda(const Problem& problem, Communicator& comm) {
  return std::make_unique<ExplicitCuda>(problem, comm);
}

}  // namespace fhn::cuda
