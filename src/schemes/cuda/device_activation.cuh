#pragma once
// The activation times a device scheme records (Scheme::record_activation): device arrays laid out
// like its v and w (a slab's halo planes included, never written), which the fast kernels' fused
// crossing test writes, and for the schemes without one (the generic explicit path, ADI) a
// crossing kernel over a step's old and new v (schemes/point/activation_point.hpp). Compiled
// without FMA contraction, as the CPU evaluates t + (threshold - v) / (v+ - v) dt.
#include <cuda_runtime.h>

#include "core/cuda/device_buffer.hpp"
#include "schemes/activation_record.hpp"

namespace fhn::cuda {

class DeviceFields;  // device_fields.cuh, which holds the schemes' DeviceActivation

class DeviceActivation {
 public:
  // Recording from now on, every time NaN (uploads; synchronises).
  void start(const DeviceFields& fields, real threshold, bool keep_last);
  bool on() const { return host_.on; }
  // The device arrays the crossing tests write (first == nullptr when off), from array node
  // `offset` on (the kernels' arrays start there too).
  ActivationArrays arrays(index_t offset = 0);
  // The owned nodes' times into a snapshot / a checkpoint, and back (ActivationRecord's rules;
  // synchronise). Nothing when off.
  void fill(const DeviceFields& fields, Snapshot& out) const;
  void save(const DeviceFields& fields, SchemeState& state) const;
  void restore(const DeviceFields& fields, const SchemeState& state);

 private:
  void download(const DeviceFields& fields) const;

  mutable ActivationRecord host_;  // the owned nodes' times, as last copied
  DeviceBuffer<real> first_, last_;
};

// The crossing test at n nodes for the step from t: v_old, v_new and the arrays of `act` from the
// same node on (device). Queued on `stream`, no sync.
void launch_record_crossings(const real* v_old, const real* v_new, index_t n,
                             const ActivationArrays& act, real t, real dt, cudaStream_t stream);

}  // namespace fhn::cuda
