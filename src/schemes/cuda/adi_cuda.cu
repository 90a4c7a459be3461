// Crank-Nicolson by Strang splitting on the GPU (scheme.crank_nicolson.formulation: adi), state
// resident on the device: per step the reaction (a scalar Newton iteration per node, in
// registers), the right sides of the diffusion half-steps, and one (cable), two (sheet) or
// three (box) batched constant-matrix tridiagonal solves; the host reads the reaction logs once
// per batch of steps. A step's second reaction half-step and the next step's first run in one
// kernel pass (the same operations per node, v and w kept in registers between them), so a
// batch of s steps reads and writes v and w in s + 1 reaction passes, not 2 s. Same per-node
// functions (adi_point.hpp, node_updates.hpp) and the same order of operations as AdiCpu, so
// GPU = CPU to rounding (a box's diffusion in Douglas's increment form, below).
//
// A sheet also runs as one rank's slab of rows (make_cuda_slab_scheme), laid out as AdiCpu's
// slabs: the rows along x are the slab's own; the right side along y reads one halo row of v on
// each side (the device halo exchange); the columns along y cross the slabs and are solved after
// a device transpose (an all-to-all), each rank then holding whole columns. Every node takes the
// same expressions in the same kernels as on the whole sheet and the batched solvers solve each
// line alone, so the slabs gathered equal the one-rank run bit for bit.
//
// A box takes Douglas's three solves in their increment form (adi_point.hpp: the same step as
// AdiCpu::diffuse_box up to rounding): one right side (douglas_increment_kernel), then the solves
// along x (rows, contiguous), along y (each plane's columns: one batch in planes) and along z
// (the plane's nodes as interleaved systems) in place; the reaction pass that follows adds the
// increment to v as it reads it (reaction_kernel's `increment`). It runs as one rank's slab of z
// planes too, as AdiCpu's box slabs: the x and y lines are the slab's own, the right side reads
// one halo plane of v on each side (d_z v), and the z lines cross the slabs, solved after the
// same device transpose as a sheet's columns (a sheet's rows and a box's planes are both the
// slab's planes; the lines along the slab axis start at a plane's nodes).
//
// Bytes per node and step on a sheet: the reaction pass 32 (read and write v, w), right sides
// 2 x 16 (read one array, write another), solves 2 x 16 (read the right side, write x): 96 B,
// against the explicit step's 32 B. On one process with the partitioned solvers the right sides
// are formed inside the solves as they stage v (SheetAcrossRight; solve_formed): 64 B. On a
// box: the reaction 40 (it reads the increment too), the right side 16 (read v, write the
// increment), solves 3 x 16: 104 B, 3.25 times the explicit step's (the three right sides of
// Douglas's first form: 144 B). A slab of several adds the transpose's pack and unpack
// (2 x 16 B) and its exchanges (solve_lines_across_ranks). A sheet
// with a tissue mask or D per node (one process) solves with every node's own row: right sides
// 2 x 32 B, solves with per-system coefficients (the partitioned solver: 72 B per unknown,
// cuSPARSE 40 B).
#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "config/names.hpp"
#include "core/cuda/cuda_check.hpp"
#include "core/cuda/pinned_buffer.hpp"
#include "parallel/cuda/device_transport.hpp"
#include "schemes/adi_setup.hpp"
#include "schemes/cuda/adi_kernels.cuh"
#include "schemes/cuda/cuda_scheme_factories.hpp"
#include "schemes/cuda/device_fields.cuh"
#include "schemes/node_updates.hpp"
#include "solvers/cuda/batched_partitioned.cuh"

