// Crank-Nicolson by Strang splitting on the GPU (scheme.crank_nicolson.formulation: adi), state
// resident on the device: per step two reaction kernels (a scalar Newton iteration per node, in
// registers), the right sides of the diffusion half-steps, and one (cable) or two (sheet)
// batched constant-matrix tridiagonal solves. Same per-node functions (adi_point.hpp,
// node_updates.hpp) and the same order of operations as AdiCpu, so GPU = CPU to rounding.
//
// Bytes per node and step on a sheet: reactions 2 x 32 (read and write v, w), right sides
// 2 x 16 (read one array, write another), solves 2 x 16 (read the right side, write x):
// 128 B, against the explicit step's 32 B.
#include <algorithm>
#include <cstring>

#include "config/names.hpp"
#include "core/cuda/cuda_check.hpp"
#include "schemes/adi_cpu.hpp"
#include "schemes/cuda/cuda_scheme_factories.hpp"
#include "schemes/cuda/device_fields.cuh"
#include "schemes/node_updates.hpp"

namespace fhn::cuda {
namespace {

// Iterations of each reaction half-step whose largest |du| and |g| are kept for newton.csv and
// the statistics; a half-step that needs more still counts its iterations.
constexpr int kHistory = 8;

// What the host reads back once per step: per stage the largest |du|, |g| per iteration (as
// the bit patterns of non-negative doubles, which order like the numbers), the most iterations
// any node needed and whether one did not converge.
struct ReactionLog {
  unsigned long long du[2][kHistory];
  unsigned long long g[2][kHistory];
  unsigned int iterations[2];
  unsigned int failed[2];
};

// The Dirichlet value holding node (i, j), if any (a cable is a sheet of one row without
// bottom and top sides).
__device__ __forceinline__ bool held_value(index_t i, index_t j, const SheetParams& q, real& value) {
  return sheet_dirichlet(i, j, q, value);
}

// One reaction half-step from t0 to t0 + k/2 at every node, Dirichlet nodes held before and
// after (as AdiCpu::step: hold, react, hold).
__global__ void reaction_kernel(real* __restrict__ v, real* __restrict__ w, SheetParams q,
                                ReactionParams rp, StimulusTable st, real t0, int stage,
                                ReactionLog* log) {
  const index_t node = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x;
  const index_t n = q.nx * q.ny;
  real du_max[kHistory], g_max[kHistory];
#pragma unroll
  for (int k = 0; k < kHistory; ++k) du_max[k] = g_max[k] = 0.0;
  int iterations = 0;
  bool failed = false;
  if (node < n) {
    const index_t i = node % q.nx, j = node / q.nx;
    real held = 0.0;
    const bool is_held = held_value(i, j, q, held);
    const real v0 = is_held ? held : v[node];
    const real i0 = st.count > 0 ? stimulus_current(st, i, j, t0, 1.0, 0.0) : 0.0;
    const real i1 = st.count > 0 ? stimulus_current(st, i, j, t0 + rp.h, 1.0, 0.0) : 0.0;
    const ReactionResult out = reaction_half_step(v0, w[node], i0, i1, rp, [&](int k, real du, real g) {
#pragma unroll
      for (int m = 0; m < kHistory; ++m)
        if (m == k) {
          du_max[m] = du;
          g_max[m] = g;
        }
    });
    v[node] = is_held ? held : out.v;
    w[node] = out.w;
    iterations = out.iterations;
    failed = !out.converged;
  }
  // Warp maxima, one atomic per warp and entry.
  const unsigned lane = threadIdx.x & 31u;
  for (int offset = 16; offset > 0; offset /= 2) {
#pragma unroll
    for (int k = 0; k < kHistory; ++k) {
      du_max[k] = fmax(du_max[k], __shfl_down_sync(0xffffffffu, du_max[k], offset));
      g_max[k] = fmax(g_max[k], __shfl_down_sync(0xffffffffu, g_max[k], offset));
    }
    iterations = max(iterations, __shfl_down_sync(0xffffffffu, iterations, offset));
  }
  const bool any_failed = __any_sync(0xffffffffu, failed);
  if (lane == 0) {
#pragma unroll
    for (int k = 0; k < kHistory; ++k) {
      if (du_max[k] > 0.0) atomicMax(&log->du[stage][k], static_cast<unsigned long long>(__double_as_longlong(du_max[k])));
      if (g_max[k] > 0.0) atomicMax(&log->g[stage][k], static_cast<unsigned long long>(__double_as_longlong(g_max[k])));
    }
    atomicMax(&log->iterations[stage], static_cast<unsigned int>(iterations));
    if (any_failed) atomicMax(&log->failed[stage], 1u);
  }
}

// out = in + (r/2) d(in) along `axis` (0: x, 1: y), Dirichlet nodes set to their value: the right
// side of the diffusion half-step whose lines run along the other axis (a cable: axis 0, its own).
__global__ void adi_rhs_kernel(const real* __restrict__ in, real* __restrict__ out, SheetParams q,
                               real r, int axis) {
  const index_t node = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x;
  if (node >= q.nx * q.ny) return;
  const index_t i = node % q.nx, j = node / q.nx;
  real held = 0.0;
  if (held_value(i, j, q, held)) {
    out[node] = held;
    return;
  }
  const index_t k = axis == 0 ? i : j, m = axis == 0 ? q.nx : q.ny, stride = axis == 0 ? 1 : q.nx;
  const real below = k > 0 ? in[node - stride] : 0.0;
  const real above = k + 1 < m ? in[node + stride] : 0.0;
  out[node] = adi_rhs(in[node], axis_difference(below, in[node], above, k == 0, k == m - 1), r);
}

// A cable as the sheet parameters the kernels read: one row, its ends the left and right sides.
SheetParams line_params(const Problem& p) {
  Domain d = p.domain;
  if (d.dims == 1) d.nodes[1] = 1;
  SheetParams q = sheet_params(p.model, p.boundary, d, p.dt);
  if (p.domain.dims == 1) q.side[2] = q.side[3] = BoundaryType::no_flux;  // no bottom, no top
  return q;
}

class AdiCuda final : public Scheme {
 public:
  AdiCuda(const Problem& problem, const CrankNicolsonSpec& spec, NewtonLog* log)
      : problem_(problem),
        spec_(spec),
        log_(log),
        setup_(adi_setup(problem, spec)),
        params_(line_params(problem)),
        fields_(problem),
        stimuli_(problem.stimuli),
        rhs_(problem.nodes, "ADI right side"),
        log_device_(1, "reaction Newton log"),
        rows_(solvers::make_batched_tridiagonal_solver(spec.tridiagonal)),
        device_name_(current_device_name()) {
    FHN_VERIFY(rows_->space() == MemorySpace::device, ConfigError,
               "scheme.crank_nicolson.tridiagonal: 'thomas' works on host memory; the cuda backend "
               "needs partitioned or cusparse");
    const Domain& d = problem.domain;
    rows_->set_matrix(setup_.lower[0].data(), setup_.diag[0].data(), setup_.upper[0].data(), d.nodes[0]);
    if (d.dims >= 2) {
      columns_ = solvers::make_batched_tridiagonal_solver(spec.tridiagonal);
      columns_->set_matrix(setup_.lower[1].data(), setup_.diag[1].data(), setup_.upper[1].data(),
                           d.nodes[1]);
    }
    FHN_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&host_log_), sizeof(ReactionLog)));
  }
  ~AdiCuda() override { cudaFreeHost(host_log_); }
  AdiCuda(const AdiCuda&) = delete;
  AdiCuda& operator=(const AdiCuda&) = delete;

  std::string name() const override {
    return std::string("Crank-Nicolson by Strang splitting, diffusion ") +
           (problem_.domain.dims >= 2 ? "by Peaceman-Rachford ADI" : "by Crank-Nicolson") +
           " (cuda, " + device_name_ + ", " + std::string(rows_->name()) + ")";
  }
  index_t node_count() const override { return problem_.nodes; }
  index_t steps_done() const override { return step_; }
  void advance(index_t steps) override {
    for (index_t s = 0; s < steps; ++s) step();
  }
  void synchronize() const override { FHN_CUDA_CHECK(cudaDeviceSynchronize()); }
  void snapshot(Snapshot& out) const override { fields_.download(problem_, step_, out); }
  index_t first_non_finite() const override { return fields_.first_non_finite(); }
  const NewtonStats* newton_stats() const override { return &stats_; }
  SchemeState save_state() const override {
    SchemeState state;
    state.step = step_;
    fields_.save(state);
    return state;
  }
  void restore_state(const SchemeState& state) override {
    fields_.restore(state);
    step_ = state.step;
  }

 private:
  // One step (adi_point.hpp), then one copy of the reaction log and one synchronisation.
  void step() {
    const real k = problem_.dt;
    const real t = static_cast<real>(step_) * k;
    const index_t n = problem_.nodes;
    const Domain& d = problem_.domain;
    const StimulusTable table = stimuli_.view();
    FHN_CUDA_CHECK(cudaMemsetAsync(log_device_.data(), 0, sizeof(ReactionLog)));
    auto react = [&](real t0, int stage) {
      reaction_kernel<<<blocks_for(n), kBlock>>>(fields_.v(), fields_.w(), params_, setup_.reaction,
                                                 table, t0, stage, log_device_.data());
      FHN_CUDA_CHECK_LAUNCH();
    };
    auto rhs = [&](const real* in, real* out, int axis) {
      adi_rhs_kernel<<<blocks_for(n), kBlock>>>(in, out, params_, setup_.r, axis);
      FHN_CUDA_CHECK_LAUNCH();
    };
    // 1. Reaction from t to t + k/2.
    react(t, 0);
    // 2. Diffusion over k: a cable's Crank-Nicolson solve, or the sheet's rows then columns.
    if (d.dims == 1) {
      rhs(fields_.v(), rhs_.data(), 0);
      rows_->solve(solvers::BatchLayout::rows(d.nodes[0], 1), rhs_.data());
      std::swap(fields_.v_buffer(), rhs_);
    } else {
      rhs(fields_.v(), rhs_.data(), 1);  // (I - (k/2) D dxx) v* = (I + (k/2) D dyy) v
      rows_->solve(solvers::BatchLayout::rows(d.nodes[0], d.nodes[1]), rhs_.data());
      rhs(rhs_.data(), fields_.v(), 0);  // (I - (k/2) D dyy) v+ = (I + (k/2) D dxx) v*
      columns_->solve(solvers::BatchLayout::columns(d.nodes[0], d.nodes[1]), fields_.v());
    }
    // 3. Reaction from t + k/2 to t + k (its kernel holds the Dirichlet nodes first).
    react(t + 0.5 * k, 1);
    FHN_CUDA_CHECK(cudaMemcpyAsync(host_log_, log_device_.data(), sizeof(ReactionLog),
                                   cudaMemcpyDeviceToHost));
    FHN_CUDA_CHECK(cudaStreamSynchronize(0));
    record_newton(t);
    ++step_;
  }

  // The statistics and newton.csv rows of both half-steps from the log just read.
  void record_newton(real t) {
    for (int stage = 0; stage < 2; ++stage) {
      const int iterations = static_cast<int>(host_log_->iterations[stage]);
      std::vector<real> du, g;
      for (int k = 0; k < std::min(iterations, kHistory); ++k) {
        real x = 0.0, y = 0.0;
        std::memcpy(&x, &host_log_->du[stage][k], sizeof x);
        std::memcpy(&y, &host_log_->g[stage][k], sizeof y);
        du.push_back(x);
        g.push_back(y);
        if (log_) log_->record({step_, k + 1, x, y, stage});
      }
      if (host_log_->failed[stage] != 0)
        throw newton_failure(step_, t, problem_.dt, spec_.newton, du, g);
      stats_.add_step(du);
    }
  }

  Problem problem_;
  CrankNicolsonSpec spec_;
  NewtonLog* log_;
  AdiSetup setup_;
  SheetParams params_;
  DeviceFields fields_;
  DeviceStimuli stimuli_;
  DeviceBuffer<real> rhs_;
  DeviceBuffer<ReactionLog> log_device_;
  std::unique_ptr<solvers::BatchedTridiagonalSolver> rows_, columns_;
  ReactionLog* host_log_ = nullptr;
  NewtonStats stats_;
  std::string device_name_;
  index_t step_ = 0;
};

}  // namespace

std::unique_ptr<Scheme> make_adi_cuda(const Problem& problem, const CrankNicolsonSpec& spec,
                                      NewtonLog* newton_log) {
  return std::make_unique<AdiCuda>(problem, spec, newton_log);
}

}  // namespace fhn::cuda
