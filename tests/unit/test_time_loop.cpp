// The time loop's plan: where it ends each advance, which frames a scheme records inside a pass,
// and that the frames written (and a blow-up's report) do not depend on it.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "run/time_loop.hpp"

namespace {

using fhn::index_t;
using fhn::real;

// A one-node scheme whose state after s steps is v = s, w = -s (NaN from step `blow_up` on),
// with passes of `pass` steps and `recordable` states kept inside an advance. It logs the length
// of every advance.
class CountingScheme final : public fhn::Scheme {
 public:
  CountingScheme(index_t pass, int recordable, index_t blow_up)
      : pass_(pass), recordable_(recordable), blow_up_(blow_up) {}
  std::string name() const override { return "counting"; }
  index_t node_count() const override { return 1; }
  index_t steps_done() const override { return step_; }
  index_t steps_per_pass() const override { return pass_; }
  int recordable_states() const override { return recordable_; }
  void advance(index_t steps) override { advance_recording(steps, {}); }
  void advance_recording(index_t steps, const std::vector<index_t>& after) override {
    REQUIRE(static_cast<int>(after.size()) <= recordable_);
    for (std::size_t k = 0; k < after.size(); ++k) {
      REQUIRE(after[k] > 0);
      REQUIRE(after[k] < steps);
      if (k > 0) REQUIRE(after[k] > after[k - 1]);
    }
    recorded_.clear();
    for (index_t a : after) recorded_.push_back(step_ + a);
    advances.push_back(steps);
    step_ += steps;
  }
  void recorded_snapshot(std::size_t k, fhn::Snapshot& out) const override {
    fill(recorded_.at(k), out);
  }
  void snapshot(fhn::Snapshot& out) const override { fill(step_, out); }
  index_t first_non_finite() const override { return step_ >= blow_up_ ? 0 : -1; }
  fhn::SchemeState save_state() const override { return {}; }
  void restore_state(const fhn::SchemeState&) override {}

  std::vector<index_t> advances;

 private:
  void fill(index_t step, fhn::Snapshot& out) const {
    out.step = step;
    out.t = static_cast<real>(step);
    out.x = {0.0};
    const real v = step >= blow_up_ ? std::numeric_limits<real>::quiet_NaN() : static_cast<real>(step);
    out.v = {v};
    out.w = {-v};
  }
  index_t pass_;
  int recordable_;
  index_t blow_up_;
  index_t step_ = 0;
  std::vector<index_t> recorded_;
};

// Keeps each frame's step and values.
struct FrameLog final : fhn::FrameSink {
  void write(const fhn::FrameView& f) override {
    steps.push_back(f.step);
    values.push_back(f.v[0]);
    CHECK(f.w[0] == -f.v[0]);
    CHECK(f.index == static_cast<index_t>(steps.size()) - 1);
  }
  std::vector<index_t> steps;
  std::vector<real> values;
};

struct Outcome {
  std::vector<index_t> advances;
  FrameLog frames;
  fhn::LoopResult result;
  std::string error;
};

Outcome run(index_t pass, int recordable, index_t frame_every, index_t total,
            index_t blow_up = 1000000) {
  CountingScheme scheme(pass, recordable, blow_up);
  fhn::LoopSettings s;
  s.total_steps = total;
  s.frame_every = frame_every;
  s.dt = 1.0;
  fhn::Progress quiet(total, 1.0, false);
  Outcome out;
  try {
    fhn::run_time_loop(scheme, s, {&out.frames}, quiet, out.result);
  } catch (const fhn::NumericalError& e) {
    out.error = e.what();
  }
  out.advances = scheme.advances;
  return out;
}

std::vector<index_t> multiples(index_t every, index_t total) {
  std::vector<index_t> steps;
  for (index_t s = 0; s <= total; s += every) steps.push_back(s);
  if (steps.back() != total) steps.push_back(total);
  return steps;
}

}  // namespace

TEST_CASE("time loop: frames inside a pass are recorded, and every advance is whole passes") {
  // A frame every 10 steps, passes of 16, checks every 50 -> 64 steps, 2 states recordable:
  // [0,16) records 10, [16,32) 20 and 30, [32,48) 40, [48,64) 50 and 60 (check at 64), ...
  const Outcome out = run(16, 2, 10, 200);
  CHECK(out.error.empty());
  CHECK(out.frames.steps == multiples(10, 200));
  for (std::size_t k = 0; k < out.frames.steps.size(); ++k)
    CHECK(out.frames.values[k] == static_cast<real>(out.frames.steps[k]));
  CHECK(out.advances == std::vector<index_t>{16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 8});
  CHECK(out.result.frames == 21);
  CHECK(out.result.last.step == 200);
  CHECK(out.result.steps == 200);
}

TEST_CASE("time loop: a scheme that records nothing ends each advance at a frame, same frames") {
  const Outcome recorded = run(16, 2, 10, 200), plain = run(16, 0, 10, 200);
  CHECK(plain.frames.steps == recorded.frames.steps);
  CHECK(plain.frames.values == recorded.frames.values);
  // Its advances end at every frame and check (multiples of 10 and of 64).
  std::vector<index_t> ends;
  for (index_t s = 1; s <= 200; ++s)
    if (s % 10 == 0 || s % 64 == 0) ends.push_back(s);
  std::vector<index_t> lengths;
  for (std::size_t k = 0; k < ends.size(); ++k) lengths.push_back(ends[k] - (k ? ends[k - 1] : 0));
  CHECK(plain.advances == lengths);
}

TEST_CASE("time loop: frames closer than a pass allows to record end the advance at a frame") {
  // A frame every 3 steps, 2 recordable: no whole pass of 16 fits before the third frame, so
  // each advance records 3 and 6 and ends at 9.
  const Outcome out = run(16, 2, 3, 36);
  CHECK(out.frames.steps == multiples(3, 36));
  CHECK(out.advances == std::vector<index_t>{9, 9, 9, 9});
  // Frames every pass or less often: whole passes (frames at 16 and 32 recorded, 48 the end of
  // the first advance; 40 recorded, then 80 and 120).
  CHECK(run(16, 2, 16, 64).advances == std::vector<index_t>{48, 16});
  CHECK(run(16, 2, 40, 128).advances == std::vector<index_t>{64, 64});
}

TEST_CASE("time loop: a blow-up inside a pass is reported at the first recorded frame it reaches") {
  // NaN from step 25 on: frames 0, 10, 20 are written; the frame at 30, recorded inside the
  // advance [16, 32), is the first that is not finite, and the report names steps 20 to 30.
  const Outcome out = run(16, 2, 10, 200, 25);
  CHECK(out.frames.steps == std::vector<index_t>{0, 10, 20});
  CHECK(out.error.find("steps 20 to 30") != std::string::npos);
  // Without recording, the advance ends at 30 and the same is reported.
  const Outcome plain = run(16, 0, 10, 200, 25);
  CHECK(plain.frames.steps == out.frames.steps);
  CHECK(plain.error == out.error);
}
