// Crank-Nicolson / Newton on the GPU. The state, the Jacobian and the Newton work arrays stay on
// the device for the whole run. The kernels of a step (prepare, assemble, update, check, accept)
// are crank_nicolson_kernels.cuh's, shared with the members of a sweep: launched here over one
// member (OneCable) with the whole cable's record (CableNewton) or a slab's (SlabNewton); this
// file holds the host schedules and the fused path's rows (NewtonRows, NewtonSink). Convergence is decided on the device: after each iteration a
// one-thread kernel compares ||du||_inf with the tolerance and raises a flag that turns the
// remaining launched iterations into no-ops. The host launches as many iterations as the previous
// step needed, then synchronises once per step to read the flag and the norms.
//
// Two ways to run an iteration:
// - fused (tridiagonal: partitioned, the default): J and F are built row by row inside the
//   partitioned solver's two passes from u, p and rhs, and the second pass writes u - du into
//   the other u buffer and ||du||; no J, F or du arrays exist. Bytes per unknown and iteration:
//   read u, p, rhs twice (48 B), write u (8 B), against 72 B for the solve of stored arrays
//   alone. Each iteration is a CUDA graph (captured once per pair of u buffers), which removes
//   the launch gaps between its kernels.
// - separate kernels (cyclic_reduction, cusparse, cusparse_pivot; partitioned on a slab or on
//   request, NewtonPath::generic): assemble F and J's diagonal, solve, update u in place.
// Between the steps of one advance() the whole cable skips the accept w+ = p + c u (read p, u,
// write w: 24 B per node): the next step's start forms w^n from p and v as it reads them
// (WSource), and advance() writes w once at its end (settle_w). A step costs prepare (32 B per
// node) and its iterations; a form that confines u (Barkley's) accepts every step.
//
// A cable also runs as one rank's slab of nodes (make_cuda_slab_scheme), as the CPU scheme does
// (crank_nicolson_cpu.cpp): one halo node each side, v's halo exchanged before the right side
// and u's before every residual after the first (parallel/cuda/device_halo_exchange.hpp), and
// each Newton system J du = F solved across the ranks by the partition method of
// parallel/ranks_tridiagonal.hpp: the block's y, p, q by the configured GPU solver, their six
// end values to the host, L and R from the reduced system over the ranks (RanksReducedSystem),
// du = y + L p + R q on the device. Convergence is decided on the host from the norms agreed
// over the ranks (slab_newton has the cost).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include "config/names.hpp"
#include "core/cuda/block_reduce.cuh"
#include "core/cuda/captured_graph.hpp"
#include "core/cuda/pinned_buffer.hpp"
#include "core/format.hpp"
#include "parallel/cuda/device_halo_exchange.hpp"
#include "parallel/ranks_tridiagonal.hpp"
#include "schemes/cuda/crank_nicolson_kernels.cuh"
#include "schemes/cuda/cuda_scheme_factories.hpp"
#include "schemes/cuda/device_fields.cuh"
#include "schemes/node_updates.hpp"
#include "solvers/cuda/partitioned.cuh"
#include "solvers/tridiagonal.hpp"