namespace fhn::cuda {
namespace {

// Steps whose reaction logs are read back together (one copy, one synchronisation).
constexpr index_t kLogSteps = 256;

// The maxima of a batch of `count` logs over the ranks of `comm`, in place: the per-iteration
// maxima as the doubles they encode, the counts as numbers (exact in a double). Every rank then
// holds the logs one process would have: the same newton.csv rows, statistics and failures.
void max_over_ranks(Communicator& comm, ReactionLog* logs, index_t count) {
  constexpr std::size_t kMaxima = 2 * kHistory;  // du (or g) of a log: 2 stages x kHistory
  constexpr std::size_t kPerLog = 2 * kMaxima + 4;
  std::vector<real> values(static_cast<std::size_t>(count) * kPerLog);
  for (index_t s = 0; s < count; ++s) {
    real* x = values.data() + static_cast<std::size_t>(s) * kPerLog;
    std::memcpy(x, logs[s].du, sizeof logs[s].du);
    std::memcpy(x + kMaxima, logs[s].g, sizeof logs[s].g);
    for (int stage = 0; stage < 2; ++stage) {
      x[2 * kMaxima + stage] = logs[s].iterations[stage];
      x[2 * kMaxima + 2 + stage] = logs[s].failed[stage];
    }
  }
  comm.max(values);
  for (index_t s = 0; s < count; ++s) {
    const real* x = values.data() + static_cast<std::size_t>(s) * kPerLog;
    std::memcpy(logs[s].du, x, sizeof logs[s].du);
    std::memcpy(logs[s].g, x + kMaxima, sizeof logs[s].g);
    for (int stage = 0; stage < 2; ++stage) {
      logs[s].iterations[stage] = static_cast<unsigned int>(x[2 * kMaxima + stage]);
      logs[s].failed[stage] = static_cast<unsigned int>(x[2 * kMaxima + 2 + stage]);
    }
  }
}

// The same on a sheet with fields (one process; adi_point.hpp, "Sheets with a tissue mask or D
// per node"): out = u + (k/2) L u along the axis of array step `stride`, from the nodes' rows
// (lower, upper) in that axis' lines. Reads in, two coefficients, writes out: 32 B per node.
__global__ void adi_medium_rhs_kernel(const real* __restrict__ in, real* __restrict__ out,
                                      const __grid_constant__ NodeParams q,
                                      const real* __restrict__ lower,
                                      const real* __restrict__ upper, index_t stride) {
  const index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x;
  const index_t j = blockIdx.y;
  if (i >= q.n[0]) return;
  const index_t node = i + q.n[0] * j;
  real held = 0.0;
  out[node] = sheet_dirichlet(i, j, q, held)
                  ? held
                  : adi_medium_rhs(in, node, stride, __ldg(lower + node), __ldg(upper + node));
}

// The right side of Douglas's step on a box in its increment form (adi_point.hpp) over its
// planes [q.plane0, q.plane0 + q.planes) (all of them, or a slab's owned planes; v and u from
// the first of them on, v's halo planes below and above):
//   u = r (d_x v + d_y v + d_z v),
// the d_a second differences of v, the step's start (axis_difference); 0 at a Dirichlet node. A
// block is 32 x 8 columns (i, j), each thread marching through
// kDouglasPlanes planes along z with v below, at and above the node in registers (each plane's
// v loaded once), the x and y neighbours from the caches. DRAM bytes per node: read v, write u:
// 16 B.
constexpr int kDouglasLanes = 32, kDouglasRows = 8, kDouglasPlanes = 16;
__global__ void __launch_bounds__(kDouglasLanes * kDouglasRows)
    douglas_increment_kernel(const real* __restrict__ v, real* __restrict__ u,
                             const __grid_constant__ NodeParams q, real r) {
  const index_t i = blockIdx.x * static_cast<index_t>(kDouglasLanes) + threadIdx.x;
  const index_t j = blockIdx.y * static_cast<index_t>(kDouglasRows) + threadIdx.y;
  if (i >= q.n[0] || j >= q.n[1]) return;
  const index_t k_end = q.plane0 + q.planes;
  const index_t k0 = q.plane0 + blockIdx.z * static_cast<index_t>(kDouglasPlanes);
  const index_t k1 = k0 + kDouglasPlanes < k_end ? k0 + kDouglasPlanes : k_end;
  const index_t sy = q.stride[1], sz = q.stride[2];
  index_t c = box_index(i, j, k0, q);
  real below = k0 > 0 ? __ldg(v + c - sz) : 0.0;
  real centre = __ldg(v + c);
  // The second difference along x or y from the caches.
  auto across = [&](index_t at, index_t n, index_t stride) {
    const bool first = at == 0, last = at == n - 1;
    return axis_difference(first ? 0.0 : __ldg(v + c - stride), centre,
                           last ? 0.0 : __ldg(v + c + stride), first, last);
  };
  for (index_t k = k0; k < k1; ++k, c += sz) {
    const real above = k + 1 < q.n[2] ? __ldg(v + c + sz) : 0.0;
    const index_t at[kMaxAxes] = {i, j, k};
    real held = 0.0;
    const real dz = axis_difference(below, centre, above, k == 0, k == q.n[2] - 1);
    u[c] = dirichlet_at<3>(q.sides, at, q.n, held)
               ? 0.0
               : douglas_increment_rhs(across(i, q.n[0], 1), across(j, q.n[1], sy), dz, r);
    below = centre;
    centre = above;
  }
}

// The transpose of a slab's planes into whole lines along the slab axis
// (AdiCuda::solve_lines_across_ranks; a sheet's columns, a box's z lines). The lines start at
// the P nodes of a plane (P = N_x on a sheet, N_x N_y on a box); rank s takes the lines
// [first_s, first_s + width_s) (split_range of P). Its block, the slab's `count` planes of those
// lines one after the other, starts at count first_s in the packed array, so node i of the
// slab's plane j (counted from its first owned plane) lies at
//   base_i + width_i j,   base_i = count first_s + (i - first_s),   width_i = width_s.
struct LineSlot {
  index_t base;
  index_t width;
};

// packed[base_i + width_i j] = u[i + P j] over the slab's planes, j = blockIdx.y (u from its
// first owned plane on). Reads and writes 8 B per node (the slots, P of them, stay in L2).
__global__ void pack_lines_kernel(const real* __restrict__ u, real* __restrict__ packed,
                                  const LineSlot* __restrict__ slots, index_t plane) {
  const index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x;
  const index_t j = blockIdx.y;
  if (i >= plane) return;
  const LineSlot slot = slots[i];
  packed[slot.base + slot.width * j] = u[i + plane * j];
}

// The reverse: u[i + P j] = packed[base_i + width_i j].
__global__ void unpack_lines_kernel(const real* __restrict__ packed, real* __restrict__ u,
                                    const LineSlot* __restrict__ slots, index_t plane) {
  const index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x;
  const index_t j = blockIdx.y;
  if (i >= plane) return;
  const LineSlot slot = slots[i];
  u[i + plane * j] = packed[slot.base + slot.width * j];
}

class AdiCuda final : public DeviceScheme {
 public:
  AdiCuda(const Problem& problem, const CrankNicolsonSpec& spec, NewtonLog* log)
      : DeviceScheme(problem),
        spec_(spec),
        log_(log),
        setup_(adi_setup(problem, spec)),
        params_(node_params(problem)),
        rhs_(problem.domain.node_count(), "ADI right side"),
        log_device_(kLogSteps, "reaction Newton log"),
        solvers_(adi_solvers(setup_, problem.domain, spec.tridiagonal, MemorySpace::device)) {
    if (setup_.medium()) set_up_medium();
    set_up_launches();
    set_up_formed_right_sides();
  }

