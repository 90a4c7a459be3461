// Forward Euler on the GPU: one kernel per step, state resident on the device.
#include "schemes/cuda/cuda_scheme_factories.hpp"
#include "schemes/cuda/device_fields.cuh"
#include "schemes/node_updates.hpp"

namespace fhn::cuda {
namespace {

// One thread per node: v+ = v + k (D L_h v + f(v) - w + I), w+ = w + k eps (v - gamma w), the
// same node functions as the CPU loop. Bytes per node: read v, w (v's neighbours come from
// cache), write v+, w+: 32 B.
__global__ void explicit_step_kernel(const real* v, const real* w, const real* current,
                                     real* v_next, real* w_next, NodeParams q) {
  const index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x;
  if (i >= q.n) return;
  const ExplicitPointUpdate u = (i > 0 && i < q.n - 1) ? explicit_interior_node(v, w, current, i, q)
                                                       : explicit_node(v, w, current, i, q);
  v_next[i] = u.v;
  w_next[i] = u.w;
}

class ExplicitCuda final : public Scheme {
 public:
  explicit ExplicitCuda(const Problem& problem)
      : problem_(problem),
        params_(node_params(problem.model, problem.boundary, problem.nodes, problem.dx, problem.dt)),
        fields_(problem),
        stimuli_(problem.stimuli, problem.nodes),
        v_next_(problem.nodes, "v (next)"),
        w_next_(problem.nodes, "w (next)"),
        device_name_(current_device_name()) {}

  std::string name() const override { return "explicit forward Euler (cuda, " + device_name_ + ")"; }
  index_t node_count() const override { return problem_.nodes; }
  index_t steps_done() const override { return step_; }

  // Launches `steps` kernels back to back; nothing waits for the device here.
  void advance(index_t steps) override {
    for (index_t s = 0; s < steps; ++s, ++step_) {
      const real t = static_cast<real>(step_) * problem_.dt;
      const real* current = stimuli_.currents(t, 1.0, 0.0);
      explicit_step_kernel<<<blocks_for(params_.n), kBlock>>>(fields_.v(), fields_.w(), current,
                                                              v_next_.data(), w_next_.data(), params_);
      FHN_CUDA_CHECK_LAUNCH();
      std::swap(fields_.v_buffer(), v_next_);
      std::swap(fields_.w_buffer(), w_next_);
    }
  }

  void snapshot(Snapshot& out) const override { fields_.download(problem_, step_, out); }
  index_t first_non_finite() const override { return fields_.first_non_finite(); }
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
  Problem problem_;
  NodeParams params_;
  DeviceFields fields_;
  DeviceStimuli stimuli_;
  DeviceBuffer<real> v_next_, w_next_;
  std::string device_name_;
  index_t step_ = 0;
};

}  // namespace

std::unique_ptr<Scheme> make_explicit_cuda(const Problem& problem) {
  return std::make_unique<ExplicitCuda>(problem);
}

}  // namespace fhn::cuda
