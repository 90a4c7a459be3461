#pragma once
// Current stimuli: which nodes receive how much current at a given time step.
#include <cmath>
#include <vector>

#include "config/config.hpp"
#include "grid/domain.hpp"

namespace fhn {

// A stimulus resolved onto a uniform grid: the nodes (i, j, k) with i in [first, last], j in
// [first_y, last_y] and k in [first_z, last_z] (inclusive; j = k = 0 on a cable, k = 0 on a
// sheet) get `amplitude` times their fraction (stimulus_nodes, docs/ARCHITECTURE.md section 4).
// The fraction is separable: along each axis the first and the last covered node take their
// cell's share of the region (first_fraction, last_fraction; one value when first = last), the
// nodes between them 1, and a node's fraction is the product over the axes. `coverage: nodes`
// and the axes a domain lacks have fractions 1 (a product of ones: the current's bits unchanged).
struct NodeStimulus {
  index_t first = 0;
  index_t last = -1;  // last < first: the region holds no node
  index_t first_y = 0;
  index_t last_y = 0;
  index_t first_z = 0;  // boxes: the planes along z (0, 0 on a cable and a sheet)
  index_t last_z = 0;
  real first_fraction[kMaxAxes] = {1.0, 1.0, 1.0};  // along x, y, z
  real last_fraction[kMaxAxes] = {1.0, 1.0, 1.0};
  Stimulus spec;

  FHN_HOST_DEVICE bool covers(index_t i, index_t j) const {
    return i >= first && i <= last && j >= first_y && j <= last_y;
  }
  FHN_HOST_DEVICE bool covers(index_t i, index_t j, index_t k) const {
    return covers(i, j) && k >= first_z && k <= last_z;
  }
  // The fraction of covered node (i, j, k): f_x(i) f_y(j) f_z(k), in this order.
  FHN_HOST_DEVICE real fraction(index_t i, index_t j, index_t k = 0) const {
    return axis_fraction(0, i, first, last) * axis_fraction(1, j, first_y, last_y) *
           axis_fraction(2, k, first_z, last_z);
  }
  bool empty() const { return last < first || last_y < first_y || last_z < first_z; }

