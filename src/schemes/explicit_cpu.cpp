#include "schemes/explicit_cpu.hpp"

namespace fhn {

ExplicitCpu::ExplicitCpu(const Problem& problem)
    : HostScheme(problem),
      params_(node_params(problem.model, problem.boundary, problem.nodes, problem.dx, problem.dt)),
      current_(problem.stimuli.empty() ? 0 : problem.nodes, 0.0),
      v_next_(problem.nodes),
      w_next_(problem.nodes) {}

// One step: v+ = v + k (D L_h v + f(v) - w + I),  w+ = w + k eps (v - gamma w).
// Bytes per node: read v, w; write v+, w+ (32 B), one pass.
void ExplicitCpu::step() {
  const real t = static_cast<real>(step_) * problem_.dt;
  if (!current_.empty()) problem_.stimuli.currents(t, 1.0, 0.0, current_.data());
  const real* current = current_.empty() ? nullptr : current_.data();
  for (index_t i = 0; i < params_.n; ++i) {
    const ExplicitPointUpdate u = explicit_node(v_.data(), w_.data(), current, i, params_);
    v_next_[i] = u.v;
    w_next_[i] = u.w;
  }
  v_.swap(v_next_);
  w_.swap(w_next_);
}

}  // namespace fhn
