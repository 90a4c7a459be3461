// Physics the simulator must reproduce: the travelling-pulse speed, pulse splitting and the
// wave train driven by a held boundary.
#include <doctest/doctest.h>

#include "config/loader.hpp"
#include "grid/interpolation.hpp"
#include "model/problem.hpp"
#include "study/front_tracker.hpp"
#include "support.hpp"

namespace {

// Records the upward crossings of v = 0.5 at a set of positions.
class SpikeRecorder final : public fhn::FrameSink {
 public:
  explicit SpikeRecorder(std::vector<double> positions)
      : positions_(std::move(positions)), last_(positions_.size(), 0.0), spikes_(positions_.size()) {}
  void write(const fhn::FrameView& f) override {
    for (std::size_t p = 0; p < positions_.size(); ++p) {
      const double v = fhn::interpolate_at(f.x(), f.v, f.n, positions_[p]);
      if (f.index > 0 && last_[p] < 0.5 && v >= 0.5) spikes_[p].push_back(f.t);
      last_[p] = v;
    }
  }
  const std::vector<double>& spikes(std::size_t p) const { return spikes_[p]; }

 private:
  std::vector<double> positions_;
  std::vector<double> last_;
  std::vector<std::vector<double>> spikes_;
};

}  // namespace

TEST_CASE("the travelling pulse runs at 0.627 (a = 0.01, eps = 0.01, gamma = 2)") {
  // pulse_split refined to dx = 0.25 (the speed error of the scheme is O(dx^2): 0.621 at
  // dx = 0.5, 0.6256 at 0.25, 0.6267 at 0.125).
  const fhn::Config c = fhn::load_config(fhn::test::source_path("configs/pulse_split.yaml"),
                                         {"domain.dx=0.25", "time.dt=0.025", "time.end=150"});
  fhn::FrontTracker tracker(c.domain.length[0]);
  fhn::test::run_with_sinks(c, {&tracker});
  const auto front = tracker.speed();
  REQUIRE(front.has_value());
  CHECK(front->speed == doctest::Approx(0.627).epsilon(0.01));
  CHECK(front->samples >= 40);
}

TEST_CASE("a Gaussian impulse splits into two pulses travelling outwards") {
  const fhn::Config c = fhn::load_config(fhn::test::source_path("configs/pulse_split.yaml"),
                                         {"time.end=150"});
  SpikeRecorder spikes({50.0, 100.0, 150.0});
  fhn::test::run_with_sinks(c, {&spikes});
  // The centre fires once at t = 0 (not an upward crossing); x = 50 and x = 150 are reached at
  // the same time, (100 - 50) / 0.62 + formation time ~ 80 + 40.
  REQUIRE(spikes.spikes(0).size() == 1);
  REQUIRE(spikes.spikes(2).size() == 1);
  CHECK(spikes.spikes(1).empty());
  CHECK(spikes.spikes(0)[0] == spikes.spikes(2)[0]);
  CHECK(spikes.spikes(0)[0] > 60.0);
  CHECK(spikes.spikes(0)[0] < 130.0);
}

TEST_CASE("a boundary held at v = 1 sends a train of pulses right to left") {
  const fhn::Config c = fhn::load_config(fhn::test::source_path("configs/wave_train.yaml"));
  SpikeRecorder spikes({50.0, 100.0, 150.0});
  fhn::test::run_with_sinks(c, {&spikes});
  const auto& near = spikes.spikes(2);
  const auto& middle = spikes.spikes(1);
  const auto& far = spikes.spikes(0);
  REQUIRE(near.size() >= 4);
  REQUIRE(middle.size() >= 3);
  REQUIRE(far.size() >= 3);
  // Each pulse passes x = 150, then 100, then 50, about 50 / 0.62 = 80 time units apart.
  CHECK(middle[0] - near[0] == doctest::Approx(50.0 / 0.62).epsilon(0.05));
  CHECK(far[0] - middle[0] == doctest::Approx(50.0 / 0.62).epsilon(0.05));
  // A periodic train: equal intervals between successive pulses.
  const double period = near[1] - near[0];
  CHECK(period > 50.0);
  CHECK(near[2] - near[1] == doctest::Approx(period).epsilon(0.05));
}

TEST_CASE("a current stimulus at the left end launches a pulse travelling right") {
  const fhn::Config c = fhn::test::config_from(
      "initial: {v: {type: constant, value: 0}}\n"
      "stimulus:\n  - {x_min: 0, x_max: 5, start: 5, duration: 2, amplitude: 0.5}\n"
      "time: {end: 250, dt: 0.1}\n");
  fhn::FrontTracker tracker(c.domain.length[0]);
  SpikeRecorder spikes({100.0});
  fhn::test::run_with_sinks(c, {&tracker, &spikes});
  const auto front = tracker.speed();
  REQUIRE(front.has_value());
  CHECK(front->direction == 1);
  CHECK(front->speed == doctest::Approx(0.621).epsilon(0.01));
  CHECK(spikes.spikes(0).size() == 1);
}

TEST_CASE("a subthreshold stimulus decays without launching a pulse") {
  const fhn::Config c = fhn::test::config_from(
      "initial: {v: {type: constant, value: 0}}\n"
      "stimulus:\n  - {x_min: 0, x_max: 1, start: 0, duration: 0.5, amplitude: 0.02}\n"
      "time: {end: 100, dt: 0.1}\n");
  SpikeRecorder spikes({20.0, 100.0});
  fhn::FrontTracker tracker(c.domain.length[0]);
  fhn::test::run_with_sinks(c, {&spikes, &tracker});
  CHECK(spikes.spikes(0).empty());
  CHECK_FALSE(tracker.speed().has_value());
}
