#include "model/stimulus.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace fhn {

namespace {

// The node indices [first, last] of the grid x_i = i dx, i = 0..nodes-1, with lo <= x_i <= hi
// (a node on an edge counts as inside).
void nodes_within(real lo, real hi, real dx, index_t nodes, index_t& first, index_t& last) {
  const real slack = 1e-9 * dx;
  first = std::max<index_t>(0, static_cast<index_t>(std::ceil((lo - slack) / dx)));
  last = std::min<index_t>(nodes - 1, static_cast<index_t>(std::floor((hi + slack) / dx)));
}

}  // namespace

NodeStimulus stimulus_nodes(const Stimulus& s, const Domain& domain) {
  NodeStimulus ns;
  nodes_within(s.x_min, s.x_max, domain.dx, domain.nodes[0], ns.first, ns.last);
  if (domain.dims >= 2)
    nodes_within(s.y_min, s.y_max, domain.dx, domain.nodes[1], ns.first_y, ns.last_y);
  ns.spec = s;
  return ns;
}

index_t first_sample_on(const Stimulus& s, real h, index_t samples, real dt) {
  constexpr index_t kPulsesLooked = index_t{1} << 20;
  const real tolerance = stimulus_tolerance(dt);
  const real last = static_cast<real>(samples - 1) * h;
  for (index_t pulse = 0; pulse < s.count; ++pulse) {
    if (pulse == kPulsesLooked) return 0;
    // On for t in [begin - tolerance, begin + duration - tolerance): the first sample there.
    const real begin = s.start + static_cast<real>(pulse) * s.period;
    if (begin - tolerance > last) return -1;  // this pulse and the later ones begin too late
    const real j = std::max(0.0, std::ceil((begin - tolerance) / h));
    for (real k = std::max(0.0, j - 1.0); k <= j + 1.0 && k * h <= last; ++k)
      if (stimulus_active(s, k * h, tolerance)) return static_cast<index_t>(k);
    if (s.period <= 0.0) return -1;
  }
  return -1;
}

StimulusSchedule::StimulusSchedule(const std::vector<Stimulus>& stimuli, const Domain& domain,
                                   real dt)
    : row_(domain.nodes[0]), cable_(domain.dims == 1), tolerance_(stimulus_tolerance(dt)), dt_(dt) {
  for (const Stimulus& s : stimuli) stimuli_.push_back(stimulus_nodes(s, domain));
}

void StimulusSchedule::currents(real t, real weight_now, real weight_next, real* current,
                                index_t plane0, index_t planes) const {
  // The planes are nodes along x on a cable, rows along y on a sheet; `current` starts at the
  // first node of plane plane0.
  const index_t plane_end = planes < 0 ? std::numeric_limits<index_t>::max() : plane0 + planes;
  auto each_node = [&](const NodeStimulus& s, auto&& f) {
    const index_t i_first = cable_ ? std::max(s.first, plane0) : s.first;
    const index_t i_last = cable_ ? std::min(s.last, plane_end - 1) : s.last;
    const index_t j_first = cable_ ? s.first_y : std::max(s.first_y, plane0);
    const index_t j_last = cable_ ? s.last_y : std::min(s.last_y, plane_end - 1);
    const index_t origin = cable_ ? plane0 : row_ * plane0;
    for (index_t j = j_first; j <= j_last; ++j)
      for (index_t i = i_first; i <= i_last; ++i) f(current[i + row_ * j - origin]);
  };
  for (const NodeStimulus& s : stimuli_) each_node(s, [](real& c) { c = 0.0; });
  for (const NodeStimulus& s : stimuli_) {
    const real weight = stimulus_weight(s.spec, t, dt_, tolerance_, weight_now, weight_next);
    each_node(s, [&](real& c) { c += weight * s.spec.amplitude; });
  }
}

}  // namespace fhn