 private:
  FHN_HOST_DEVICE real axis_fraction(int axis, index_t at, index_t lo, index_t hi) const {
    return at == lo ? first_fraction[axis] : at == hi ? last_fraction[axis] : 1.0;
  }
};

// The slack of stimulus_active's edges for a time step dt (see there).
inline real stimulus_tolerance(real dt) { return 1e-6 * dt; }

// The nodes of `domain` that `s` covers, with their fractions; empty() when there are none.
// Along an axis of nodes x_i = i h (h = dx, i = 0..N-1) node i's cell is
//   C_i = [x_i - h/2, x_i + h/2] clipped to the domain [0, (N-1) h]
// (half a cell at either end), and its fraction of the region [lo, hi] is
//   f_i = |C_i intersected with [lo, hi]| / |C_i|.
// coverage: overlap: the nodes with f_i > 0, each taking f_i (the current a region injects is then
// the amplitude times the region's measure in the domain, at every dx); an overlap or a gap
// within 1e-9 h of 0 or of |C_i| counts as 0 or |C_i| (an edge on a cell's face). coverage:
// nodes: the nodes with lo <= x_i <= hi (one on an edge counts as inside), each taking 1.
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

// An edge at u from the start of a window of length span, clipped to [0, span] (stimulus_mean).
FHN_HOST_DEVICE inline real clip_to_window(real u, real span, real tolerance) {
  return u <= tolerance ? 0.0 : u >= span - tolerance ? span : u;
}

// The weight of a stimulus over a step from t, the mean of its on (1) / off (0) over [t, t + span]:
//   span = 0: its value at t (stimulus_active), forward Euler's left point (first order in dt);
//   span > 0: the time it is on in [t, t + span] over span, exact for the pulse train:
//     (1/span) sum_j |[t, t + span] intersected with [b_j, b_j + duration)|,
//     b_j = start + j period,
//   Crank-Nicolson's step (span = dt) and ADI's reaction half-steps (span = dt/2): second order
//   for a stimulus that switches inside a step, where the trapezoid of its values at t and
//   t + span is first order. An edge within `tolerance` of the window's start or end is taken at
//   it, as stimulus_active takes it, so a stimulus whose edges are multiples of the step gets
//   exactly 1 or 0 in every step. Pulses overlap no others (period >= duration, the loader's).
FHN_HOST_DEVICE inline real stimulus_mean(const Stimulus& s, real t, real span, real tolerance) {
  if (span == 0.0) return stimulus_active(s, t, tolerance) ? 1.0 : 0.0;
  // The pulses that may meet the window: from the one in force at t - duration to the last that
  // begins before t + span.
  real j = 0.0, last = 0.0;
  if (s.period > 0.0) {
    j = std::fmax(0.0, std::floor((t - s.start - s.duration) / s.period));
    last = std::fmin(static_cast<real>(s.count - 1), std::floor((t + span - s.start) / s.period));
  }
  real on = 0.0;
  for (; j <= last; j += 1.0) {
    const real begin = s.start + j * s.period - t;
    on += clip_to_window(begin + s.duration, span, tolerance) -
          clip_to_window(begin, span, tolerance);
  }
  return on / span;
}

// The first sample j in [0, samples) at which `s` acts, t_j = j h (h = dt, or dt/2 for ADI's
// half steps): stimulus_mean over [t_j, t_j + span] > 0 (span = 0: on at t_j; span = h: on for
// part of the step from t_j), with stimulus_active's edges for time step dt; -1 when at none.
// Pulses are looked at in order, at most 2^20 of them (a pulse shorter than h may be missed by
// one sample and met by the next pulse's); beyond that the stimulus is taken as met.
index_t first_sample_on(const Stimulus& s, real h, real span, index_t samples, real dt);

// A stimulus table as the kernels read it (NodeStimulus entries in device memory): count 0 = no
// stimuli; dt and tolerance as StimulusSchedule::dt(), tolerance().
struct StimulusTable {
  const NodeStimulus* table = nullptr;
  int count = 0;
  real dt = 0.0;
  real tolerance = 0.0;
};

// amplitude * stimulus_mean of one stimulus for the step from t (span: see stimulus_mean).
FHN_HOST_DEVICE inline real stimulus_term(const StimulusTable& st, const NodeStimulus& s, real t,
                                          real span) {
  return stimulus_mean(s.spec, t, span, st.tolerance) * s.spec.amplitude;
}

// I_ijk = 0 + w_1 a_1 f_1 + w_2 a_2 f_2 + ... over the stimuli covering node (i, j, k) (w_m
// stimulus_mean, a_m the amplitude, f_m the node's fraction; each term (w_m a_m) f_m), in table
// order (the order of StimulusSchedule::currents); j = 0 on a cable, k = 0 on a sheet.
FHN_HOST_DEVICE inline real stimulus_current(const StimulusTable& st, index_t i, index_t j,
                                             index_t k, real t, real span) {
  real sum = 0.0;
  for (int m = 0; m < st.count; ++m) {
    const NodeStimulus& s = st.table[m];
    if (s.covers(i, j, k)) sum += stimulus_term(st, s, t, span) * s.fraction(i, j, k);
  }
  return sum;
}
FHN_HOST_DEVICE inline real stimulus_current(const StimulusTable& st, index_t i, index_t j, real t,
                                             real span) {
  return stimulus_current(st, i, j, 0, t, span);
}
FHN_HOST_DEVICE inline real stimulus_current(const StimulusTable& st, index_t i, real t,
                                             real span) {
  return stimulus_current(st, i, 0, 0, t, span);
}

class StimulusSchedule {
 public:
  StimulusSchedule() = default;
  StimulusSchedule(const std::vector<Stimulus>& stimuli, const Domain& domain, real dt);

  bool active(const NodeStimulus& s, real t) const {
    return stimulus_active(s.spec, t, tolerance_);
  }

  // current[node] = sum over the stimuli covering the node, in order, of (amplitude * weight) *
  // fraction, the weight stimulus_mean over [t, t + span] (span = 0: forward Euler's value at
  // t), the fraction NodeStimulus::fraction; touches only the stimulated nodes (zero elsewhere
  // stays zero). With
  // plane0/planes, `current` holds only the planes [plane0, plane0 + planes) of the last axis (a
  // rank's slab: nodes along x on a cable, rows along y on a sheet, planes along z on a box),
  // starting at plane0's first node; planes < 0: every plane.
  void currents(real t, real span, real* current, index_t plane0 = 0, index_t planes = -1) const;

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