  // Rank comm.rank()'s slab of a sheet's rows or a box's z planes, with kHalo halo planes
  // (`log`: the root's, nullptr on the other ranks); the device is chosen (use_rank_device)
  // before this runs. The kernels run over the owned planes, the right sides and the slab's own
  // solves in rhs_ (the owned planes alone).
  AdiCuda(const Problem& problem, const CrankNicolsonSpec& spec, NewtonLog* log, Communicator& comm)
      : DeviceScheme(problem, make_slab(problem.domain, comm.rank(), comm.size(), kHalo)),
        spec_(spec),
        log_(log),
        setup_(adi_setup(problem, spec)),
        params_(owned_rows(problem, fields_.slab())),
        rhs_(static_cast<std::size_t>(fields_.owned_nodes()), "ADI right side"),
        log_device_(kLogSteps, "reaction Newton log"),
        solvers_(adi_solvers(setup_, problem.domain, spec.tridiagonal, MemorySpace::device)),
        slab_scheme_(true) {
    FHN_VERIFY(problem.domain.dims >= 2 && !setup_.medium(), InternalError,
               "AdiCuda: slabs of a sheet or a box without fields only");
    if (!fields_.slab().whole()) set_up_ranks(comm);
    set_up_launches();
    set_up_formed_right_sides();
  }
  std::string name() const override {
    const Slab& slab = fields_.slab();
    std::string where = device_name_ + ", " + std::string(solvers_.along[0]->name());
    if (slab_scheme_)
      where += ", slab " + std::to_string(slab.rank + 1) + " of " + std::to_string(slab.ranks);
    if (comm_) where += ", halos and transposes " + transport_;
    const int dims = problem_.domain.dims;
    return std::string("Crank-Nicolson by Strang splitting, diffusion ") +
           (dims == 3 ? "by Douglas ADI" : dims == 2 ? "by Peaceman-Rachford ADI" : "by Crank-Nicolson") +
           " (cuda, " + where + ")";
  }
  // The steps are enqueued back to back, each writing its reaction log to its own entry (a fused
  // pass writes two steps' entries); the host reads the logs once per kLogSteps steps (one copy, one synchronisation), takes their
  // maxima over the ranks (one reduction) and then records them in order. A Newton failure is
  // reported with its step, after the batch it belongs to, by every rank alike. Recording
  // activation, each step's halves run apart (the same operations per node, so the same bits),
  // so that v^{n+1} lands in memory: the crossing test then compares it with v^n, copied before
  // the step's first half.
  void advance(index_t steps) override {
    while (steps > 0) {
      const index_t batch = std::min<index_t>(steps, kLogSteps);
      const index_t first = step_;
      FHN_CUDA_CHECK(cudaMemsetAsync(log_device_.data(), 0, static_cast<std::size_t>(batch) * sizeof(ReactionLog)));
      // Strang splitting: each step is a reaction half-step, the diffusion, a reaction half-step.
      // A step's second half and the next step's first run in one pass (react: the same
      // operations per node, bit for bit), so a batch of s steps makes s + 1 reaction passes.
      // On a box the pass after the diffusion adds its increment v+ - v to v first.
      ReactionLog* logs = log_device_.data();
      const real k = problem_.time.dt;
      const real* increment = problem_.domain.dims == 3 ? rhs_.data() : nullptr;
      const bool record = activation_.on();
      if (record) keep_v();
      react({problem_.time.t(step_), 0.0}, {LogSlot{logs, 0}, LogSlot{}}, 1, nullptr);
      for (index_t s = 0; s < batch; ++s, ++step_) {
        diffuse();
        const real half = problem_.time.t(step_) + 0.5 * k;  // the second half-step's start
        if (s + 1 < batch && !record) {
          react({half, problem_.time.t(step_ + 1)},
                {LogSlot{logs + s, 1}, LogSlot{logs + s + 1, 0}}, 2, increment);
          continue;
        }
        react({half, 0.0}, {LogSlot{logs + s, 1}, LogSlot{}}, 1, increment);
        if (!record) continue;
        const index_t at = fields_.slab().owned_offset();
        launch_record_crossings(v_before_.data(), fields_.v() + at, fields_.owned_nodes(),
                                activation_.arrays(at), problem_.time.t(step_), k, nullptr);
        if (s + 1 == batch) continue;
        keep_v();
        react({problem_.time.t(step_ + 1), 0.0}, {LogSlot{logs + s + 1, 0}, LogSlot{}}, 1,
              nullptr);
      }
      FHN_CUDA_CHECK(cudaMemcpyAsync(host_log_.data(), log_device_.data(),
                                     static_cast<std::size_t>(batch) * sizeof(ReactionLog),
                                     cudaMemcpyDeviceToHost));
      FHN_CUDA_CHECK(cudaStreamSynchronize(0));
      if (comm_) max_over_ranks(*comm_, host_log_.data(), batch);
      for (index_t s = 0; s < batch; ++s) record_newton(first + s, host_log_.data()[s]);
      steps -= batch;
    }
  }
  const NewtonStats* newton_stats() const override { return &stats_; }

