// Crank-Nicolson / Newton on the GPU. The state, the Jacobian and the Newton work arrays stay on
// the device for the whole run. Convergence is decided on the device: after each iteration a
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
// - separate kernels (cyclic_reduction, cusparse, cusparse_pivot): assemble F and J's diagonal,
//   solve, update u in place.
#include <algorithm>
#include <cstring>
#include <vector>

#include "config/names.hpp"
#include "core/format.hpp"
#include "schemes/cuda/cuda_scheme_factories.hpp"
#include "schemes/cuda/device_fields.cuh"
#include "core/cuda/block_reduce.cuh"
#include "schemes/node_updates.hpp"
#include "solvers/cuda/partitioned.cuh"
#include "solvers/tridiagonal.hpp"

namespace fhn::cuda {
namespace {

constexpr int kMaxIterations = 1000;  // the config's upper bound for newton.max_iterations

// Written by the kernels, read by the host once per step. Norms are stored as the bit patterns
// of non-negative doubles, which order like the numbers (so atomicMax works), NaN above all.
struct NewtonState {
  int converged;
  int iterations;
  unsigned long long bad_row;  // first row that is not diagonally dominant, n when none
  struct Norms {
    unsigned long long du_bits;
    unsigned long long residual_bits;
  } norms[kMaxIterations];  // per iteration, so that one copy brings the used ones
};

// Start of a step from t: w+ = p + c u (p here), the explicit half rhs with the stimulus current
// 1/2 (I^n + I^{n+1}), u = v (when u is given: the fused path reads its first iterate from v);
// resets the flags.
__global__ void prepare_kernel(const real* v, const real* w, const real* w_previous,
                               StimulusTable stimuli, real t, real* p, real* rhs, real* u,
                               bool leapfrog, TrapezoidalW trap, NodeParams q, NewtonState* state) {
  const index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x;
  if (i == 0) {
    state->converged = 0;
    state->iterations = 0;
    state->bad_row = static_cast<unsigned long long>(q.n);
    state->norms[0].du_bits = 0;
    state->norms[0].residual_bits = 0;
  }
  if (i >= q.n) return;
  p[i] = cn_w_offset(v[i], w[i], leapfrog ? w_previous[i] : 0.0, leapfrog, trap, q);
  rhs[i] = cn_rhs_node(v, w, stimulus_current(stimuli, i, t, 0.5, 0.5), i, q);
  if (u) u[i] = v[i];
}

// F(u) and J's diagonal; ||F||_inf and the diagonal-dominance check on the way.
__global__ void assemble_kernel(const real* u, const real* p, const real* rhs, real c,
                                const real* lower, const real* upper, real* residual, real* diag,
                                NodeParams q, NewtonState* state) {
  if (state->converged) return;  // uniform over the grid: safe before the block reduction
  const index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x;
  real magnitude = 0.0;
  if (i < q.n) {
    const NewtonPoint row = cn_newton_node(u, p, rhs, c, i, q);
    residual[i] = row.residual;
    diag[i] = row.diag;
    magnitude = fabs(row.residual);
    if (fabs(row.diag) < fabs(lower[i]) + fabs(upper[i]))
      atomicMin(&state->bad_row, static_cast<unsigned long long>(i));
  }
  const real block = block_max(magnitude);
  if (threadIdx.x == 0) atomic_max_norm(&state->norms[state->iterations].residual_bits, block);
}

// u -= du and ||du||_inf.
__global__ void update_kernel(real* u, const real* du, index_t n, NewtonState* state) {
  if (state->converged) return;
  const index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x;
  real magnitude = 0.0;
  if (i < n) {
    u[i] -= du[i];
    magnitude = fabs(du[i]);
  }
  const real block = block_max(magnitude);
  if (threadIdx.x == 0) atomic_max_norm(&state->norms[state->iterations].du_bits, block);
}

// The rows of J du = F(u), built inside the partitioned solver's passes (fused path): J's
// off-diagonals and, from u, p and rhs, F_i and J_ii (cn_newton_row). The first pass also takes
// ||F||_inf and checks diagonal dominance (finish() is called after the first pass only).
struct NewtonRows {
  using Tile = solvers::partitioned::Tile;
  const real* __restrict__ u;
  const real* __restrict__ p;
  const real* __restrict__ rhs;
  real c;
  NodeParams q;
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
    const NewtonPoint point = cn_newton_node(u, p, rhs, c, i, q);
    const OffDiagonals off = cn_off_diagonal_row(i, q);
    observe(i, point.residual, point.diag, off);
    return {off.lower, point.diag, off.upper, point.residual};
  }
  // A tile: u, p, rhs staged into the a, c, d slots (and u's two halo values); then J_ii and F_i
  // into the b and d slots; then the off-diagonals over u and p.
  __device__ void load(Tile t, index_t first, index_t n) {
    using namespace solvers::partitioned;
    __shared__ real halo[2];
    stage(t.a, u, first, n);
    stage(t.c, p, first, n);
    stage(t.d, rhs, first, n);
    if (threadIdx.x == 0) halo[0] = first > 0 ? u[first - 1] : 0.0;
    if (threadIdx.x == 1) halo[1] = first + kTileRows < n ? u[first + kTileRows] : 0.0;
    wait_staged();
    __syncthreads();
    for_own_rows(first, n, [&](int r, index_t i, int s) {
      const Stencil stencil{r > 0 ? t.a[slot(r - 1)] : halo[0], t.a[s],
                            r + 1 < kTileRows ? t.a[slot(r + 1)] : halo[1]};
      const NewtonPoint point = cn_newton_row(stencil, t.c[s], t.d[s], c, i, q);
      t.b[s] = point.diag;
      t.d[s] = point.residual;
    });
    __syncthreads();
    for_own_rows(first, n, [&](int, index_t i, int s) {
      const OffDiagonals off = cn_off_diagonal_row(i, q);
      t.a[s] = off.lower;
      t.c[s] = off.upper;
      observe(i, t.d[s], t.b[s], off);
    });
    finish_tile_edges(t, first, n);
  }
  __device__ void finish() {
    const real block = block_max(max_residual);
    if (threadIdx.x == 0) atomic_max_norm(&state->norms[state->iterations].residual_bits, block);
    if (bad_row != ~0ull) atomicMin(&state->bad_row, bad_row);
  }
};

// Where du goes (fused path): u_next = u - du and ||du||_inf; after convergence u is copied.
struct NewtonSink {
  const real* __restrict__ u;
  real* __restrict__ u_next;
  NewtonState* state;
  real max_du = 0.0;