namespace fhn::cuda {
namespace {

// Where a step's start finds w^n: in w, or, when the last step's accept was deferred (the whole
// cable), as the accept would have written it, w^n = p + c' v, from p (which the start then
// overwrites, each node by the thread that read it) and that step's c'.
struct WSource {
  const real* w;    // w^n, or p of the last step when `deferred`
  real deferred_c;  // the last step's c'
  bool deferred;
  real* w_out;      // where w^n is written when deferred (a leapfrog run's w buffers rotate);
                    // nullptr: nowhere
  __device__ real at(index_t a, real v) const { return deferred ? w[a] + deferred_c * v : w[a]; }
  __device__ void keep(index_t a, real w_n) const {
    if (w_out) w_out[a] = w_n;
  }
};

// Start of a step of the single run from t over `nodes` (the whole cable or a slab's owned
// nodes): w^n (WSource), w+ = p + c u (p here), the explicit half
//   rhs_i = v_i/k + 1/2 [D (L_h v)_i + f(v_i, w_i)] + (I_i's mean over [t, t + k]),
// u = v (when u is given: the fused path reads its first iterate from v); resets the flags (when
// state is given: a slab keeps its own per iteration). The members start their steps with
// crank_nicolson_kernels.cuh's prepare_kernel: the same expressions, but nvcc contracts the
// closed-form offset keep w + c v of this kernel as fma(c, v, keep w) and of that one as
// fma(keep, w, c v) (PTX), so each keeps its own start to keep its bits.
template <class K>
__global__ void cable_prepare_kernel(const real* v, WSource w_source, const real* w_previous,
                                     StimulusTable stimuli, real t, real* p, real* rhs, real* u,
                                     bool leapfrog, TrapezoidalW<K> trap, NodeParams q, K kin,
                                     OwnedNodes nodes, NewtonState* state) {
  const index_t k = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x;
  if (state && k == 0) {
    state->converged = 0;
    state->iterations = 0;
    state->bad_row = static_cast<unsigned long long>(q.n[0]);
    state->norms[0].du_bits = 0;
    state->norms[0].residual_bits = 0;
  }
  if (k >= nodes.count) return;
  const index_t a = nodes.offset + k, i = nodes.first + k;
  // Every load before the first store: a store may alias v (for all the compiler knows), so a
  // load of v after it would wait for the store.
  const Stencil around = array_stencil(v, a, i, q);
  const real w = w_source.at(a, around.centre);
  const real w_before = leapfrog ? w_previous[a] : 0.0;
  const real current = stimulus_current(stimuli, i, t, stimuli.dt);  // the step's mean
  w_source.keep(a, w);
  p[a] = cn_w_offset(around.centre, w, w_before, leapfrog, trap, q, kin);
  rhs[a] = cn_rhs(around.centre, w, stencil_diffusion(around, i, q), current, kin, q.k);
  if (u) u[a] = around.centre;
}

// The rows of J du = F(u), built inside the partitioned solver's passes (fused path): J's
// off-diagonals and, from u, p and rhs, F_i and J_ii (cn_newton_row). The first pass also takes
// ||F||_inf and checks diagonal dominance (finish() is called after the first pass only).
template <class K>
struct NewtonRows {
  using Tile = solvers::partitioned::Tile;
  const real* __restrict__ u;
  const real* __restrict__ p;
  const real* __restrict__ rhs;
  real c;
  NodeParams q;
  K kin;
  NewtonState* state;
  real max_residual = 0.0;
  unsigned long long bad_row = ~0ull;

