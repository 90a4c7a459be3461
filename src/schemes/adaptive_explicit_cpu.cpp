#include "schemes/adaptive_explicit_cpu.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

#include "core/error.hpp"

namespace fhn {
namespace {

// How far a wave can travel in the regrid_every steps until the next regrid. The speed bound is
// the linear spreading speed of v_t = D v_xx + max f_v v, the fastest that excitation spreads
// where v grows at most at the steepest rate of f (the form's max_df_dv; for the cubic form
// f_v((1 + a)/3) = (1 - a + a^2)/3),
//   c = 2 sqrt(D max f_v);
// FHN fronts are slower (1.15 for a = 0.01, D = 1, against 0.62-0.69 measured). Then
//   reach = c k regrid_every.
real wave_reach(const ModelParams& model, real dt, index_t regrid_every) {
  const real steepest =
      with_kinetics(model.kinetics, [](const auto& kin) { return kin.max_df_dv(); });
  return 2.0 * std::sqrt(model.diffusion * steepest) * dt * static_cast<real>(regrid_every);
}

}  // namespace

AdaptiveExplicitCpu::AdaptiveExplicitCpu(const Problem& problem, const AdaptiveSpec& spec)
    : problem_(problem),
      spec_(spec),
      reach_(wave_reach(problem.model, problem.time.dt, spec.regrid_every)),
      params_(node_params(problem)),
      v_(problem.v0),
      w_(problem.w0),
      base_current_(problem.stimuli.empty() ? 0 : problem.domain.node_count(), 0.0),
      stats_(problem.domain.node_count()) {
  // The first grid comes from the initial state on the full base grid and the rate of change of
  // a trial step from it.
  std::vector<index_t> all(static_cast<std::size_t>(problem.domain.node_count()));
  std::iota(all.begin(), all.end(), index_t{0});
  use_grid(std::move(all));
  evaluate();
  measure_rate();
  regrid();
}

void AdaptiveExplicitCpu::advance(index_t steps) {
  for (index_t s = 0; s < steps; ++s) {
    evaluate();
    stats_.count_steps(node_count(), 1);
    const bool regrid_due = (step_ + 1) % spec_.regrid_every == 0;
    if (regrid_due) measure_rate();
    v_.swap(v_next_);
    w_.swap(w_next_);
    ++step_;
    if (regrid_due) regrid();
  }
}

SchemeState AdaptiveExplicitCpu::save_state() const {
  SchemeState state;
  state.step = step_;
  state.nodes = nodes_;
  state.add("v", v_);
  state.add("w", w_);
  return state;
}

void AdaptiveExplicitCpu::restore_state(const SchemeState& state) {
  FHN_VERIFY(!state.nodes.empty() && state.nodes.front() == 0 &&
                 state.nodes.back() == problem_.domain.node_count() - 1 &&
                 std::is_sorted(state.nodes.begin(), state.nodes.end()),
             IoError, "checkpoint: the adaptive grid it holds does not fit this run's base grid");
  use_grid(state.nodes);
  v_ = state.get("v", nodes_.size());
  w_ = state.get("w", nodes_.size());
  step_ = state.step;
}

void AdaptiveExplicitCpu::snapshot(Snapshot& out) const {
  out.step = step_;
  out.t = problem_.time.t(step_);
  out.domain = problem_.domain;
  out.nodes = nodes_;
  out.v = v_;
  out.w = w_;
}

// v+ = v + k (D u_xx(v) + f(v, w) + I),  w+ = w + k g(v, w), u_xx by the 3-point
// weights of the current grid. Two passes, each on few enough arrays for the compiler to
// vectorise it: u_xx (40 B per node, NonUniformLaplacian::apply), then the update (read v, w,
// u_xx, I, write v+, w+: 48 B per node).
void AdaptiveExplicitCpu::evaluate() {
  const real* current = nullptr;
  if (!base_current_.empty()) {
    const real t = problem_.time.t(step_);
    problem_.stimuli.currents(t, 0.0, base_current_.data());
    for (std::size_t i = 0; i < nodes_.size(); ++i) current_[i] = base_current_[nodes_[i]];
    current = current_.data();
  }
  laplacian_.apply(v_.data(), v_xx_.data());
  const NodeParams q = params_;
  const real diffusion = problem_.model.diffusion;
  const real* v = v_.data();
  const real* w = w_.data();
  const real* v_xx = v_xx_.data();
  real* v_next = v_next_.data();
  real* w_next = w_next_.data();
  with_kinetics(problem_.model.kinetics, [&](const auto kin) {  // by value, as ExplicitCpu's
    for (index_t i = 0; i < q.n[0]; ++i) {
      const ExplicitPointUpdate u = explicit_point_update(
          v[i], w[i], diffusion * v_xx[i], current ? current[i] : 0.0, kin, q.k);
      v_next[i] = u.v;
      w_next[i] = u.w;
    }
  });
  // The ends so far follow their mirror ghost nodes; a Dirichlet value or the first-order
  // no-flux copy of the neighbour's new v replaces that, as in the uniform scheme.
  const index_t last = q.n[0] - 1;
  for (const index_t i : {index_t{0}, last}) {
    switch (replaced_row(i, q)) {
      case 1: v_next[i] = end_value(q, i == 0 ? 0 : 1); break;
      case 2: v_next[i] = v_next[i == 0 ? 1 : last - 1]; break;
      default: break;
    }
  }
}

void AdaptiveExplicitCpu::measure_rate() {
  for (std::size_t i = 0; i < v_.size(); ++i) rate_[i] = (v_next_[i] - v_[i]) / problem_.time.dt;
}

void AdaptiveExplicitCpu::regrid() {
  laplacian_.apply(v_.data(), v_xx_.data());
  laplacian_.apply(w_.data(), w_xx_.data());
  GridSample sample;
  sample.n = node_count();
  sample.nodes = nodes_.data();
  sample.x = x_.data();
  sample.v = v_.data();
  sample.w = w_.data();
  sample.v_xx = v_xx_.data();
  sample.w_xx = w_xx_.data();
  sample.v_t = rate_.data();
  std::vector<index_t> next =
      select_nodes(spec_, problem_.domain.node_count(), problem_.domain.dx, reach_, sample,
                   required_ranges());

  const std::vector<real> old_x = std::move(x_);
  const auto old_n = static_cast<index_t>(old_x.size());
  use_grid(std::move(next));
  v_ = interpolate_onto(old_x.data(), v_.data(), old_n, x_);
  w_ = interpolate_onto(old_x.data(), w_.data(), old_n, x_);
  stats_.record_regrid(step_, problem_.time.t(step_), node_count());
}

void AdaptiveExplicitCpu::use_grid(std::vector<index_t> nodes) {
  nodes_ = std::move(nodes);
  const std::size_t n = nodes_.size();
  x_.resize(n);
  for (std::size_t i = 0; i < n; ++i) x_[i] = problem_.domain.coordinate(0, nodes_[i]);
  laplacian_ = NonUniformLaplacian(x_);
  params_.n[0] = static_cast<index_t>(n);
  v_xx_.resize(n);
  w_xx_.resize(n);
  v_next_.resize(n);
  w_next_.resize(n);
  rate_.resize(n);
  if (!base_current_.empty()) current_.resize(n);
}

std::vector<NodeRange> AdaptiveExplicitCpu::required_ranges() const {
  std::vector<NodeRange> ranges;
  // The edges of a stimulated region and a Dirichlet end are fronts in the making, steeper than
  // the grid before them can know. Base resolution as far as a step there spreads until the next
  // regrid: by diffusion, a jump changes v by erfc(d / (2 sqrt(D T))) < 0.5% of it beyond
  // d = 4 sqrt(D T), T = k regrid_every; by travel, reach further. Or inflection_radius if wider.
  const real spread = 4.0 * std::sqrt(problem_.model.diffusion * problem_.time.dt *
                                      static_cast<real>(spec_.regrid_every));
  const real width = std::max(spec_.inflection_radius, reach_ + spread);
  const auto layer = static_cast<index_t>(width / problem_.domain.dx + 1e-9);
  for (const NodeStimulus& s : problem_.stimuli.stimuli()) {
    // The stimulus is off for good once t is past its last pulse.
    const real off = s.spec.start + static_cast<real>(s.spec.count - 1) * s.spec.period +
                     s.spec.duration;
    for (index_t m = 0; m < spec_.regrid_every; ++m) {
      const real t = problem_.time.t(step_ + m);
      if (t > off) break;
      if (problem_.stimuli.active(s, t)) {
        ranges.push_back({s.first - layer, s.last + layer});
        break;
      }
    }
  }
  const BoundarySpec& bc = problem_.boundary;
  const index_t last = problem_.domain.node_count() - 1;
  for (const bool left : {true, false}) {
    const BoundarySide& side = left ? bc.left : bc.right;
    index_t depth = 0;  // base nodes kept next to the end node
    if (side.type == BoundaryType::dirichlet)
      depth = layer;
    else if (bc.no_flux_order == 1)
      depth = 1;
    if (depth > 0) ranges.push_back(left ? NodeRange{0, depth} : NodeRange{last - depth, last});
  }
  return ranges;
}

}  // namespace fhn
