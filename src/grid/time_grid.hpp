#pragma once
// The uniform time grid a run steps through: t_n = n dt, n = 0..steps. Every time a run reports
// (snapshots, stimuli, checkpoints, messages) comes from t(step), one expression, so the same step
// gives the same bits wherever it is computed.
#include "core/types.hpp"

namespace fhn {

// t_n = n dt: the one expression (kernels that carry dt without a TimeGrid call it too).
FHN_HOST_DEVICE inline real step_time(index_t step, real dt) { return static_cast<real>(step) * dt; }

struct TimeGrid {
  real dt = 0.0;
  index_t steps = 0;  // the last step of the run (t(steps) is its end)

  FHN_HOST_DEVICE real t(index_t step) const { return step_time(step, dt); }
};

}  // namespace fhn