  __device__ bool active() const { return !state->converged; }
  __device__ void observe(index_t i, real residual, real diag, const OffDiagonals& off) {
    max_residual = nan_max(max_residual, fabs(residual));
    if (fabs(diag) < fabs(off.lower) + fabs(off.upper))
      bad_row = min(bad_row, static_cast<unsigned long long>(i));
  }
  // Row i from global memory (the one-block PCR path).
  __device__ solvers::partitioned::Row row(index_t i) {
    const NewtonPoint point = cn_newton_node(u, p, rhs, c, i, q, kin);
    const OffDiagonals off = cn_off_diagonal_row(i, q);
    observe(i, point.residual, point.diag, off);
    return {off.lower, point.diag, off.upper, point.residual};
  }
  // A tile: u, p, rhs staged into the a, c, d slots (and u's two halo values). Each thread then
  // builds its own rows in one go: J_ii into the b slot, F_i over rhs in the d slot, J's upper
  // diagonal over p in the c slot (both its own row's); the lower diagonal goes into the a slot
  // once every thread has read its neighbours' u there. A tile away from the cable's ends (all
  // but the first and the last) takes the interior rows' expressions without the end tests.
  __device__ void load(Tile t, index_t first, index_t n) {
    using namespace solvers::partitioned;
    __shared__ real halo[2];
    stage(t.a, u, first, n);
    stage(t.c, p, first, n);
    stage(t.d, rhs, first, n);
    // The halo values asynchronously too (a load into a register would stall the block).
    if (threadIdx.x == 0) {
      if (first > 0)
        __pipeline_memcpy_async(&halo[0], u + first - 1, sizeof(real));
      else
        halo[0] = 0.0;
    }
    if (threadIdx.x == 1) {
      if (first + kTileRows < n)
        __pipeline_memcpy_async(&halo[1], u + first + kTileRows, sizeof(real));
      else
        halo[1] = 0.0;
    }
    wait_staged();
    __syncthreads();
    // The rows, with the end tests compiled out where the tile holds no end (kInterior).
    auto build = [&](auto interior_tile) {
      constexpr bool kInterior = decltype(interior_tile)::value;
      const OffDiagonals inner = cn_interior_off_diagonals(q);
      for_own_rows(first, n, [&](int k, index_t i, int s) {
        const int r = staged_row(k);
        const Stencil stencil{r > 0 ? t.a[slot_before(s)] : halo[0], t.a[s],
                              r + 1 < kTileRows ? t.a[slot_after(s)] : halo[1]};
        const NewtonPoint point = kInterior
                                      ? cn_interior_newton_row(stencil, t.c[s], t.d[s], c, q, kin)
                                      : cn_newton_row(stencil, t.c[s], t.d[s], c, i, q, kin);
        const OffDiagonals off = kInterior ? inner : cn_off_diagonal_row(i, q);
        t.b[s] = point.diag;
        t.c[s] = off.upper;
        t.d[s] = point.residual;
        observe(i, point.residual, point.diag, off);
      });
      __syncthreads();
      for_own_rows(first, n, [&](int, index_t i, int s) {
        t.a[s] = kInterior ? inner.lower : cn_off_diagonal_row(i, q).lower;
      });
    };
    if (first > 0 && first + kTileRows < n - 1)  // uniform over the block
      build(std::true_type{});
    else
      build(std::false_type{});
    finish_tile_edges(t, first, n);
  }
  __device__ void finish() {
    const real block = block_max(max_residual);
    if (threadIdx.x == 0) atomic_max_norm(&state->norms[state->iterations].residual_bits, block);
    if (bad_row != ~0ull) atomicMin(&state->bad_row, bad_row);
  }
};

// Where du goes (fused path): u_next = u - du and ||du||_inf; after convergence u is copied.
// The u of the calling thread's rows of a tile is fetched into registers when the tile starts.
struct NewtonSink {
  const real* __restrict__ u;
  real* __restrict__ u_next;
  NewtonState* state;
  real max_du = 0.0;
  real own_u[solvers::partitioned::kChunk] = {};

  __device__ void fetch(index_t first, index_t n) {
    solvers::partitioned::for_own_rows<true>(first, n,
                                             [&](int q, index_t i, int) { own_u[q] = u[i]; });
  }
  __device__ void store_own(int q, index_t i, real du) { put(i, own_u[q], du); }
  __device__ void store(index_t i, real du) { put(i, u[i], du); }
  __device__ void put(index_t i, real u_i, real du) {
    u_next[i] = u_i - du;
    max_du = nan_max(max_du, fabs(du));
  }
  __device__ void passthrough(index_t i) const { u_next[i] = u[i]; }
  __device__ void finish() {
    const real block = block_max(max_du);
    if (threadIdx.x == 0) atomic_max_norm(&state->norms[state->iterations].du_bits, block);
  }
};

// ---- A slab's Newton iteration (separate kernels; the host between them) ----------------------
// One thread: no bad row yet, both norms 0.
__global__ void start_slab_iteration_kernel(SlabIteration* it) {
  it->bad_row = ~0ull;
  it->residual_bits = 0;
  it->du_bits = 0;
}

// One thread: the six ends of y, p, q (m values each) for the reduced system.
__global__ void block_ends_kernel(const real* y, const real* p, const real* q, index_t m,
                                  SlabIteration* it) {
  const real ends[6] = {y[0], y[m - 1], p[0], p[m - 1], q[0], q[m - 1]};
  for (int e = 0; e < 6; ++e) it->ends[e] = ends[e];
}

// CUDA graphs of one fused Newton iteration, one per (u in, u out, c): the u buffers rotate
// between v and the iterate buffer, and c changes after the first leapfrog step, so a run needs
// at most a handful (core/cuda/captured_graph.hpp: each captured once, launched on the default
// stream).
class IterationGraphs {
 public:
  // Launches the graph for (in, out, c), capturing enqueue(stream) into it the first time.
  template <class Enqueue>
  void launch(const real* in, real* out, real c, Enqueue enqueue) {
    auto found = std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) {
      return e.in == in && e.out == out && e.c == c;
    });
    if (found == entries_.end()) {
      entries_.push_back({in, out, c, std::make_unique<CapturedGraph>(enqueue)});
      found = entries_.end() - 1;
    }
    found->graph->launch();
  }

