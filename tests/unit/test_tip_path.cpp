// The tip-path classification (study/tip_path.hpp) on synthetic paths with known answers: a
// circle, an epicycloid of two known frequencies, a drifting circle, a tip that leaves the sheet,
// a tip that travels without turning, and the classes decided by the last frame alone.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <vector>

#include "study/tip_path.hpp"

namespace {

using fhn::real;

struct Path {
  std::vector<real> t, x, y;
};

// Samples at t = 0, dt, ..., end of the position p(t) = (x, y).
Path sample(real end, real dt, const std::function<std::pair<real, real>(real)>& p) {
  Path path;
  for (int k = 0; k * dt <= end + 1e-12; ++k) {
    const real t = k * dt;
    const auto [x, y] = p(t);
    path.t.push_back(t);
    path.x.push_back(x);
    path.y.push_back(y);
  }
  return path;
}

fhn::TipPathContext one_tip() {
  fhn::TipPathContext c;
  c.tips_at_end = 1;
  c.excited_at_end = true;
  c.ever_tips = true;
  c.x_max = c.y_max = 100.0;
  c.dx = 0.25;
  return c;
}

fhn::TipPathAnalysis analyse(const Path& p, const fhn::TipPathContext& c = one_tip()) {
  return fhn::analyse_tip_path(p.t, p.x, p.y, c, fhn::TipPathLimits{});
}

}  // namespace

TEST_CASE("tip path: a circle is rigid rotation with its period and radius") {
  // Radius 1.5 about (40, 50), period 11 (counterclockwise), frames every 0.2, 20 turns.
  const real period = 11.0, w = fhn::kTwoPi / period;
  const Path p = sample(220.0, 0.2, [&](real t) {
    return std::pair{40.0 + 1.5 * std::cos(w * t), 50.0 + 1.5 * std::sin(w * t)};
  });
  const fhn::TipPathAnalysis a = analyse(p);
  CHECK(a.kind == "rigid");
  CHECK(a.turns == doctest::Approx(10.0).epsilon(0.02));  // the second half: 10 turns
  REQUIRE(a.period);
  CHECK(*a.period == doctest::Approx(period).epsilon(1e-4));
  CHECK(*a.radius == doctest::Approx(1.5).epsilon(1e-3));
  CHECK(*a.drift_speed < 1e-3);
  CHECK(*a.meander_ratio < 0.03);
  CHECK(a.t_from == doctest::Approx(110.0));
  // Frames every 0.1: the window keeps the last 1024 samples (t from 117.7), 9.3 turns.
  const Path dense = sample(220.0, 0.1, [&](real t) {
    return std::pair{40.0 + 1.5 * std::cos(w * t), 50.0 + 1.5 * std::sin(w * t)};
  });
  const fhn::TipPathAnalysis b = analyse(dense);
  CHECK(b.t_from == doctest::Approx(117.7));
  CHECK(b.kind == "rigid");
  CHECK(*b.period == doctest::Approx(period).epsilon(1e-4));
}

TEST_CASE("tip path: an epicycloid meanders, with both frequencies and amplitudes") {
  // z = 2 e^{i w1 t} + 0.6 e^{i w2 t}: w1 = 2 pi / 7 (the rotation), w2 = -2 pi / 23 (the
  // meander's slower turn, clockwise); frames every 0.05 to t = 400.
  const real w1 = fhn::kTwoPi / 7.0, w2 = -fhn::kTwoPi / 23.0;
  const Path p = sample(400.0, 0.05, [&](real t) {
    return std::pair{50.0 + 2.0 * std::cos(w1 * t) + 0.6 * std::cos(w2 * t),
                     50.0 + 2.0 * std::sin(w1 * t) + 0.6 * std::sin(w2 * t)};
  });
  const fhn::TipPathAnalysis a = analyse(p);
  CHECK(a.kind == "meander");
  REQUIRE(a.period);
  CHECK(*a.period == doctest::Approx(7.0).epsilon(1e-3));
  CHECK(*a.radius == doctest::Approx(2.0).epsilon(1e-2));
  REQUIRE(a.meander_frequency);
  CHECK(*a.meander_frequency == doctest::Approx(-1.0 / 23.0).epsilon(1e-2));
  CHECK(*a.meander_ratio == doctest::Approx(0.3).epsilon(2e-2));
}

