#pragma once
// What the time loop (run/time_loop.hpp) drives: state that advances in steps of the run's time
// grid. A Scheme (one run, schemes/scheme.hpp) and a MemberBatch (a sweep's members in lockstep,
// schemes/member_batch.hpp) are time steppers; everything else the loop does is its events.
#include "core/types.hpp"

namespace fhn {

class TimeStepper {
 public:
  virtual ~TimeStepper() = default;
  // Steps taken so far; the state is at t = steps_done() * dt.
  virtual index_t steps_done() const = 0;
  // May return before the work is done (a device queues it); synchronize() waits for it.
  virtual void advance(index_t steps) = 0;
  virtual void synchronize() const {}
  // The steps one call advances best: a whole pass of a temporally blocked kernel (a shorter call
  // takes a shorter, costlier pass). The time loop puts the events that may move (NaN checks) on
  // multiples of it.
  virtual index_t steps_per_pass() const { return 1; }
};

}  // namespace fhn