  __device__ void store(index_t i, real du) {
    u_next[i] = u[i] - du;
    max_du = nan_max(max_du, fabs(du));
  }
  __device__ void passthrough(index_t i) const { u_next[i] = u[i]; }
  __device__ void finish() {
    const real block = block_max(max_du);
    if (threadIdx.x == 0) atomic_max_norm(&state->norms[state->iterations].du_bits, block);
  }
};

// One thread: count the iteration, decide convergence, clear the next iteration's norm slots.
__global__ void check_kernel(NewtonState* state, real tolerance) {
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

// Accept the step: w+ = p + c u (v+ = u is a pointer swap on the host).
__global__ void accept_kernel(const real* p, const real* u, real c, real* w, index_t n) {
  const index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x;
  if (i < n) w[i] = p[i] + c * u[i];
}

double from_bits(unsigned long long bits) {
  double value = 0.0;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

// CUDA graphs of one fused Newton iteration, one per (u in, u out, c): the u buffers rotate
// between v and the iterate buffer, and c changes after the first leapfrog step, so a run needs
// at most a handful. Captured on a private stream, launched on the default stream.
class IterationGraphs {
 public:
  IterationGraphs() = default;
  IterationGraphs(const IterationGraphs&) = delete;
  IterationGraphs& operator=(const IterationGraphs&) = delete;
  ~IterationGraphs() {
    for (const Entry& e : entries_) cudaGraphExecDestroy(e.exec);
    if (stream_) cudaStreamDestroy(stream_);
  }

  // Launches the graph for (in, out, c), capturing enqueue(stream) into it the first time.
  template <class Enqueue>
  void launch(const real* in, real* out, real c, Enqueue enqueue) {
    auto found = std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) {
      return e.in == in && e.out == out && e.c == c;
    });
    if (found == entries_.end()) {
      entries_.push_back({in, out, c, capture(enqueue)});
      found = entries_.end() - 1;
    }
    FHN_CUDA_CHECK(cudaGraphLaunch(found->exec, nullptr));
  }

 private:
  struct Entry {
    const real* in;
    real* out;
    real c;
    cudaGraphExec_t exec;
  };

  template <class Enqueue>
  cudaGraphExec_t capture(Enqueue enqueue) {
    if (!stream_) FHN_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    FHN_CUDA_CHECK(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeRelaxed));
    cudaGraph_t graph = nullptr;
    try {
      enqueue(stream_);
    } catch (...) {
      cudaStreamEndCapture(stream_, &graph);
      if (graph) cudaGraphDestroy(graph);
      throw;
    }
    FHN_CUDA_CHECK(cudaStreamEndCapture(stream_, &graph));
    cudaGraphExec_t exec = nullptr;
    const cudaError_t status = cudaGraphInstantiate(&exec, graph, 0);
    cudaGraphDestroy(graph);
    FHN_CUDA_CHECK(status);
    return exec;
  }

