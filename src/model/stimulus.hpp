#pragma once
// Current stimuli: which nodes receive how much current at a given time step.
#include <cmath>
#include <vector>

#include "config/config.hpp"
#include "model/fhn.hpp"

namespace fhn {

// A stimulus resolved onto a uniform grid: nodes [first, last] inclusive get `amplitude`.
struct NodeStimulus {
  index_t first = 0;
  index_t last = -1;  // last < first: the region holds no node
  Stimulus spec;
};

// Is the stimulus switched on at time t? On during [start + j period, start + j period + duration)
// for j = 0..count-1; edges are compared with `tolerance` (a small fraction of dt) so that
// t = n dt lands on the intended side of an edge that is itself a multiple of dt.
FHN_HOST_DEVICE inline bool stimulus_active(const Stimulus& s, real t, real tolerance) {
  const real since = t - s.start + tolerance;
  if (since < 0.0) return false;
  const index_t pulse = s.period > 0.0 ? static_cast<index_t>(std::floor(since / s.period)) : 0;
  if (pulse >= s.count) return false;
  return since - static_cast<real>(pulse) * s.period < s.duration;
}

// The weight of a stimulus over a step from t to t + dt: weight_now if it is on at t, plus
// weight_next if it is on at t + dt. Explicit schemes use (1, 0), Crank-Nicolson (1/2, 1/2).
FHN_HOST_DEVICE inline real stimulus_weight(const Stimulus& s, real t, real dt, real tolerance,
                                            real weight_now, real weight_next) {
  return (stimulus_active(s, t, tolerance) ? weight_now : 0.0) +
         (stimulus_active(s, t + dt, tolerance) ? weight_next : 0.0);
}

// A stimulus table as the kernels read it (NodeStimulus entries in device memory): count 0 = no
// stimuli; dt and tolerance as StimulusSchedule::dt(), tolerance().
struct StimulusTable {
  const NodeStimulus* table = nullptr;
  int count = 0;
  real dt = 0.0;
  real tolerance = 0.0;
};

// amplitude * stimulus_weight of one stimulus for the step from t.
FHN_HOST_DEVICE inline real stimulus_term(const StimulusTable& st, const NodeStimulus& s, real t,
                                          real weight_now, real weight_next) {
  return stimulus_weight(s.spec, t, st.dt, st.tolerance, weight_now, weight_next) *
         s.spec.amplitude;
}

// I_i = 0 + a_1 w_1 + a_2 w_2 + ... over the stimuli covering node i, in table order (the order
// of StimulusSchedule::currents).
FHN_HOST_DEVICE inline real stimulus_current(const StimulusTable& st, index_t i, real t,
                                             real weight_now, real weight_next) {
  real sum = 0.0;
  for (int j = 0; j < st.count; ++j) {
    const NodeStimulus& s = st.table[j];
    if (i >= s.first && i <= s.last) sum += stimulus_term(st, s, t, weight_now, weight_next);
  }
  return sum;
}

class StimulusSchedule {
 public:
  StimulusSchedule() = default;
  StimulusSchedule(const std::vector<Stimulus>& stimuli, real dx, index_t nodes, real dt);

  bool active(const NodeStimulus& s, real t) const {
    return stimulus_active(s.spec, t, tolerance_);
  }

  // current[i] = sum over the stimuli covering node i, in order, of amplitude * weight (see
  // stimulus_weight); touches only the stimulated nodes (zero elsewhere stays zero).
  void currents(real t, real weight_now, real weight_next, real* current) const;

  const std::vector<NodeStimulus>& stimuli() const { return stimuli_; }
  bool empty() const { return stimuli_.empty(); }
  real tolerance() const { return tolerance_; }
  real dt() const { return dt_; }

 private:
  std::vector<NodeStimulus> stimuli_;
  real tolerance_ = 0.0;
  real dt_ = 0.0;
};

}  // namespace fhn
