// Crank-Nicolson / Newton on the GPU. The state, the Jacobian and the Newton work arrays stay on
// the device for the whole run. Convergence is decided on the device: after each iteration a
// one-thread kernel compares ||du||_inf with the tolerance and raises a flag that turns the
// remaining launched iterations into no-ops. The host launches as many iterations as the previous
// step needed, then synchronises once per step to read the flag and the norms.
#include <algorithm>
#include <cstring>

#include "config/names.hpp"
#include "core/format.hpp"
#include "schemes/cuda/cuda_scheme_factories.hpp"
#include "schemes/cuda/device_fields.cuh"
#include "schemes/node_updates.hpp"
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
  unsigned long long du_bits[kMaxIterations];
  unsigned long long residual_bits[kMaxIterations];
};

__device__ inline real nan_max(real a, real b) { return (a != a || a > b) ? a : b; }

// Maximum over the block, valid in thread 0. Every thread of the block must call it.
__device__ real block_max(real x) {
  __shared__ real warp_max[kBlock / 32];
  for (int offset = 16; offset > 0; offset >>= 1)
    x = nan_max(x, __shfl_down_sync(0xffffffffu, x, offset));
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warp_max[warp] = x;
  __syncthreads();
  if (warp == 0) {
    x = lane < kBlock / 32 ? warp_max[lane] : 0.0;
    for (int offset = 16; offset > 0; offset >>= 1)
      x = nan_max(x, __shfl_down_sync(0xffffffffu, x, offset));
  }
  return x;
}

__device__ inline void atomic_max_norm(unsigned long long* slot, real value) {
  atomicMax(slot, static_cast<unsigned long long>(__double_as_longlong(value)));
}

// Start of a step: w+ = p + c u (p here), the explicit half rhs, u = v; resets the flags.
__global__ void prepare_kernel(const real* v, const real* w, const real* w_previous,
                               const real* current, real* p, real* rhs, real* u, bool leapfrog,
                               TrapezoidalW trap, NodeParams q, NewtonState* state) {
  const index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x;
  if (i == 0) {
    state->converged = 0;
    state->iterations = 0;
    state->bad_row = static_cast<unsigned long long>(q.n);
    state->du_bits[0] = 0;
    state->residual_bits[0] = 0;
  }
  if (i >= q.n) return;
  p[i] = cn_w_offset(v[i], w[i], leapfrog ? w_previous[i] : 0.0, leapfrog, trap, q);
  rhs[i] = cn_rhs_node(v, w, current, i, q);
  u[i] = v[i];
}

// F(u) and J's diagonal; ||F||_inf and the diagonal-dominance check on the way.
__global__ void assemble_kernel(const real* u, const real* p, const real* rhs, real c,
                                const real* lower, const real* upper, real* residual, real* diag,
                                NodeParams q, NewtonState* state, int iteration) {
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
  if (threadIdx.x == 0) atomic_max_norm(&state->residual_bits[iteration], block);
}

// u -= du and ||du||_inf.
__global__ void update_kernel(real* u, const real* du, index_t n, NewtonState* state,
                              int iteration) {
  if (state->converged) return;
  const index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x;
  real magnitude = 0.0;
  if (i < n) {
    u[i] -= du[i];
    magnitude = fabs(du[i]);
  }
  const real block = block_max(magnitude);
  if (threadIdx.x == 0) atomic_max_norm(&state->du_bits[iteration], block);
}