 private:
  struct Entry {
    const real* in;
    real* out;
    real c;
    std::unique_ptr<CapturedGraph> graph;
  };
  std::vector<Entry> entries_;
};

// K: the run's kinetics form (the factories below pick it once).
template <class K>
class CrankNicolsonCuda final : public Scheme {
 public:
  // The whole cable.
  CrankNicolsonCuda(const Problem& problem, const CrankNicolsonSpec& spec, NewtonLog* log,
                    bool use_graphs, NewtonPath path)
      : CrankNicolsonCuda(problem, spec, log, use_graphs, path,
                          make_slab(problem.domain, 0, 1, 0), nullptr) {}
  // Rank comm.rank()'s slab of a cable, on the current device: at least two nodes (the blocks of
  // the partitioned solve) with one halo node each side. `log` on the root only. Collective.
  CrankNicolsonCuda(const Problem& problem, const CrankNicolsonSpec& spec, NewtonLog* log,
                    Communicator& comm)
      : CrankNicolsonCuda(problem, spec, log, true, NewtonPath::generic,
                          make_slab(problem.domain, comm.rank(), comm.size(), 1, 2), &comm) {
    FHN_VERIFY(problem.domain.dims == 1, InternalError, "CrankNicolsonCuda: slabs of a cable only");
  }

  std::string name() const override {
    const Slab& slab = fields_.slab();
    std::string where = device_name_;
    if (comm_)
      where += ", slab " + std::to_string(slab.rank + 1) + " of " + std::to_string(slab.ranks) +
               ", " + exchange_->describe();
    return "Crank-Nicolson/Newton (cuda, " + where + ", " +
           std::string(solvers::backend_name(spec_.tridiagonal)) +
           (fused_ ? " with J and F built in the solver" : "") +
           (comm_ ? " blocks partitioned over ranks" : "") + ", w " +
           name_of(w_update_names(), spec_.w_update) + ")";
  }
  index_t node_count() const override { return nodes_.count; }
  index_t steps_done() const override { return step_; }
  // The state after advance() is whole (settle_w): snapshots and checkpoints read v and w.
  void advance(index_t steps) override {
    for (index_t s = 0; s < steps; ++s) step();
    settle_w();
  }
  void snapshot(Snapshot& out) const override { fields_.download(problem_, step_, out); }
  index_t first_non_finite() const override { return fields_.first_non_finite(); }
  void read_nodes(const std::vector<index_t>& nodes, std::vector<real>& v,
                  std::vector<real>& w) const override {
    fields_.read_nodes(nodes, v, w);
  }
  const NewtonStats* newton_stats() const override { return &stats_; }
  // v, w, and for leapfrog the previous w (the owned nodes).
  SchemeState save_state() const override {
    SchemeState state;
    state.step = step_;
    fields_.save(state);
    if (w_previous_.size() > 0) fields_.save_array(state, "w_previous", w_previous_);
    return state;
  }
  void restore_state(const SchemeState& state) override {
    fields_.restore(state);
    if (w_previous_.size() > 0) fields_.restore_array(state, "w_previous", w_previous_);
    step_ = state.step;
    w_deferred_ = false;
  }