 private:
  // v^n of the owned nodes, before a step's first half (recording activation).
  void keep_v() {
    const auto n = static_cast<std::size_t>(fields_.owned_nodes());
    if (v_before_.size() != n) v_before_ = DeviceBuffer<real>(n, "v before the step");
    FHN_CUDA_CHECK(cudaMemcpyAsync(v_before_.data(), fields_.v() + fields_.slab().owned_offset(),
                                   n * sizeof(real), cudaMemcpyDeviceToDevice));
  }

  // One halo plane each side (the reach of a sheet's d_yy, a box's d_zz). The kernels load one
  // double at a time, so the owned planes need no alignment beyond 8 bytes (any halo does).
  static constexpr index_t kHalo = 1;

  // The slab's owned planes [first, first + count) (the arrays from the slab's owned offset on).
  static NodeParams owned_rows(const Problem& problem, const Slab& slab) {
    NodeParams q = node_params(problem);
    q.plane0 = slab.first;
    q.planes = slab.count;
    return q;
  }

  // Enough reaction blocks for about kReactionBlocksPerSm per SM, each striding over the rows.
  void set_up_launches() {
    int device = 0, sms = 1;
    FHN_CUDA_CHECK(cudaGetDevice(&device));
    FHN_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    reaction_rows_ =
        std::max<index_t>(1, kReactionBlocksPerSm * sms / reaction_row_blocks(params_.n[0]));
  }