// One thread: count the iteration, decide convergence, clear the next iteration's norm slots.
__global__ void check_kernel(NewtonState* state, int iteration, real tolerance) {
  if (state->converged) return;
  state->iterations = iteration + 1;
  if (__longlong_as_double(static_cast<long long>(state->du_bits[iteration])) < tolerance)
    state->converged = 1;
  if (iteration + 1 < kMaxIterations) {
    state->du_bits[iteration + 1] = 0;
    state->residual_bits[iteration + 1] = 0;
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

class CrankNicolsonCuda final : public Scheme {
 public:
  CrankNicolsonCuda(const Problem& problem, const CrankNicolsonSpec& spec, NewtonLog* log)
      : problem_(problem),
        params_(node_params(problem.model, problem.boundary, problem.nodes, problem.dx, problem.dt)),
        spec_(spec),
        log_(log),
        solver_(solvers::make_tridiagonal_solver(spec.tridiagonal, problem.nodes)),
        fields_(problem),
        stimuli_(problem.stimuli, problem.nodes),
        w_previous_(spec.w_update == WUpdate::leapfrog ? problem.nodes : 0, "w (previous)"),
        u_(problem.nodes, "Newton iterate"),
        p_(problem.nodes, "w offset"),
        rhs_(problem.nodes, "right-hand side"),
        lower_(problem.nodes, "Jacobian lower"),
        diag_(problem.nodes, "Jacobian diagonal"),
        upper_(problem.nodes, "Jacobian upper"),
        residual_(problem.nodes, "Newton residual"),
        state_(1, "Newton state"),
        device_name_(current_device_name()) {
    FHN_VERIFY(solver_->space() == MemorySpace::device, ConfigError,
               "scheme.crank_nicolson.tridiagonal: 'thomas' works on host memory; the cuda backend "
               "needs cyclic_reduction, cusparse or cusparse_pivot");
    std::vector<real> lower(problem.nodes), upper(problem.nodes);
    cn_off_diagonals(params_, lower.data(), upper.data());
    lower_.upload(lower.data(), lower.size());
    upper_.upload(upper.data(), upper.size());
    FHN_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&host_state_), sizeof(NewtonState)));
  }
  ~CrankNicolsonCuda() override { cudaFreeHost(host_state_); }
  CrankNicolsonCuda(const CrankNicolsonCuda&) = delete;
  CrankNicolsonCuda& operator=(const CrankNicolsonCuda&) = delete;

  std::string name() const override {
    return "Crank-Nicolson/Newton (cuda, " + device_name_ + ", " + std::string(solver_->name()) +
           ", w " + name_of(w_update_names(), spec_.w_update) + ")";
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
  void step() {
    const index_t n = params_.n;
    const real k = params_.k;
    const real t = static_cast<real>(step_) * k;
    const unsigned blocks = blocks_for(n);
    const bool leapfrog = spec_.w_update == WUpdate::leapfrog && step_ > 0;
    const TrapezoidalW trap = trapezoidal_w(k, params_.epsilon, params_.gamma);
    const real c = leapfrog ? 0.0 : trap.c;
    NewtonState* state = state_.data();

    const real* current = stimuli_.currents(t, 0.5, 0.5);
    prepare_kernel<<<blocks, kBlock>>>(fields_.v(), fields_.w(), w_previous_.data(), current,
                                       p_.data(), rhs_.data(), u_.data(), leapfrog, trap, params_,
                                       state);
    FHN_CUDA_CHECK_LAUNCH();

    // Newton: launch a batch of iterations (as many as the last step needed), then read the
    // flag once; iterations past convergence do nothing.
    const solvers::TridiagonalSystem jacobian{n, lower_.data(), diag_.data(), upper_.data()};
    const int max_iterations = static_cast<int>(spec_.newton.max_iterations);
    int launched = 0;
    int batch = std::max(1, last_iterations_);
    for (;;) {
      for (int j = 0; j < batch && launched < max_iterations; ++j, ++launched) {
        assemble_kernel<<<blocks, kBlock>>>(u_.data(), p_.data(), rhs_.data(), c, lower_.data(),
                                            upper_.data(), residual_.data(), diag_.data(), params_,
                                            state, launched);
        FHN_CUDA_CHECK_LAUNCH();
        solver_->solve(jacobian, residual_.data());  // residual_ now holds du
        update_kernel<<<blocks, kBlock>>>(u_.data(), residual_.data(), n, state, launched);
        FHN_CUDA_CHECK_LAUNCH();
        check_kernel<<<1, 1>>>(state, launched, spec_.newton.tolerance);
        FHN_CUDA_CHECK_LAUNCH();
      }
      read_state(launched);  // the one synchronisation of the step
      if (host_state_->bad_row < static_cast<unsigned long long>(n)) throw not_dominant();
      if (host_state_->converged || launched >= max_iterations) break;
      batch = 1;
    }

    const int iterations = host_state_->iterations;
    std::vector<real> du(static_cast<std::size_t>(iterations)), residual(du.size());
    for (int i = 0; i < iterations; ++i) {
      du[i] = from_bits(host_state_->du_bits[i]);
      residual[i] = from_bits(host_state_->residual_bits[i]);
      if (log_) log_->record({step_, i + 1, du[i], residual[i]});
    }
    if (!host_state_->converged) throw newton_failure(step_, t, k, spec_.newton, du, residual);
    stats_.add_step(du);
    last_iterations_ = iterations;

    // Accept: v+ = u (swap), w+ = p + c u; leapfrog keeps w^n as the previous w.
    if (spec_.w_update == WUpdate::leapfrog) std::swap(fields_.w_buffer(), w_previous_);
    accept_kernel<<<blocks, kBlock>>>(p_.data(), u_.data(), c, fields_.w(), n);
    FHN_CUDA_CHECK_LAUNCH();
    std::swap(fields_.v_buffer(), u_);
    ++step_;
  }

  // Copies the flags and the first `iterations` norms into pinned memory (synchronises).
  void read_state(int iterations) {
    const NewtonState* device = state_.data();
    const std::size_t norms = static_cast<std::size_t>(iterations) * sizeof(unsigned long long);
    FHN_CUDA_CHECK(cudaMemcpyAsync(host_state_, device, offsetof(NewtonState, du_bits),
                                   cudaMemcpyDeviceToHost));
    FHN_CUDA_CHECK(cudaMemcpyAsync(host_state_->du_bits, device->du_bits, norms,
                                   cudaMemcpyDeviceToHost));
    FHN_CUDA_CHECK(cudaMemcpyAsync(host_state_->residual_bits, device->residual_bits, norms,
                                   cudaMemcpyDeviceToHost));
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
  std::unique_ptr<solvers::TridiagonalSolver> solver_;
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
                                                 NewtonLog* newton_log) {
  return std::make_unique<CrankNicolsonCuda>(problem, spec, newton_log);
}

}  // namespace fhn::cuda
