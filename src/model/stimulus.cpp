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
  if (domain.dims >= 3)
    nodes_within(s.z_min, s.z_max, domain.dx, domain.nodes[2], ns.first_z, ns.last_z);
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
    : last_axis_(domain.dims - 1), tolerance_(stimulus_tolerance(dt)), dt_(dt) {
  for (int a = 0; a < kMaxAxes; ++a) n_[a] = domain.nodes[a];
  for (const Stimulus& s : stimuli) stimuli_.push_back(stimulus_nodes(s, domain));
}

void StimulusSchedule::currents(real t, real weight_now, real weight_next, real* current,
                                index_t plane0, index_t planes) const {
  // The planes are nodes along x on a cable, rows along y on a sheet, planes along z on a box
  // (the last axis); `current` starts at the first node of plane plane0.
  const index_t plane_end = planes < 0 ? std::numeric_limits<index_t>::max() : plane0 + planes;
  index_t plane_size = 1;
  for (int a = 0; a < last_axis_; ++a) plane_size *= n_[a];
  const index_t origin = plane_size * plane0;
  auto each_node = [&](const NodeStimulus& s, auto&& f) {
    index_t lo[kMaxAxes] = {s.first, s.first_y, s.first_z};
    index_t hi[kMaxAxes] = {s.last, s.last_y, s.last_z};
    lo[last_axis_] = std::max(lo[last_axis_], plane0);
    hi[last_axis_] = std::min(hi[last_axis_], plane_end - 1);
    for (index_t k = lo[2]; k <= hi[2]; ++k)
      for (index_t j = lo[1]; j <= hi[1]; ++j)
        for (index_t i = lo[0]; i <= hi[0]; ++i) f(current[i + n_[0] * (j + n_[1] * k) - origin]);
  };
  for (const NodeStimulus& s : stimuli_) each_node(s, [](real& c) { c = 0.0; });
  for (const NodeStimulus& s : stimuli_) {
    const real weight = stimulus_weight(s.spec, t, dt_, tolerance_, weight_now, weight_next);
    each_node(s, [&](real& c) { c += weight * s.spec.amplitude; });
  }
}

}  // namespace fhn