  // A sheet with fields: the nodes' rows on the device (both axes) and what the reaction
  // kernels read (the quadrant bytes and per-node parameters DeviceFields holds).
  void set_up_medium() {
    const auto n = static_cast<std::size_t>(problem_.domain.node_count());
    const char* names[2][3] = {{"ADI rows along x: lower", "ADI rows along x: diagonal", "ADI rows along x: upper"},
                               {"ADI rows along y: lower", "ADI rows along y: diagonal", "ADI rows along y: upper"}};
    for (int axis = 0; axis < 2; ++axis) {
      const std::vector<real>* host[3] = {&setup_.node_lower[axis], &setup_.node_diag[axis], &setup_.node_upper[axis]};
      for (int part = 0; part < 3; ++part) {
        rows_[axis][part] = DeviceBuffer<real>(n, names[axis][part]);
        rows_[axis][part].upload(host[part]->data(), n);
      }
    }
    medium_.quadrants = fields_.quadrants();
    for (int p = 0; p < kMaxFormParameters; ++p)
      medium_.kinetics[p] = fields_.parameter_values(static_cast<std::size_t>(p));
  }

  // A slab of several: the transport (collective), v's halo exchange and the transpose. Rank s
  // takes the lines split_range(P, s, ranks) of every plane (P the plane's nodes): this slab
  // sends count x width_s values to rank s and receives count_s x width values from it
  // (count_s: rank s's planes).
  void set_up_ranks(Communicator& comm) {
    const Slab& slab = fields_.slab();
    const int ranks = comm.size();
    width_ = split_range(slab.plane, comm.rank(), ranks).count;
    std::vector<LineSlot> slots;
    for (int s = 0; s < ranks; ++s) {
      const Range c = split_range(slab.plane, s, ranks);
      for (index_t i = c.first; i < c.end(); ++i) slots.push_back({slab.count * c.first + (i - c.first), c.count});
      to_.push_back(static_cast<std::size_t>(slab.count * c.count));
      from_.push_back(static_cast<std::size_t>(split_range(slab.planes, s, ranks).count * width_));
    }
    slots_ = DeviceBuffer<LineSlot>(slots.size(), "transpose slots");
    slots_.upload(slots.data(), slots.size());
    packed_ = DeviceBuffer<real>(static_cast<std::size_t>(slab.owned_nodes()), "transpose blocks");
    lines_ = DeviceBuffer<real>(static_cast<std::size_t>(width_ * slab.planes), "whole lines");
    const std::unique_ptr<DeviceTransport> transport = make_device_transport(comm);
    transport_ = transport->describe();
    halo_ = transport->halo_exchange(slab, 1);
    transpose_ = transport->all_to_all();
    comm_ = &comm;
  }

