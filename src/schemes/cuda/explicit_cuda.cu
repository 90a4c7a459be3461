// Forward Euler on the GPU, state resident on the device: the temporally blocked kernels of
// explicit_kernels.cu (cable) and explicit_sheet_kernels.cu (sheet) advance several steps per
// pass over memory, stimuli computed in the kernel from the device stimulus table.
#include <algorithm>

#include "schemes/cuda/cuda_scheme_factories.hpp"
#include "schemes/cuda/device_fields.cuh"
#include "schemes/cuda/explicit_kernels.cuh"
#include "schemes/cuda/explicit_sheet_kernels.cuh"

namespace fhn::cuda {
namespace {

class ExplicitCuda final : public DeviceScheme {
 public:
  explicit ExplicitCuda(const Problem& problem)
      : DeviceScheme(problem),
        params_(node_params(problem.model, problem.boundary, problem.nodes, problem.dx, problem.dt)),
        v_next_(problem.nodes, "v (next)"),
        w_next_(problem.nodes, "w (next)") {}

  std::string name() const override { return "explicit forward Euler (cuda, " + device_name_ + ")"; }

  // Full passes of kStepsPerPass steps, then one shorter pass for the rest, launched back to
  // back; nothing waits for the device here. Every step goes through the same kernel, so the
  // result does not depend on how the steps are split between advance() calls (restarts).
  void advance(index_t steps) override {
    const StimulusTable table = stimuli_.view();
    while (steps > 0) {
      const int pass = static_cast<int>(std::min<index_t>(steps, kStepsPerPass));
      launch_explicit_steps_blocked(fields_.v(), fields_.w(), v_next_.data(), w_next_.data(),
                                    params_, table, step_, pass);
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
// steps per pass, the rest by one shorter pass.
class ExplicitSheetCuda final : public DeviceScheme {
 public:
  explicit ExplicitSheetCuda(const Problem& problem)
      : DeviceScheme(problem),
        params_(sheet_params(problem.model, problem.boundary, problem.domain, problem.dt)),
        v_next_(problem.nodes, "v (next)"),
        w_next_(problem.nodes, "w (next)") {}

  std::string name() const override {
    return "explicit forward Euler on a sheet (cuda, " + device_name_ + ")";
  }
  // Full passes, then a shorter one. A node takes the same expression in every pass and tile, so
  // the result does not depend on how the steps are split (restarts exact). A pass in which no
  // stimulus is on takes the kernel without stimulus code (I = 0 either way, bit for bit).
  void advance(index_t steps) override {
    const StimulusTable table = stimuli_.view();
    while (steps > 0) {
      const int pass = static_cast<int>(std::min<index_t>(steps, kExplicitSheetStepsPerPass));
      launch_explicit_sheet_steps_blocked(fields_.v(), fields_.w(), v_next_.data(),
                                          w_next_.data(), params_,
                                          stimulus_on(step_, pass) ? table : StimulusTable{},
                                          step_, pass);
      std::swap(fields_.v_buffer(), v_next_);
      std::swap(fields_.w_buffer(), w_next_);
      step_ += pass;
      steps -= pass;
    }
  }

 private:
  // Whether a stimulus is on at t = s dt for some step s of [first, first + steps) (the kernels'
  // t and the schedule's tolerance).
  bool stimulus_on(index_t first, int steps) const {
    for (const NodeStimulus& s : problem_.stimuli.stimuli())
      for (index_t step = first; step < first + steps; ++step)
        if (problem_.stimuli.active(s, static_cast<real>(step) * problem_.dt)) return true;
    return false;
  }

  SheetParams params_;
  DeviceBuffer<real> v_next_, w_next_;
};

}  // namespace

std::unique_ptr<Scheme> make_explicit_cuda(const Problem& problem) {
  if (problem.domain.dims >= 2) return std::make_unique<ExplicitSheetCuda>(problem);
  return std::make_unique<ExplicitCuda>(problem);
}

}  // namespace fhn::cuda
