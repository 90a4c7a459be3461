#include "run/time_loop.hpp"

#include <algorithm>
#include <chrono>

namespace fhn {

void run_time_loop(TimeStepper& stepper, index_t last_step, const std::vector<LoopEvent>& events,
                   LoopResult& result) {
  using Clock = std::chrono::steady_clock;
  result = LoopResult{};
  const index_t start = stepper.steps_done();
  const index_t pass = std::max<index_t>(stepper.steps_per_pass(), 1);
  // An event's cadence in steps (0: none of its own).
  auto cadence = [pass](const LoopEvent& e) {
    return (e.when & LoopEvent::kWholePasses) ? (e.every + pass - 1) / pass * pass : e.every;
  };
  for (const LoopEvent& e : events)
    if ((e.when & LoopEvent::kAtStart) && e.every > 0 && start % cadence(e) == 0) e.action(start);

  for (index_t step = start; step < last_step;) {
    // Advance to whichever comes first: an event's next multiple, or the end.
    index_t target = last_step;
    for (const LoopEvent& e : events)
      if (const index_t every = cadence(e); every > 0)
        target = std::min(target, (step / every + 1) * every);
    const auto t0 = Clock::now();
    stepper.advance(target - step);
    stepper.synchronize();  // the clock covers the steps themselves, not just their launch
    result.step_seconds += std::chrono::duration<double>(Clock::now() - t0).count();
    step = target;
    result.steps = step - start;

    for (const LoopEvent& e : events) {
      const index_t every = cadence(e);
      if ((e.when & LoopEvent::kAtEveryStop) || (every > 0 && step % every == 0) ||
          ((e.when & LoopEvent::kAtEnd) && step == last_step))
        e.action(step);
    }
  }
}

}  // namespace fhn