  // A sheet of one process without fields, on the partitioned solvers: its two half-steps'
  // right sides are formed inside the solves (formed_; SheetAcrossRight), not by adi_rhs_kernel
  // (the same values: the same bits).
  void set_up_formed_right_sides() {
    if (problem_.domain.dims != 2 || setup_.medium() || halo_ || transpose_) return;
    for (int a = 0; a < 2; ++a)
      formed_[a] = dynamic_cast<solvers::BatchedPartitionedSolver*>(solvers_.along[a].get());
    if (formed_[0] == nullptr || formed_[1] == nullptr) formed_[0] = formed_[1] = nullptr;
  }

  // Enqueues a reaction pass of `halves` half-steps (1 or 2) from times[0] (and times[1]), logged
  // in slots (reaction_kernel), v + increment its start where `increment` is given (a box's
  // diffusion, laid out as params_'s nodes). On a sheet the kernels run over params_'s rows: all
  // of them, or a slab's owned rows; on a box over the N_y rows of each of params_'s planes.
  void react(Pair<real> times, Pair<LogSlot> slots, int halves, const real* increment) {
    const Domain& d = problem_.domain;
    const index_t owned = fields_.slab().owned_offset();  // 0 unless a slab of several
    const index_t reaction_rows = params_.planes * (d.dims == 3 ? d.nodes[1] : 1);
    const dim3 grid(reaction_row_blocks(params_.n[0]),
                    static_cast<unsigned>(std::min<index_t>(reaction_rows, reaction_rows_)));
    const StimulusTable table = stimuli_.view();
    with_kinetics(problem_.model.kinetics, [&](const auto& kin) {
      using K = std::decay_t<decltype(kin)>;
      auto pick = [&](auto halves_constant) {
        constexpr int kHalves = decltype(halves_constant)::value;
        return setup_.medium()   ? reaction_kernel<true, false, false, kHalves, K>
               : d.dims == 3     ? reaction_kernel<false, true, false, kHalves, K>
                                 : reaction_kernel<false, false, false, kHalves, K>;
      };
      auto* kernel = halves == 2 ? pick(std::integral_constant<int, 2>{})
                                 : pick(std::integral_constant<int, 1>{});
      kernel<<<grid, kReactionThreads>>>(fields_.v() + owned, fields_.w() + owned, increment,
                                         params_, kin, medium_, AdiMembers{}, setup_.reaction,
                                         table, times, slots);
    });
    FHN_CUDA_CHECK_LAUNCH();
  }