 private:
  // comm: the ranks of a slab scheme (make_slab_scheme), nullptr for the whole cable; a slab of
  // one rank runs as the whole cable. The arrays of v, w, u, p, rhs hold the slab's array nodes
  // (owned and halo); J, F, p and q its owned rows. The fused path: the whole cable with the
  // partitioned solver, unless `path` asks for the generic one.
  CrankNicolsonCuda(const Problem& problem, const CrankNicolsonSpec& spec, NewtonLog* log,
                    bool use_graphs, NewtonPath path, const Slab& slab, Communicator* comm)
      : problem_(problem),
        params_(node_params(problem)),
        kin_(std::get<K>(problem.model.kinetics)),
        trap_(trapezoidal_w(kin_, params_.k)),
        spec_(spec),
        log_(log),
        nodes_{slab.owned_offset(), slab.global_offset(), slab.owned_nodes()},
        comm_(slab.whole() ? nullptr : comm),
        fused_(!comm_ && spec.tridiagonal == solvers::TridiagonalBackend::partitioned &&
               path == NewtonPath::fused),
        use_graphs_(use_graphs),
        solver_(fused_ ? nullptr : solvers::make_tridiagonal_solver(spec.tridiagonal, nodes_.count)),
        workspace_(fused_ ? nodes_.count : 0),
        fields_(comm ? DeviceFields(problem, slab) : DeviceFields(problem)),
        stimuli_(problem.stimuli),
        w_previous_(spec.w_update == WUpdate::leapfrog ? slab.array_nodes() : 0, "w (previous)"),
        u_(slab.array_nodes(), "Newton iterate"),
        p_(slab.array_nodes(), "w offset"),
        rhs_(slab.array_nodes(), "right-hand side"),
        lower_(separate_size(), "Jacobian lower"),
        diag_(separate_size(), "Jacobian diagonal"),
        upper_(separate_size(), "Jacobian upper"),
        residual_(separate_size(), "Newton residual"),
        left_response_(comm_ ? separate_size() : 0, "response to the left coupling"),
        right_response_(comm_ ? separate_size() : 0, "response to the right coupling"),
        state_(comm_ ? 0 : 1, "Newton state"),
        slab_iteration_(comm_ ? 1 : 0, "slab Newton iteration"),
        exchange_(comm_ ? make_device_halo_exchange(slab, *comm_, 1) : nullptr),
        reduced_(comm_ ? std::make_unique<RanksReducedSystem>(*comm_) : nullptr),
        host_state_(comm_ ? 0 : 1),
        device_name_(current_device_name()) {
    FHN_VERIFY(solvers::runs_on_device(spec.tridiagonal), ConfigError,
               "scheme.crank_nicolson.tridiagonal: 'thomas' works on host memory; the cuda backend "
               "needs partitioned, cyclic_reduction, cusparse or cusparse_pivot");
    if (!fused_) {
      // The owned rows' constant off-diagonals: T, the block without its couplings to the
      // neighbouring ranks a_0 = lower_0 and c_{m-1} = upper_{m-1} (0 on the whole cable).
      const auto m = static_cast<std::size_t>(nodes_.count);
      std::vector<real> lower(m), upper(m);
      for (std::size_t k = 0; k < m; ++k) {
        const OffDiagonals row = cn_off_diagonal_row(nodes_.first + static_cast<index_t>(k), params_);
        lower[k] = row.lower;
        upper[k] = row.upper;
      }
      coupling_ = {lower[0], upper[m - 1]};
      lower[0] = upper[m - 1] = 0.0;
      lower_.upload(lower.data(), m);
      upper_.upload(upper.data(), m);
    }
  }

  std::size_t separate_size() const { return fused_ ? 0 : static_cast<std::size_t>(nodes_.count); }

  // One fused iteration from u_in into u_out, then the convergence check: a CUDA graph.
  void fused_iteration(const real* u_in, real* u_out, real c) {
    NewtonState* state = state_.data();
    auto enqueue = [&](cudaStream_t stream) {
      solvers::partitioned::solve(NewtonRows<K>{u_in, p_.data(), rhs_.data(), c, params_, kin_, state},
                                  NewtonSink{u_in, u_out, state}, params_.n[0], workspace_, stream);
      check_kernel<<<1, 1, 0, stream>>>(CableNewton{state}, spec_.newton.tolerance);
      FHN_CUDA_CHECK_LAUNCH();
    };
    if (use_graphs_)
      graphs_.launch(u_in, u_out, c, enqueue);
    else
      enqueue(nullptr);
  }

  // The owned nodes with this run's constants, c of this step's W(u) = p + c u (the shared
  // kernels' layout: crank_nicolson_kernels.cuh).
  OneCable<K> cable(real c) const { return {nodes_, params_, kin_, c}; }