TEST_CASE("tip path: a drifting circle drifts, at its drift speed") {
  // Radius 1, period 5, the centre moving at (0.03, -0.04): 0.25 per turn, a quarter of the
  // radius.
  const real w = fhn::kTwoPi / 5.0;
  const Path p = sample(200.0, 0.1, [&](real t) {
    return std::pair{20.0 + 0.03 * t + std::cos(w * t), 70.0 - 0.04 * t + std::sin(w * t)};
  });
  const fhn::TipPathAnalysis a = analyse(p);
  CHECK(a.kind == "drift");
  REQUIRE(a.drift_speed);
  CHECK(*a.drift_speed == doctest::Approx(0.05).epsilon(2e-2));
  CHECK(*a.period == doctest::Approx(5.0).epsilon(1e-3));
  // A tenth of that drift stays under the threshold (0.025 per turn against 0.1 x radius).
  const Path slow = sample(200.0, 0.1, [&](real t) {
    return std::pair{20.0 + 0.003 * t + std::cos(w * t), 70.0 - 0.004 * t + std::sin(w * t)};
  });
  CHECK(analyse(slow).kind == "rigid");
}

TEST_CASE("tip path: a tip that leaves the sheet drifts; one that travels straight drifts too") {
  // Moving towards the right side at 0.5 per time unit while turning with radius 0.5: its last
  // point within two cells of x = 100, and no tip in the last frame.
  const real w = fhn::kTwoPi / 4.0;
  const Path p = sample(40.0, 0.1, [&](real t) {
    return std::pair{80.0 + 0.5 * t + 0.5 * std::cos(w * t), 50.0 + 0.5 * std::sin(w * t)};
  });
  fhn::TipPathContext gone = one_tip();
  gone.tips_at_end = 0;
  const Path cut{{p.t.begin(), p.t.end() - 2}, {p.x.begin(), p.x.end() - 2},
                 {p.y.begin(), p.y.end() - 2}};
  CHECK(cut.x.back() > 100.0 - 0.5);
  CHECK(analyse(cut, gone).kind == "drift");
  // A tip that only ever lay at a side (the end of a wave touching it) did not leave: no_wave
  // once the sheet rests, retract while it is excited.
  const Path at_side = sample(3.0, 0.1, [](real t) { return std::pair{99.8, 40.0 + t}; });
  gone.excited_at_end = false;
  CHECK(analyse(at_side, gone).kind == "no_wave");
  gone.excited_at_end = true;
  CHECK(analyse(at_side, gone).kind == "retract");
  // A free end that ran straight to a side without turning retracted when the waves spread,
  // else it died with its start's excitation: no spiral drifted out.
  const Path straight = sample(10.0, 0.1, [](real t) { return std::pair{50.0 + 4.99 * t, 40.0}; });
  gone.excited_at_end = false;
  gone.excitation_spread = true;
  CHECK(analyse(straight, gone).kind == "retract");
  gone.excitation_spread = false;
  CHECK(analyse(straight, gone).kind == "no_wave");
  CHECK(analyse(cut, gone).kind == "drift");  // the turning one, whatever followed
  // A straight run of the tip, no turning: drift.
  const Path line = sample(20.0, 0.1, [](real t) { return std::pair{10.0 + 0.2 * t, 30.0}; });
  CHECK(analyse(line).kind == "drift");
  CHECK(analyse(line).turns < 1e-9);
}

TEST_CASE("tip path: the last frame decides breakup, retract, no_wave and none; few turns unclassified") {
  const Path none;
  fhn::TipPathContext c = one_tip();
  c.tips_at_end = 5;  // more than the default 4
  CHECK(analyse(none, c).kind == "breakup");
  c.tips_at_end = 0;
  CHECK(analyse(none, c).kind == "retract");  // still excited, no free end
  c.excited_at_end = false;
  CHECK(analyse(none, c).kind == "no_wave");
  // No frame ever had a tip (a planar or target wave, a wave circling an obstacle): none,
  // excited or not.
  c.ever_tips = false;
  CHECK(analyse(none, c).kind == "none");
  c.excited_at_end = true;
  CHECK(analyse(none, c).kind == "none");
  c.ever_tips = true;
  c.excited_at_end = false;
  // A tip in mid-sheet that vanished while the wave is still there: retract.
  const Path short_path = sample(5.0, 0.1, [](real t) { return std::pair{50.0 + 0.01 * t, 50.0}; });
  c.excited_at_end = true;
  CHECK(analyse(short_path, c).kind == "retract");
  // A tip that jitters in place without turning (no rotation, no travel), and a circle of one
  // turn in the window: unclassified (fewer than 2 turns to tell).
  const Path jitter = sample(20.0, 0.1, [](real t) {
    return std::pair{50.0 + 0.01 * std::sin(37.0 * t), 50.0 + 0.01 * std::cos(53.0 * t)};
  });
  CHECK(analyse(jitter).kind == "unclassified");
  const Path one_turn = sample(20.0, 0.1, [](real t) {
    const real phase = fhn::kTwoPi * t / 10.0;
    return std::pair{50.0 + 3.0 * std::cos(phase), 50.0 + 3.0 * std::sin(phase)};
  });
  const fhn::TipPathAnalysis turn = analyse(one_turn);
  CHECK(turn.turns == doctest::Approx(1.0).epsilon(0.05));
  CHECK(turn.kind == "unclassified");
}
