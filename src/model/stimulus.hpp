#pragma once
// Current stimuli: which nodes receive how much current at a given time step.
#include <vector>

#include "config/config.hpp"

namespace fhn {

// A stimulus resolved onto a uniform grid: nodes [first, last] inclusive get `amplitude`.
struct NodeStimulus {
  index_t first = 0;
  index_t last = -1;  // last < first: the region holds no node
  Stimulus spec;
};

class StimulusSchedule {
 public:
  StimulusSchedule() = default;
  StimulusSchedule(const std::vector<Stimulus>& stimuli, real dx, index_t nodes, real dt);

  // Is stimulus s switched on at time t? On during [start + j period, start + j period + duration)
  // for j = 0..count-1; edges are compared with a tolerance of dt * 1e-6 so that t = n dt lands
  // on the intended side of an edge that is itself a multiple of dt.
  bool active(const NodeStimulus& s, real t) const;

  // current[i] = sum over stimuli covering node i of amplitude (weight_now [on at t] +
  // weight_next [on at t + dt]); touches only the stimulated nodes (zero elsewhere stays zero).
  // Explicit schemes use weights (1, 0), Crank-Nicolson (1/2, 1/2).
  void currents(real t, real weight_now, real weight_next, real* current) const;

  const std::vector<NodeStimulus>& stimuli() const { return stimuli_; }
  bool empty() const { return stimuli_.empty(); }

 private:
  std::vector<NodeStimulus> stimuli_;
  real tolerance_ = 0.0;
  real dt_ = 0.0;
};

}  // namespace fhn