  // One iteration with separate kernels: assemble F and J's diagonal, solve, u -= du, check.
  void separate_iteration(real c) {
    const index_t n = params_.n[0];
    const unsigned blocks = blocks_for(n);
    const CableNewton record{state_.data(), lower_.data(), upper_.data()};
    assemble_kernel<<<blocks, kBlock>>>(cable(c), u_.data(), p_.data(), rhs_.data(),
                                        residual_.data(), diag_.data(), record);
    FHN_CUDA_CHECK_LAUNCH();
    solver_->solve({n, lower_.data(), diag_.data(), upper_.data()}, residual_.data());  // du
    update_kernel<<<blocks, kBlock>>>(cable(c), u_.data(), residual_.data(), record);
    FHN_CUDA_CHECK_LAUNCH();
    check_kernel<<<1, 1>>>(record, spec_.newton.tolerance);
    FHN_CUDA_CHECK_LAUNCH();
  }

  void step() {
    const real t = problem_.time.t(step_);
    const bool leapfrog = spec_.w_update == WUpdate::leapfrog && step_ > 0;
    const real c = leapfrog ? 0.0 : trap_.c;

    // A slab: v's halo from the neighbours first (the rhs' stencils reach it), and u = v with the
    // halos (no exchange of u before the first residual).
    if (comm_) exchange_->exchange({fields_.v()}, 1, nullptr);
    // After a deferred accept w^n is formed from p (WSource); a leapfrog step keeps w^n as the
    // next one's w^{n-1}, so then it is written to w's buffer too.
    const WSource w_source{w_deferred_ ? p_.data() : fields_.w(), deferred_c_, w_deferred_,
                           w_deferred_ && spec_.w_update == WUpdate::leapfrog ? fields_.w()
                                                                               : nullptr};
    cable_prepare_kernel<<<blocks_for(nodes_.count), kBlock>>>(
        fields_.v(), w_source, w_previous_.data(), stimuli_.view(), t, p_.data(), rhs_.data(),
        fused_ || comm_ ? nullptr : u_.data(), leapfrog, trap_, params_, kin_, nodes_,
        comm_ ? nullptr : state_.data());
    FHN_CUDA_CHECK_LAUNCH();
    w_deferred_ = false;
    if (comm_)
      FHN_CUDA_CHECK(cudaMemcpyAsync(u_.data(), fields_.v(), u_.size() * sizeof(real),
                                     cudaMemcpyDeviceToDevice));

    // Newton; then accept: v+ = u (a buffer swap unless the fused path ended in v's own buffer),
    // w+ = W(u); leapfrog keeps w^n as the previous w. The whole cable defers w+ = p + c u to the
    // next step's start or the end of advance() (settle_w), unless its form confines u first or
    // has no closed-form w+ (WSource forms p + c v): 24 B per node and step less.
    const bool iterate_in_u = comm_ ? slab_newton(c, t) : device_newton(c, t);
    if (iterate_in_u) std::swap(fields_.v_buffer(), u_);
    if (spec_.w_update == WUpdate::leapfrog) std::swap(fields_.w_buffer(), w_previous_);
    if (!comm_ && !K::kConfined && kClosedFormW<K>) {
      w_deferred_ = true;
      deferred_c_ = c;
    } else {
      accept(c);
    }
    ++step_;
  }

  // w+ = W(u) over the owned nodes (v+ = u already in place).
  void accept(real c) {
    accept_kernel<<<blocks_for(nodes_.count), kBlock>>>(cable(c), p_.data(), fields_.v(),
                                                         fields_.w(), AllConverged{});
    FHN_CUDA_CHECK_LAUNCH();
  }

  // The deferred accept, done when the caller may read the state.
  void settle_w() {
    if (!w_deferred_) return;
    accept(deferred_c_);
    w_deferred_ = false;
  }

