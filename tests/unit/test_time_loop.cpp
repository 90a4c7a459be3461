// The time loop (run/time_loop.hpp) on its own: each event runs at exactly the steps its cadence
// and flags name, in the order it was registered, from a fresh start or a restart between
// cadences, on a stepper whose passes are several steps long; the stepper is advanced by whole
// gaps between the steps where something is due, and an event that throws stops the loop there.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "run/time_loop.hpp"

using fhn::index_t;
using fhn::LoopEvent;
using fhn::LoopResult;

namespace {

// Counts steps and records how far each call advanced.
class CountingStepper final : public fhn::TimeStepper {
 public:
  CountingStepper(index_t start, index_t pass) : step_(start), pass_(pass) {}
  index_t steps_done() const override { return step_; }
  void advance(index_t steps) override {
    calls.push_back(steps);
    step_ += steps;
  }
  index_t steps_per_pass() const override { return pass_; }
  std::vector<index_t> calls;

 private:
  index_t step_;
  index_t pass_;
};

// An event that writes "<name><step> " into `log` when it runs.
LoopEvent logged(std::string& log, const std::string& name, index_t every, unsigned when) {
  return {every, when, [&log, name](index_t step) { log += name + std::to_string(step) + " "; }};
}

constexpr unsigned kStartEnd = LoopEvent::kAtStart | LoopEvent::kAtEnd;

// Runs the loop from `start` to `last` over a stepper with passes of `pass` steps and checks what
// it did: the events' log, one advance per gap between stops (`calls`), the steps it reports.
void check_loop(const std::string& log, const std::vector<LoopEvent>& events, index_t start,
                index_t pass, index_t last, const std::string& expected,
                const std::vector<index_t>& calls) {
  CountingStepper stepper(start, pass);
  LoopResult result;
  fhn::run_time_loop(stepper, last, events, result);
  CHECK(log == expected);
  CHECK(stepper.calls == calls);
  CHECK(stepper.steps_done() == last);
  CHECK(result.steps == last - start);
}

}  // namespace

TEST_CASE("time loop: events run at their multiples, start and end, in the order registered") {
  std::string log;
  const std::vector<LoopEvent> events = {
      logged(log, "a", 3, kStartEnd),                // a frame: start, multiples of 3, end
      logged(log, "b", 5, LoopEvent::kAtEnd),        // a sample: multiples of 5, end
      logged(log, "c", 0, LoopEvent::kAtEveryStop),  // progress: wherever the loop stops
      logged(log, "d", 4, 0),                        // a checkpoint: multiples of 4 only
  };
  // One call per gap between stops: nothing is done at a step where nothing is due.
  check_loop(log, events, 0, 1, 17,
             "a0 "
             "a3 c3 c4 d4 b5 c5 a6 c6 c8 d8 a9 c9 b10 c10 a12 c12 d12 a15 b15 c15 c16 d16 a17 b17 c17 ",
             {3, 1, 1, 1, 2, 1, 1, 2, 3, 1, 1});
}

TEST_CASE("time loop: a restart between cadences runs what the uninterrupted loop would have from there") {
  std::string log;
  const std::vector<LoopEvent> events = {
      logged(log, "a", 3, kStartEnd),
      logged(log, "b", 5, LoopEvent::kAtEnd),
      logged(log, "c", 0, LoopEvent::kAtEveryStop),
      logged(log, "d", 4, 0),
  };
  SUBCASE("from step 7, a multiple of none: nothing at the start") {
    check_loop(log, events, 7, 1, 17, "c8 d8 a9 c9 b10 c10 a12 c12 d12 a15 b15 c15 c16 d16 a17 b17 c17 ",
               {1, 1, 1, 2, 3, 1, 1});
  }
  SUBCASE("from step 12, a multiple of a and d: only a runs at the start (d has no kAtStart)") {
    check_loop(log, events, 12, 1, 17, "a12 a15 b15 c15 c16 d16 a17 b17 c17 ", {3, 1, 1});
  }
  SUBCASE("at the last step already: the start's events only, no step") {
    check_loop(log, events, 15, 1, 15, "a15 ", {});
  }
}

TEST_CASE("time loop: kWholePasses rounds a cadence up to the stepper's pass, the others stay put") {
  std::string log;
  // fhn run's pair: the NaN check every 6 steps on whole passes and wherever the loop stops,
  // frames every 6 steps exactly.
  const std::vector<LoopEvent> events = {
      logged(log, "n", 6, LoopEvent::kWholePasses | LoopEvent::kAtEveryStop),
      logged(log, "f", 6, kStartEnd),
      logged(log, "s", 6, LoopEvent::kWholePasses),  // a check without kAtEveryStop
  };
  SUBCASE("passes of 4 steps: checks every 8") {
    check_loop(log, events, 0, 4, 26, "f0 n6 f6 n8 s8 n12 f12 n16 s16 n18 f18 n24 f24 s24 n26 f26 ",
               {6, 2, 4, 4, 2, 6, 2});
  }
  SUBCASE("restarted at step 10 with passes of 4") {
    check_loop(log, events, 10, 4, 26, "n12 f12 n16 s16 n18 f18 n24 f24 s24 n26 f26 ", {2, 4, 2, 6, 2});
  }
  SUBCASE("a pass of one step leaves every cadence as it is") {
    check_loop(log, events, 0, 1, 13, "f0 n6 f6 s6 n12 f12 s12 n13 f13 ", {6, 6, 1});
  }
}

TEST_CASE("time loop: only events with a cadence make it stop, and an event that throws stops it") {
  std::string log;
  SUBCASE("events of every stop only: one advance to the end") {
    check_loop(log, {logged(log, "c", 0, LoopEvent::kAtEveryStop)}, 0, 1, 100, "c100 ", {100});
  }
  SUBCASE("a throw at step 10 skips the events after it there and every later step") {
    std::vector<LoopEvent> events = {logged(log, "a", 5, 0)};
    events.push_back({5, 0, [](index_t step) {
                        if (step == 10) throw std::runtime_error("stop");
                      }});
    events.push_back(logged(log, "b", 5, LoopEvent::kAtEnd));
    CountingStepper stepper(0, 1);
    LoopResult result;
    CHECK_THROWS_WITH_AS(fhn::run_time_loop(stepper, 30, events, result), "stop", std::runtime_error);
    CHECK(log == "a5 b5 a10 ");
    CHECK(result.steps == 10);
    CHECK(stepper.steps_done() == 10);
  }
}