  // Enqueues the diffusion over one step (adi_point.hpp): a cable's Crank-Nicolson solve, a
  // sheet's rows then columns (Peaceman-Rachford), or a box's three solves (Douglas).
  void diffuse() {
    const Domain& d = problem_.domain;
    const index_t owned = fields_.slab().owned_offset();  // 0 unless a slab of several
    // Rows of the sheet along blockIdx.y (a cable is one row).
    const auto row_blocks = static_cast<unsigned>((params_.n[0] + kBlock - 1) / kBlock);
    const auto rows = static_cast<unsigned>(params_.planes);
    auto rhs = [&](const real* in, real* out, int axis) {
      adi_rhs_kernel<false><<<dim3(row_blocks, rows), kBlock>>>(in, out, params_, setup_.r, axis,
                                                                AdiMembers{});
      FHN_CUDA_CHECK_LAUNCH();
    };
    if (d.dims == 1) {
      rhs(fields_.v(), rhs_.data(), 0);
      solvers_.along[0]->solve(solvers::BatchLayout::rows(d.nodes[0], 1), rhs_.data());
      std::swap(fields_.v_buffer(), rhs_);
    } else if (setup_.medium()) {
      // The same half-steps with every node's own row (one process).
      const index_t nx = d.nodes[0], ny = d.nodes[1];
      auto medium_rhs = [&](const real* in, real* out, int axis) {
        adi_medium_rhs_kernel<<<dim3(row_blocks, rows), kBlock>>>(
            in, out, params_, rows_[axis][0].data(), rows_[axis][2].data(), axis == 0 ? 1 : nx);
        FHN_CUDA_CHECK_LAUNCH();
      };
      auto solve = [&](const solvers::BatchLayout& layout, int axis, real* x) {
        solvers_.along[axis]->solve(layout, rows_[axis][0].data(), rows_[axis][1].data(),
                                    rows_[axis][2].data(), x);
      };
      medium_rhs(fields_.v(), rhs_.data(), 1);  // (I - (k/2) L_x) v* = (I + (k/2) L_y) v
      solve(solvers::BatchLayout::rows(nx, ny), 0, rhs_.data());
      medium_rhs(rhs_.data(), fields_.v(), 0);  // (I - (k/2) L_y) v+ = (I + (k/2) L_x) v*
      solve(solvers::BatchLayout::columns(nx, ny), 1, fields_.v());
    } else if (d.dims == 3) {
      diffuse_box();
    } else {
      real* v = fields_.v() + owned;  // the rows of params_
      if (formed_[0] != nullptr) {  // the two half-steps below, the right sides in the solves
        const index_t nx = d.nodes[0], ny = d.nodes[1];
        formed_[0]->solve_formed(solvers::BatchLayout::rows(nx, ny), v,
                                 SheetAcrossRight{params_, setup_.r, 1}, rhs_.data());
        formed_[1]->solve_formed(solvers::BatchLayout::columns(nx, ny), rhs_.data(),
                                 SheetAcrossRight{params_, setup_.r, 0}, v);
        return;
      }
      if (halo_) halo_->exchange({fields_.v()}, 1, nullptr);  // rows first - 1, first + count
      rhs(v, rhs_.data(), 1);  // (I - (k/2) D dxx) v* = (I + (k/2) D dyy) v
      solvers_.along[0]->solve(solvers::BatchLayout::rows(params_.n[0], params_.planes), rhs_.data());
      rhs(rhs_.data(), v, 0);  // (I - (k/2) D dyy) v+ = (I + (k/2) D dxx) v*
      if (transpose_)
        solve_lines_across_ranks(v);
      else
        solvers_.along[1]->solve(solvers::BatchLayout::columns(d.nodes[0], d.nodes[1]), v);
    }
  }

  // Douglas's diffusion step of a box in its increment form (adi_point.hpp) over params_'s
  // planes (the whole box's, or a slab's owned ones after v's halo exchange): the right side
  // into rhs_, then in place d1 along x, d2 along y (the planes' columns, one batch) and
  // d3 = v+ - v along z (the plane's nodes as interleaved systems; a slab's after the
  // transpose). v stays the step's start; the next reaction pass adds d3 (react's increment).
  void diffuse_box() {
    const Domain& d = problem_.domain;
    const index_t nx = d.nodes[0], ny = d.nodes[1], nz = d.nodes[2], planes = params_.planes;
    const dim3 grid(static_cast<unsigned>((nx + kDouglasLanes - 1) / kDouglasLanes),
                    static_cast<unsigned>((ny + kDouglasRows - 1) / kDouglasRows),
                    static_cast<unsigned>((planes + kDouglasPlanes - 1) / kDouglasPlanes));
    if (halo_) halo_->exchange({fields_.v()}, 1, nullptr);  // planes first - 1, first + count
    real* u = rhs_.data();
    // (I - (k/2) A_x) d1 = k (A_x + A_y + A_z) v
    douglas_increment_kernel<<<grid, dim3(kDouglasLanes, kDouglasRows)>>>(
        fields_.v() + fields_.slab().owned_offset(), u, params_, setup_.r);
    FHN_CUDA_CHECK_LAUNCH();
    solvers_.along[0]->solve(solvers::BatchLayout::rows(nx, ny * planes), u);
    // (I - (k/2) A_y) d2 = d1
    solvers_.along[1]->solve(solvers::BatchLayout::plane_columns(nx, ny, planes), u);
    // (I - (k/2) A_z) d3 = d2
    if (transpose_)
      solve_lines_across_ranks(u);
    else
      solvers_.along[2]->solve(solvers::BatchLayout::columns(nx * ny, nz), u);
  }

