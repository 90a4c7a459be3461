#pragma once
// Building blocks of the CUDA schemes: the solution fields on the device, the stimulus currents
// computed on the device, the NaN/Inf search, and block reductions.
#include <string>
#include <vector>

#include "core/cuda/device_buffer.hpp"
#include "core/cuda/launch.hpp"
#include "model/problem.hpp"
#include "schemes/scheme.hpp"

namespace fhn::cuda {

// Name of the current device, for scheme descriptions and run.log.
std::string current_device_name();

// v and w on the device for the whole run; copied to the host only for frames and checks.
class DeviceFields {
 public:
  explicit DeviceFields(const Problem& problem);

  real* v() { return v_.data(); }
  real* w() { return w_.data(); }
  const real* v() const { return v_.data(); }
  const real* w() const { return w_.data(); }
  DeviceBuffer<real>& v_buffer() { return v_; }
  DeviceBuffer<real>& w_buffer() { return w_; }

  // Copies v and w to the host (synchronises).
  void download(const Problem& problem, index_t step, Snapshot& out) const;
  // Adds "v" and "w" to a checkpoint state / loads them back (synchronises).
  void save(SchemeState& state) const;
  void restore(const SchemeState& state);
  // Index of the first node with v or w not finite, or -1 (one reduction, 8 bytes back).
  index_t first_non_finite() const;

 private:
  index_t n_;
  DeviceBuffer<real> v_, w_;
  mutable DeviceBuffer<unsigned long long> first_bad_;
};

// A device array's content on the host (synchronises).
std::vector<real> to_host(const DeviceBuffer<real>& buffer);

// The stimulus table on the device, and the stimulus currents of each step computed from it over
// the span of stimulated nodes only (the rest of the array stays zero). The current array is
// allocated at the first currents() call: kernels that read the table themselves never need it.
class DeviceStimuli {
 public:
  DeviceStimuli(const StimulusSchedule& schedule, index_t n);
  // current[i] = sum of amplitude * stimulus_weight(t, weights) over stimuli covering i, as
  // StimulusSchedule::currents does on the host; nullptr when there are no stimuli.
  const real* currents(real t, real weight_now, real weight_next);

  // The table (count() entries in device memory; nullptr when empty), the schedule's time step
  // and edge tolerance.
  const NodeStimulus* table() const { return table_.data(); }
  int count() const { return count_; }
  real dt() const { return dt_; }
  real tolerance() const { return tolerance_; }

 private:
  index_t n_ = 0;
  int count_ = 0;
  index_t span_first_ = 0, span_last_ = -1;
  real dt_ = 0.0, tolerance_ = 0.0;
  DeviceBuffer<NodeStimulus> table_;
  DeviceBuffer<real> current_;
};

}  // namespace fhn::cuda
