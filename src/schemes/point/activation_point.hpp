#pragma once
// Activation times taken inside the step (docs/ARCHITECTURE.md section 4): the point layer's
// crossing test, which the CPU schemes run over each step's old and new v and the GPU's fast
// kernels fuse into their update (the old and the new v of a node are both in registers there;
// schemes/cuda/activation_record.cuh).
//
// A node activates when v crosses `threshold` upwards during a step, v^n < threshold <= v^{n+1};
// v is taken linear in time over the step, so the crossing lies at
//   t* = t_n + (threshold - v^n) / (v^{n+1} - v^n) dt,
// second order in dt, whatever the output cadence. The first crossing is kept in `first` (NaN
// until then), the latest in `last` (when the run keeps it).
#include "core/types.hpp"

namespace fhn {

// Where a scheme records activation: arrays laid out like its v (host or device pointers);
// first == nullptr: not recording; last == nullptr: the first crossing only.
struct ActivationArrays {
  real* first = nullptr;
  real* last = nullptr;
  real threshold = 0;

  FHN_HOST_DEVICE bool on() const { return first != nullptr; }
};

// Whether v crosses `threshold` upwards over a step from v_old to v_new, and when (t* above, for
// the step from t): the one expression the CPU and the GPU record.
FHN_HOST_DEVICE inline bool crosses_up(real threshold, real v_old, real v_new) {
  return v_old < threshold && v_new >= threshold;
}
FHN_HOST_DEVICE inline real crossing_time(real threshold, real v_old, real v_new, real t,
                                          real dt) {
  return t + (threshold - v_old) / (v_new - v_old) * dt;
}

// The crossing test at array index c for the step from t (v_old) to t + dt (v_new), as above, on
// the host (the GPU's kernels record the same times without reading the arrays back:
// cuda/activation_record.cuh).
inline void record_crossing(const ActivationArrays& a, index_t c, real v_old, real v_new, real t,
                            real dt) {
  if (!crosses_up(a.threshold, v_old, v_new)) return;
  const real at = crossing_time(a.threshold, v_old, v_new, t, dt);
  if (!(a.first[c] == a.first[c])) a.first[c] = at;  // NaN: the node's first crossing
  if (a.last) a.last[c] = at;
}

}  // namespace fhn