  cudaStream_t stream_ = nullptr;
  std::vector<Entry> entries_;
};

class CrankNicolsonCuda final : public Scheme {
 public:
  CrankNicolsonCuda(const Problem& problem, const CrankNicolsonSpec& spec, NewtonLog* log,
                    bool use_graphs)
      : problem_(problem),
        params_(node_params(problem.model, problem.boundary, problem.nodes, problem.dx, problem.dt)),
        spec_(spec),
        log_(log),
        fused_(spec.tridiagonal == solvers::TridiagonalBackend::partitioned),
        use_graphs_(use_graphs),
        solver_(fused_ ? nullptr : solvers::make_tridiagonal_solver(spec.tridiagonal, problem.nodes)),
        workspace_(fused_ ? problem.nodes : 0),
        fields_(problem),
        stimuli_(problem.stimuli),
        w_previous_(spec.w_update == WUpdate::leapfrog ? problem.nodes : 0, "w (previous)"),
        u_(problem.nodes, "Newton iterate"),
        p_(problem.nodes, "w offset"),
        rhs_(problem.nodes, "right-hand side"),
        lower_(separate_size(), "Jacobian lower"),
        diag_(separate_size(), "Jacobian diagonal"),
        upper_(separate_size(), "Jacobian upper"),
        residual_(separate_size(), "Newton residual"),
        state_(1, "Newton state"),
        device_name_(current_device_name()) {
    FHN_VERIFY(solvers::runs_on_device(spec.tridiagonal), ConfigError,
               "scheme.crank_nicolson.tridiagonal: 'thomas' works on host memory; the cuda backend "
               "needs partitioned, cyclic_reduction, cusparse or cusparse_pivot");
    if (!fused_) {
      std::vector<real> lower(problem.nodes), upper(problem.nodes);
      cn_off_diagonals(params_, lower.data(), upper.data());
      lower_.upload(lower.data(), lower.size());
      upper_.upload(upper.data(), upper.size());
    }
    FHN_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&host_state_), sizeof(NewtonState)));
  }
  ~CrankNicolsonCuda() override { cudaFreeHost(host_state_); }
  CrankNicolsonCuda(const CrankNicolsonCuda&) = delete;
  CrankNicolsonCuda& operator=(const CrankNicolsonCuda&) = delete;

  std::string name() const override {
    return "Crank-Nicolson/Newton (cuda, " + device_name_ + ", " +
           std::string(solvers::backend_name(spec_.tridiagonal)) +
           (fused_ ? " with J and F built in the solver" : "") + ", w " +
           name_of(w_update_names(), spec_.w_update) + ")";
  }
  index_t node_count() const override { return problem_.nodes; }
  index_t steps_done() const override { return step_; }
  void advance(index_t steps) override {
    for (index_t s = 0; s < steps; ++s) step();
  }
  void snapshot(Snapshot& out) const override { fields_.download(problem_, step_, out); }
  index_t first_non_finite() const override { return fields_.first_non_finite(); }
  const NewtonStats* newton_stats() const override { return &stats_; }
  // v, w, and for leapfrog the previous w.
  SchemeState save_state() const override {
    SchemeState state;
    state.step = step_;
    fields_.save(state);
    if (w_previous_.size() > 0) state.add("w_previous", to_host(w_previous_));
    return state;
  }
  void restore_state(const SchemeState& state) override {
    fields_.restore(state);
    if (w_previous_.size() > 0)
      w_previous_.upload(state.get("w_previous", w_previous_.size()).data(), w_previous_.size());
    step_ = state.step;
  }

 private:
  std::size_t separate_size() const { return fused_ ? 0 : static_cast<std::size_t>(problem_.nodes); }

  // One fused iteration from u_in into u_out, then the convergence check: a CUDA graph.
  void fused_iteration(const real* u_in, real* u_out, real c) {
    NewtonState* state = state_.data();
    auto enqueue = [&](cudaStream_t stream) {
      solvers::partitioned::solve(NewtonRows{u_in, p_.data(), rhs_.data(), c, params_, state},
                                  NewtonSink{u_in, u_out, state}, params_.n, workspace_, stream);
      check_kernel<<<1, 1, 0, stream>>>(state, spec_.newton.tolerance);
      FHN_CUDA_CHECK_LAUNCH();
    };
    if (use_graphs_)
      graphs_.launch(u_in, u_out, c, enqueue);
    else
      enqueue(nullptr);
  }

  // One iteration with separate kernels: assemble F and J's diagonal, solve, u -= du, check.
  void separate_iteration(real c) {
    const index_t n = params_.n;
    const unsigned blocks = blocks_for(n);
    NewtonState* state = state_.data();
    assemble_kernel<<<blocks, kBlock>>>(u_.data(), p_.data(), rhs_.data(), c, lower_.data(),
                                        upper_.data(), residual_.data(), diag_.data(), params_,
                                        state);
    FHN_CUDA_CHECK_LAUNCH();
    solver_->solve({n, lower_.data(), diag_.data(), upper_.data()}, residual_.data());  // du
    update_kernel<<<blocks, kBlock>>>(u_.data(), residual_.data(), n, state);
    FHN_CUDA_CHECK_LAUNCH();
    check_kernel<<<1, 1>>>(state, spec_.newton.tolerance);
    FHN_CUDA_CHECK_LAUNCH();
  }

  void step() {
    const index_t n = params_.n;
    const real k = params_.k;
    const real t = static_cast<real>(step_) * k;
    const unsigned blocks = blocks_for(n);
    const bool leapfrog = spec_.w_update == WUpdate::leapfrog && step_ > 0;
    const TrapezoidalW trap = trapezoidal_w(k, params_.epsilon, params_.gamma);
    const real c = leapfrog ? 0.0 : trap.c;

    prepare_kernel<<<blocks, kBlock>>>(fields_.v(), fields_.w(), w_previous_.data(),
                                       stimuli_.view(), t, p_.data(), rhs_.data(), fused_ ? nullptr : u_.data(),
                                       leapfrog, trap, params_, state_.data());
    FHN_CUDA_CHECK_LAUNCH();

    // Newton: launch a batch of iterations (as many as the last step needed), then read the
    // flag once; iterations past convergence do nothing (fused: copy u across).
    real* u_in = fields_.v();  // fused: the iterate ping-pongs between v's buffer and u_
    real* u_out = u_.data();
    const int max_iterations = static_cast<int>(spec_.newton.max_iterations);
    int launched = 0;
    int batch = std::max(1, last_iterations_);
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
      if (host_state_->bad_row < static_cast<unsigned long long>(n)) throw not_dominant();
      if (host_state_->converged || launched >= max_iterations) break;
      batch = 1;
    }

    const int iterations = host_state_->iterations;
    std::vector<real> du(static_cast<std::size_t>(iterations)), residual(du.size());
    for (int i = 0; i < iterations; ++i) {
      du[i] = from_bits(host_state_->norms[i].du_bits);
      residual[i] = from_bits(host_state_->norms[i].residual_bits);
      if (log_) log_->record({step_, i + 1, du[i], residual[i]});
    }
    if (!host_state_->converged) throw newton_failure(step_, t, k, spec_.newton, du, residual);
    stats_.add_step(du);
    last_iterations_ = iterations;

    // Accept: v+ = u (a buffer swap), w+ = p + c u; leapfrog keeps w^n as the previous w.
    // Fused, the last iterate is in u_in: v's own buffer or u_.
    if (!fused_ || u_in != fields_.v()) std::swap(fields_.v_buffer(), u_);
    if (spec_.w_update == WUpdate::leapfrog) std::swap(fields_.w_buffer(), w_previous_);
    accept_kernel<<<blocks, kBlock>>>(p_.data(), fields_.v(), c, fields_.w(), n);
    FHN_CUDA_CHECK_LAUNCH();
    ++step_;
  }

  // Copies the flags and the first `iterations` norms into pinned memory (synchronises).
  void read_state(int iterations) {
    const std::size_t bytes = offsetof(NewtonState, norms) +
                              static_cast<std::size_t>(iterations) * sizeof(NewtonState::Norms);
    FHN_CUDA_CHECK(cudaMemcpyAsync(host_state_, state_.data(), bytes, cudaMemcpyDeviceToHost));
    FHN_CUDA_CHECK(cudaStreamSynchronize(0));
  }

  NumericalError not_dominant() const {
    return NumericalError("the Newton matrix is not diagonally dominant at row " +
                          std::to_string(host_state_->bad_row) + " in step " +
                          std::to_string(step_) + " (time.dt = " + format_exact(params_.k) +
                          "): the GPU solvers do not pivot; reduce time.dt");
  }

  Problem problem_;
  NodeParams params_;
  CrankNicolsonSpec spec_;
  NewtonLog* log_;
  bool fused_;
  bool use_graphs_;
  std::unique_ptr<solvers::TridiagonalSolver> solver_;  // separate path only
  solvers::partitioned::Workspace workspace_;           // fused path only
  IterationGraphs graphs_;
  DeviceFields fields_;
  DeviceStimuli stimuli_;
  DeviceBuffer<real> w_previous_, u_, p_, rhs_, lower_, diag_, upper_, residual_;
  DeviceBuffer<NewtonState> state_;
  NewtonState* host_state_ = nullptr;  // pinned
  NewtonStats stats_;
  std::string device_name_;
  index_t step_ = 0;
  int last_iterations_ = 3;
};

}  // namespace

std::unique_ptr<Scheme> make_crank_nicolson_cuda(const Problem& problem,
                                                 const CrankNicolsonSpec& spec,
                                                 NewtonLog* newton_log, bool use_graphs) {
  return std::make_unique<CrankNicolsonCuda>(problem, spec, newton_log, use_graphs);
}

}  // namespace fhn::cuda