  // Newton on the whole cable, decided on the device: launch a batch of iterations (as many as
  // the last step needed), then read the flag once; iterations past convergence do nothing
  // (fused: copy u across). Returns whether the last iterate is in u_ (fused: the iterate
  // ping-pongs between v's buffer and u_).
  bool device_newton(real c, real t) {
    NewtonStep newton(spec_.newton, step_, t, params_.k, log_, stats_);
    const index_t n = params_.n[0];
    real* u_in = fields_.v();
    real* u_out = u_.data();
    const int max_iterations = static_cast<int>(spec_.newton.max_iterations);
    int launched = 0;
    int batch = std::max(1, last_iterations_);
    const NewtonState& read = *host_state_.data();  // as read_state leaves it
    for (;;) {
      for (int j = 0; j < batch && launched < max_iterations; ++j, ++launched) {
        if (fused_) {
          fused_iteration(u_in, u_out, c);
          std::swap(u_in, u_out);
        } else {
          separate_iteration(c);
        }
      }
      read_state(launched);  // the one synchronisation of the step
      if (read.bad_row < static_cast<unsigned long long>(n))
        throw newton.not_dominant(static_cast<index_t>(read.bad_row));
      if (read.converged || launched >= max_iterations) break;
      batch = 1;
    }

    // The history the device decided on (check_kernel: converged when ||du||_inf < tolerance;
    // non-finite norms run on to max_iterations and fail).
    const int iterations = read.iterations;
    for (int i = 0; i < iterations; ++i)
      newton.record(norm_from_bits(read.norms[i].du_bits),
                    norm_from_bits(read.norms[i].residual_bits));
    newton.finish(read.converged != 0);
    last_iterations_ = iterations;
    return !fused_ || u_in != fields_.v();
  }

  // Newton on a slab, across the ranks (the CPU slab's iteration, crank_nicolson_cpu.cpp):
  //   1. u's halo from the neighbours (not before the first residual: u = v there);
  //   2. F(u) and J over the owned rows; T y = F, T p = -a_0 e_0, T q = -c_{m-1} e_{m-1} by the
  //      configured solver (three solves of one matrix: the GPU solvers leave it untouched);
  //   3. y, p, q's ends to the host, L and R from the reduced system over the ranks;
  //   4. du = y + L p + R q, u -= du; ||du||_inf and ||F||_inf to the host, the largest over the
  //      ranks (non-finite as infinity), and the convergence decision, alike on every rank.
  // Cost of deciding on the host: per iteration the host waits for the device twice (3., 4.)
  // and the ranks meet four times (the bad-row minimum, the reduced system's gather and scatter,
  // the norms' maximum) besides the halo exchange: some tens of microseconds, against about
  // 310 B per owned node of device traffic (3 solves of 72 B, assembly 56 B, update 40 B), i.e.
  // 0.1 ms per 10^6 nodes at 3 TB/s: negligible from a few million nodes per rank on.
  // Returns true: the iterate is in u_.
  bool slab_newton(real c, real t) {
    const index_t m = nodes_.count, n = params_.n[0];
    const bool has_left = comm_->rank() > 0, has_right = comm_->rank() + 1 < comm_->size();
    const solvers::TridiagonalSystem block{m, lower_.data(), diag_.data(), upper_.data()};
    SlabIteration* it = slab_iteration_.data();
    NewtonStep newton(spec_.newton, step_, t, params_.k, log_, stats_);
    newton_iterate(newton, [&](index_t iteration) -> NewtonNorms {
      // 1. u's halo.
      if (iteration > 1) exchange_->exchange({u_.data()}, 1, nullptr);
      // 2. F(u), J; y, p, q.
      start_slab_iteration_kernel<<<1, 1>>>(it);
      FHN_CUDA_CHECK_LAUNCH();
      SlabNewton slab{it, m, coupling_.left, coupling_.right, left_response_.data(),
                      right_response_.data()};
      assemble_kernel<<<blocks_for(m), kBlock>>>(cable(c), u_.data(), p_.data(), rhs_.data(),
                                                 residual_.data(), diag_.data(), slab);
      FHN_CUDA_CHECK_LAUNCH();
      solver_->solve(block, residual_.data());  // y
      if (has_left) solver_->solve(block, left_response_.data());    // p
      if (has_right) solver_->solve(block, right_response_.data());  // q
      // 3. The ends to the host (the first wait). J's dominance is agreed first (the GPU solvers
      //    do not pivot): the smallest bad global row over the ranks stops every rank alike.
      block_ends_kernel<<<1, 1>>>(residual_.data(), left_response_.data(),
                                  right_response_.data(), m, it);
      FHN_CUDA_CHECK_LAUNCH();
      SlabIteration record{};
      slab_iteration_.download(&record, 1);
      const index_t bad_row =
          comm_->min(record.bad_row < static_cast<unsigned long long>(n)
                         ? static_cast<index_t>(record.bad_row)
                         : n);
      if (bad_row < n) throw newton.not_dominant(bad_row);
      const real* e = record.ends;
      const solvers::BlockCouplings lr = reduced_->solve({e[0], e[1], e[2], e[3], e[4], e[5]});
      // 4. du = y + L p + R q, u -= du; the norms to the host (the second wait), agreed.
      slab.left = lr.left;
      slab.right = lr.right;
      update_kernel<<<blocks_for(m), kBlock>>>(cable(c), u_.data(), residual_.data(), slab);
      FHN_CUDA_CHECK_LAUNCH();
      slab_iteration_.download(&record, 1);
      std::vector<real> largest{norm_from_bits(record.du_bits),
                                norm_from_bits(record.residual_bits)};
      comm_->max(largest);  // non-finite ones as infinity
      return {largest[0], largest[1]};
    });
    return true;
  }

