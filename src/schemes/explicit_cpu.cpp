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
  const real* v = v_.data();
  const real* w = w_.data();
  real* v_next = v_next_.data();
  real* w_next = w_next_.data();
  auto store = [&](index_t i, const ExplicitPointUpdate& u) {
    v_next[i] = u.v;
    w_next[i] = u.w;
  };
  const index_t last = params_.n - 1;
  for (index_t i = 1; i < last; ++i) store(i, explicit_interior_node(v, w, current, i, params_));
  store(0, explicit_node(v, w, current, 0, params_));
  store(last, explicit_node(v, w, current, last, params_));
  v_.swap(v_next_);
  w_.swap(w_next_);
}

}  // namespace fhn