  // The solves along the slab axis of a slab of several (a sheet's columns, a box's z lines), as
  // AdiCpu::solve_lines_across_ranks: the right sides (`owned`, the owned planes) packed into
  // one block per rank (its lines, plane by plane), the all-to-all; the blocks arrive in rank
  // order, i.e. in plane order, so lines_ holds node i of plane j at (i - first) + width j: the
  // interleaved layout of `width` lines, solved exactly as the whole domain's lines are. Back:
  // the same blocks return into packed_ and are unpacked into `owned`. Bytes per owned node and
  // step: pack and unpack 2 x 16, the exchanges 2 x 8 x (P - 1)/P sent and 2 x 8 x (P - 1)/P
  // received (P ranks; through host memory: each value copied out and back too).
  void solve_lines_across_ranks(real* owned) {
    const Slab& slab = fields_.slab();
    const dim3 grid(static_cast<unsigned>((slab.plane + kBlock - 1) / kBlock),
                    static_cast<unsigned>(slab.count));
    pack_lines_kernel<<<grid, kBlock>>>(owned, packed_.data(), slots_.data(), slab.plane);
    FHN_CUDA_CHECK_LAUNCH();
    transpose_->exchange(packed_.data(), to_, lines_.data(), from_, nullptr);
    if (width_ > 0)
      solvers_.along[slab.axis]->solve(solvers::BatchLayout::columns(width_, slab.planes),
                                       lines_.data());
    transpose_->exchange(lines_.data(), from_, packed_.data(), to_, nullptr);
    unpack_lines_kernel<<<grid, kBlock>>>(packed_.data(), owned, slots_.data(), slab.plane);
    FHN_CUDA_CHECK_LAUNCH();
  }

  // The statistics and newton.csv rows of both half-steps of step `step` from its log.
  void record_newton(index_t step, const ReactionLog& entry) {
    const real t = problem_.time.t(step);
    for (int stage = 0; stage < 2; ++stage) {
      NewtonStep newton(spec_.newton, step, t, problem_.time.dt, log_, stats_, stage);
      newton.finish(record_reaction_stage(entry, stage, newton));
    }
  }

  CrankNicolsonSpec spec_;
  NewtonLog* log_;
  AdiSetup setup_;
  NodeParams params_;  // the rows the kernels run over: the whole sheet's (or cable's), or a slab's owned rows
  DeviceBuffer<real> rhs_;
  DeviceBuffer<real> v_before_;  // keep_v()'s copy (recording activation)
  DeviceBuffer<ReactionLog> log_device_;
  AdiSolvers solvers_;
  // A sheet with fields: per axis the nodes' rows (lower, diagonal, upper), and the reaction's
  // per-node reads.
  DeviceBuffer<real> rows_[2][3];
  ReactionMedium medium_;
  PinnedBuffer<ReactionLog> host_log_{kLogSteps};
  NewtonStats stats_;
  index_t reaction_rows_ = 1;  // blocks of the reaction grid along y
  bool slab_scheme_ = false;   // built by make_cuda_slab_scheme (names its slab)
  // A slab of several ranks' (none on one rank): the communicator, the transport's description,
  // v's halo exchange, and the transpose: its all-to-all, the slot of every line, the values to
  // and from every rank, this rank's lines, the packed blocks and the whole lines.
  Communicator* comm_ = nullptr;
  std::string transport_;
  std::unique_ptr<DeviceHaloExchange> halo_;
  std::unique_ptr<DeviceAllToAll> transpose_;
  solvers::BatchedPartitionedSolver* formed_[2] = {};  // set_up_formed_right_sides
  DeviceBuffer<LineSlot> slots_;
  std::vector<std::size_t> to_, from_;
  index_t width_ = 0;
  DeviceBuffer<real> packed_, lines_;
};

}  // namespace

std::unique_ptr<Scheme> make_adi_cuda(const Problem& problem, const CrankNicolsonSpec& spec,
                                      NewtonLog* newton_log) {
  return std::make_unique<AdiCuda>(problem, spec, newton_log);
}

std::unique_ptr<Scheme> make_adi_slab_cuda(const Problem& problem, const CrankNicolsonSpec& spec,
                                           NewtonLog* newton_log, Communicator& comm) {
  return std::make_unique<AdiCuda>(problem, spec, newton_log, comm);
}

}  // namespace fhn::cuda
