#include "model/stimulus.hpp"

#include <algorithm>
#include <cmath>

namespace fhn {

StimulusSchedule::StimulusSchedule(const std::vector<Stimulus>& stimuli, real dx, index_t nodes,
                                   real dt)
    : tolerance_(1e-6 * dt), dt_(dt) {
  for (const Stimulus& s : stimuli) {
    // Nodes with x_min <= i dx <= x_max (a node on an edge counts as inside).
    const real slack = 1e-9 * dx;
    NodeStimulus ns;
    ns.first = std::max<index_t>(0, static_cast<index_t>(std::ceil((s.x_min - slack) / dx)));
    ns.last = std::min<index_t>(nodes - 1, static_cast<index_t>(std::floor((s.x_max + slack) / dx)));
    ns.spec = s;
    stimuli_.push_back(ns);
  }
}

void StimulusSchedule::currents(real t, real weight_now, real weight_next, real* current) const {
  for (const NodeStimulus& s : stimuli_)
    for (index_t i = s.first; i <= s.last; ++i) current[i] = 0.0;
  for (const NodeStimulus& s : stimuli_) {
    const real weight = stimulus_weight(s.spec, t, dt_, tolerance_, weight_now, weight_next);
    for (index_t i = s.first; i <= s.last; ++i) current[i] += weight * s.spec.amplitude;
  }
}

}  // namespace fhn
