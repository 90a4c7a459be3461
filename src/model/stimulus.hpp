#pragma once
// Current stimuli: which nodes receive how much current at a given time step.
#include <cmath>
#include <vector>

#include "config/config.hpp"
#include "grid/domain.hpp"

namespace fhn {

// A stimulus resolved onto a uniform grid: the nodes (i, j) with i in [first, last] and j in
// [first_y, last_y] (inclusive; j = 0 on a cable) get `amplitude`.
struct NodeStimulus {
  index_t first = 0;
  index_t last = -1;  // last < first: the region holds no node
  index_t first_y = 0;
  index_t last_y = 0;
  index_t first_z = 0;  // boxes: the planes along z (0, 0 on a cable and a sheet)
  index_t last_z = 0;
  Stimulus spec;

  FHN_HOST_DEVICE bool covers(index_t i, index_t j) const {
    return i >= first && i <= last && j >= first_y && j <= last_y;
  }
  FHN_HOST_DEVICE bool covers(index_t i, index_t j, index_t k) const {
    return covers(i, j) && k >= first_z && k <= last_z;
  }
  bool empty() const { return last < first || last_y < first_y || last_z < first_z; }
};

// The slack of stimulus_active's edges for a time step dt (see there).
inline real stimulus_tolerance(real dt) { return 1e-6 * dt; }

// The nodes of `domain` that `s` covers (NodeStimulus::first .. last, first_y .. last_y; a node
// on an edge of the region counts as inside); empty() when there are none.
NodeStimulus stimulus_nodes(const Stimulus& s, const Domain& domain);

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

// The first sample j in [0, samples) at which `s` is on, t_j = j h (h = dt, or dt/2 for a scheme
// that also evaluates the stimuli at half steps), with stimulus_active's edges for time step dt;
// -1 when it is on at none. Pulses are looked at in order, at most 2^20 of them (a pulse
// shorter than h may be missed by one sample and met by the next pulse's); beyond that the
// stimulus is taken as met.
index_t first_sample_on(const Stimulus& s, real h, index_t samples, real dt);

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

// I_ij = 0 + a_1 w_1 + a_2 w_2 + ... over the stimuli covering node (i, j), in table order (the
// order of StimulusSchedule::currents); j = 0 on a cable.
FHN_HOST_DEVICE inline real stimulus_current(const StimulusTable& st, index_t i, index_t j, real t,
                                             real weight_now, real weight_next) {
  real sum = 0.0;
  for (int m = 0; m < st.count; ++m) {
    const NodeStimulus& s = st.table[m];
    if (s.covers(i, j)) sum += stimulus_term(st, s, t, weight_now, weight_next);
  }
  return sum;
}
FHN_HOST_DEVICE inline real stimulus_current(const StimulusTable& st, index_t i, real t,
                                             real weight_now, real weight_next) {
  return stimulus_current(st, i, 0, t, weight_now, weight_next);
}
// The same at node (i, j, k) of a box.
FHN_HOST_DEVICE inline real stimulus_current(const StimulusTable& st, index_t i, index_t j,
                                             index_t k, real t, real weight_now,
                                             real weight_next) {
  real sum = 0.0;
  for (int m = 0; m < st.count; ++m) {
    const NodeStimulus& s = st.table[m];
    if (s.covers(i, j, k)) sum += stimulus_term(st, s, t, weight_now, weight_next);
  }
  return sum;
}

class StimulusSchedule {
 public:
  StimulusSchedule() = default;
  StimulusSchedule(const std::vector<Stimulus>& stimuli, const Domain& domain, real dt);

  bool active(const NodeStimulus& s, real t) const {
    return stimulus_active(s.spec, t, tolerance_);
  }

  // current[node] = sum over the stimuli covering the node, in order, of amplitude * weight (see
  // stimulus_weight); touches only the stimulated nodes (zero elsewhere stays zero). With
  // plane0/planes, `current` holds only the planes [plane0, plane0 + planes) of the last axis (a
  // rank's slab: nodes along x on a cable, rows along y on a sheet, planes along z on a box),
  // starting at plane0's first node; planes < 0: every plane.
  void currents(real t, real weight_now, real weight_next, real* current, index_t plane0 = 0,
                index_t planes = -1) const;

  const std::vector<NodeStimulus>& stimuli() const { return stimuli_; }
  bool empty() const { return stimuli_.empty(); }
  real tolerance() const { return tolerance_; }
  real dt() const { return dt_; }

 private:
  std::vector<NodeStimulus> stimuli_;
  index_t n_[kMaxAxes] = {1, 1, 1};  // nodes per axis: node = i + N_x (j + N_y k)
  int last_axis_ = 0;                 // the axis of the planes (the domain's last)
  real tolerance_ = 0.0;
  real dt_ = 0.0;
};

}  // namespace fhn
