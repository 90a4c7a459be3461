#pragma once
// The time loop: advance a TimeStepper (a run's Scheme, a sweep's MemberBatch) to the next step at
// which one of the caller's events is due, run the events due there, and go on to the last step.
// What happens at a cadence (frames, samples, checks, checkpoints, progress, interruption) is the
// caller's events; the loop knows neither the scheme nor the writers (docs/ARCHITECTURE.md
// section 1). fhn run's events are run/run_loop.hpp's, fhn sweep's are in sweep/sweep.cpp.
#include <functional>
#include <vector>

#include "schemes/time_stepper.hpp"

namespace fhn {

// Something the caller wants done at some steps. With every = k > 0 the loop stops at the
// multiples of k (k rounded up to a multiple of the stepper's steps_per_pass() with kWholePasses)
// and runs `action` there; `when` adds steps:
//   kAtStart      also at the first step, before any advance, when it is a multiple of k;
//   kAtEnd        also at the last step;
//   kAtEveryStop  at every step the loop stops at, whichever event made it stop (every = 0: the
//                 event makes no stops of its own).
// The loop never stops but where an event is due, and advances the stepper by the whole gap in
// one call.
struct LoopEvent {
  static constexpr unsigned kAtStart = 1;
  static constexpr unsigned kAtEnd = 2;
  static constexpr unsigned kAtEveryStop = 4;
  static constexpr unsigned kWholePasses = 8;  // for a cadence that may move (a check): it then
                                               // cuts no pass of a temporally blocked kernel short
  index_t every = 0;
  unsigned when = 0;
  std::function<void(index_t step)> action;
};

struct LoopResult {
  index_t steps = 0;          // advanced by this loop
  double step_seconds = 0.0;  // spent inside advance() and synchronize()
};

// Runs from the stepper's current step to last_step, keeping `result` current as it goes. At a
// step, the events due run in the order of `events` (the caller's order is part of its output:
// fhn run checks for NaN/Inf before it writes a frame). An event stops the loop by throwing
// (NumericalError, InterruptedError): the exception leaves the loop, `result` tells how far it
// got. The loop allocates nothing.
void run_time_loop(TimeStepper& stepper, index_t last_step, const std::vector<LoopEvent>& events,
                   LoopResult& result);

}  // namespace fhn