  // Copies the flags and the first `iterations` norms into pinned memory (synchronises).
  void read_state(int iterations) {
    const std::size_t bytes = offsetof(NewtonState, norms) +
                              static_cast<std::size_t>(iterations) * sizeof(NewtonState::Norms);
    FHN_CUDA_CHECK(
        cudaMemcpyAsync(host_state_.data(), state_.data(), bytes, cudaMemcpyDeviceToHost));
    FHN_CUDA_CHECK(cudaStreamSynchronize(0));
  }

  // J's entries of the first and last owned rows towards the neighbouring ranks: a_0, c_{m-1}.
  struct Couplings {
    real left = 0.0;
    real right = 0.0;
  };

  Problem problem_;
  NodeParams params_;  // of the whole cable (global node indices)
  K kin_;
  TrapezoidalW<K> trap_;  // the trapezoidal rule of w+ = W(u) for kin_ and k
  CrankNicolsonSpec spec_;
  NewtonLog* log_;
  OwnedNodes nodes_;
  Communicator* comm_;  // a slab's ranks (nullptr: the whole cable)
  bool fused_;
  bool use_graphs_;
  std::unique_ptr<solvers::TridiagonalSolver> solver_;  // separate path and slabs
  solvers::partitioned::Workspace workspace_;           // fused path only
  IterationGraphs graphs_;
  DeviceFields fields_;
  DeviceStimuli stimuli_;
  DeviceBuffer<real> w_previous_, u_, p_, rhs_, lower_, diag_, upper_, residual_;
  DeviceBuffer<real> left_response_, right_response_;  // a slab's p and q
  DeviceBuffer<NewtonState> state_;                    // the whole cable
  DeviceBuffer<SlabIteration> slab_iteration_;         // a slab
  std::unique_ptr<DeviceHaloExchange> exchange_;       // a slab
  std::unique_ptr<RanksReducedSystem> reduced_;  // a slab
  Couplings coupling_;
  PinnedBuffer<NewtonState> host_state_;  // the whole cable
  NewtonStats stats_;
  std::string device_name_;
  index_t step_ = 0;
  int last_iterations_ = 3;
  bool w_deferred_ = false;  // w = p + deferred_c_ v not yet written (settle_w)
  real deferred_c_ = 0.0;
};

}  // namespace

std::unique_ptr<Scheme> make_crank_nicolson_cuda(const Problem& problem,
                                                 const CrankNicolsonSpec& spec,
                                                 NewtonLog* newton_log, bool use_graphs,
                                                 NewtonPath path) {
  return with_kinetics(problem.model.kinetics, [&](const auto& kin) -> std::unique_ptr<Scheme> {
    using K = std::decay_t<decltype(kin)>;
    return std::make_unique<CrankNicolsonCuda<K>>(problem, spec, newton_log, use_graphs, path);
  });
}

std::unique_ptr<Scheme> make_crank_nicolson_slab_cuda(const Problem& problem,
                                                      const CrankNicolsonSpec& spec,
                                                      NewtonLog* newton_log, Communicator& comm) {
  return with_kinetics(problem.model.kinetics, [&](const auto& kin) -> std::unique_ptr<Scheme> {
    using K = std::decay_t<decltype(kin)>;
    return std::make_unique<CrankNicolsonCuda<K>>(problem, spec, newton_log, comm);
  });
}

}  // namespace fhn::cuda
