#include "schemes/explicit_cpu.hpp"

#include "model/fhn.hpp"

namespace fhn {

ExplicitCpu::ExplicitCpu(const Problem& problem)
    : HostScheme(problem), v_next_(problem.v0.size()), w_next_(problem.w0.size()) {}

// One step: v+ = v + k (D L_h v + f(v) - w + I),  w+ = w + k eps (v - gamma w).
// Bytes per node: read v, w; write v+, w+ (32 B), one pass.
void ExplicitCpu::step() {
  const ModelParams& m = problem_.model;
  const BoundarySpec& bc = problem_.boundary;
  const index_t n = problem_.nodes;
  const index_t last = n - 1;
  const real k = problem_.dt;
  const real r = m.diffusion / (problem_.dx * problem_.dx);  // D / h^2
  const real t = static_cast<real>(step_) * k;
  const real* v = v_.data();
  const real* w = w_.data();
  real* v_new = v_next_.data();
  real* w_new = w_next_.data();

  auto update = [&](index_t i, real diffusion_term) {
    const ExplicitPointUpdate u =
        explicit_point_update(v[i], w[i], diffusion_term, 0.0, m.a, m.epsilon, m.gamma, k);
    v_new[i] = u.v;
    w_new[i] = u.w;
  };

  // Interior: D (L_h v)_i = D (v_{i-1} - 2 v_i + v_{i+1}) / h^2.
  for (index_t i = 1; i < last; ++i) update(i, r * (v[i - 1] - 2.0 * v[i] + v[i + 1]));

  // Ends. Second-order no-flux mirrors the neighbour into a ghost node: (L_h v)_0 = 2 (v_1 - v_0) / h^2.
  // The first-order variant and Dirichlet ends are fixed up below; w follows its ODE everywhere.
  update(0, r * 2.0 * (v[1] - v[0]));
  update(last, r * 2.0 * (v[last - 1] - v[last]));

  for (const NodeStimulus& s : problem_.stimuli.stimuli()) {
    if (!problem_.stimuli.active(s, t)) continue;
    for (index_t i = s.first; i <= s.last; ++i) v_new[i] += k * s.spec.amplitude;
  }

  if (bc.left.type == BoundaryType::dirichlet)
    v_new[0] = bc.left.value;
  else if (bc.no_flux_order == 1)
    v_new[0] = v_new[1];  // v_0 = v_1 (the reference blog's condition)
  if (bc.right.type == BoundaryType::dirichlet)
    v_new[last] = bc.right.value;
  else if (bc.no_flux_order == 1)
    v_new[last] = v_new[last - 1];

  v_.swap(v_next_);
  w_.swap(w_next_);
}

}  // namespace fhn
