// Activation times taken inside every step (Scheme::record_activation): independent of the frame
// cadence, equal to an every-step detection outside the scheme and to an independent solver at a
// fibre angle, and conduction velocity maps from them that are flat on a planar wave (issue 47's
// check: planar_2d with frames every 10).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "config/loader.hpp"
#include "model/problem.hpp"
#include "run/run_loop.hpp"
#include "schemes/scheme.hpp"
#include "study/activation.hpp"
#include "study/front_tracker.hpp"
#include "support.hpp"

namespace {

using fhn::index_t;
using fhn::real;

constexpr real kNaN = std::numeric_limits<real>::quiet_NaN();

// The last frame's recorded activation times.
struct LastTimes final : fhn::FrameSink {
  void write(const fhn::FrameView& f) override {
    REQUIRE(f.activation_first != nullptr);
    first.assign(f.activation_first, f.activation_first + f.n);
    last = f.activation_last ? std::vector<real>(f.activation_last, f.activation_last + f.n)
                             : std::vector<real>();
  }
  std::vector<real> first, last;
};

// The config's run through fhn run's loop, recording activation at `threshold` (first and last
// crossings), frames every `frame_every` steps: the times at the end.
LastTimes recorded_run(const fhn::Config& c, real threshold, index_t frame_every) {
  const fhn::Problem problem = fhn::make_problem(c);
  auto scheme = fhn::make_scheme(c, problem);
  scheme->record_activation(threshold, true);
  fhn::RunLoopSettings settings;
  settings.time = c.time.grid();
  settings.frame_every = frame_every;
  fhn::Progress quiet(c.time.grid(), false);
  fhn::RunLoopResult result;
  LastTimes times;
  fhn::advance_run(*scheme, settings, {&times}, quiet, result);
  return times;
}

bool same_or_both_nan(real a, real b) { return a == b || (std::isnan(a) && std::isnan(b)); }

// The q-quantile (0 <= q <= 1) of the finite values, by the nearest rank.
real quantile(std::vector<real> values, real q) {
  values.erase(std::remove_if(values.begin(), values.end(), [](real x) { return !std::isfinite(x); }),
               values.end());
  REQUIRE(!values.empty());
  std::sort(values.begin(), values.end());
  const auto at = static_cast<std::size_t>(std::lround(q * static_cast<real>(values.size() - 1)));
  return values[at];
}

}  // namespace

TEST_CASE("activation times recorded at every step do not depend on the frames, and equal an "
          "every-step detection outside the scheme") {
  // A target wave on a 20 x 10 sheet: recorded with frames every step and every 25 steps, the
  // times are the same bits; stepped one step at a time outside the scheme, the upward crossings
  // of v = 0.5 between consecutive snapshots (study's upward_crossing, t_n + (0.5 - v) / (v+ - v)
  // (t_{n+1} - t_n)) agree to rounding (t_{n+1} - t_n differs from dt in the last bits).
  const fhn::Config c = fhn::test::config_from(
      "domain: {length: [20, 10], dx: 0.5}\n"
      "initial: {v: {type: gaussian, center: [5, 5], width2: 4, amplitude: 1}}\n"
      "stimulus: [{x_min: 15, x_max: 17, y_min: 0, y_max: 3, start: 20, duration: 1, "
      "amplitude: 1}]\n"
      "time: {end: 40, dt: 0.04}\noutput: {probes: []}\n");
  const LastTimes every = recorded_run(c, 0.5, 1);
  const LastTimes sparse = recorded_run(c, 0.5, 25);
  REQUIRE(every.first.size() == static_cast<std::size_t>(c.domain.node_count()));
  std::size_t activated = 0;
  for (std::size_t i = 0; i < every.first.size(); ++i) {
    CHECK(same_or_both_nan(every.first[i], sparse.first[i]));
    CHECK(same_or_both_nan(every.last[i], sparse.last[i]));
    activated += std::isnan(every.first[i]) ? 0 : 1;
  }
  CHECK(activated > every.first.size() / 2);

  const fhn::Problem problem = fhn::make_problem(c);
  auto scheme = fhn::make_scheme(c, problem);
  fhn::Snapshot before, after;
  scheme->snapshot(before);
  std::vector<real> first(every.first.size(), kNaN), last(first.size(), kNaN);
  for (index_t s = 0; s < c.time.steps; ++s) {
    scheme->advance(1);
    scheme->snapshot(after);
    for (std::size_t i = 0; i < first.size(); ++i) {
      const real t = fhn::upward_crossing(before.t, before.v[i], after.t, after.v[i], 0.5);
      if (std::isnan(t)) continue;
      if (std::isnan(first[i])) first[i] = t;
      last[i] = t;
    }
    std::swap(before, after);
  }
  for (std::size_t i = 0; i < first.size(); ++i) {
    REQUIRE(std::isnan(first[i]) == std::isnan(every.first[i]));
    if (std::isnan(first[i])) continue;
    CHECK(every.first[i] == doctest::Approx(first[i]).epsilon(1e-13));
    CHECK(every.last[i] == doctest::Approx(last[i]).epsilon(1e-13));
  }
}

TEST_CASE("at a fibre angle of 30 degrees the activation map equals an independent every-step "
          "solver") {
  // The solver below is written from the maths alone: forward Euler of the cubic kinetics and the
  // conservative 9-point stencil of D = R diag(D_l, D_t) R^T as a sum over the node's quadrant
  // cells inside the sheet (each cell gives 1/2 D_xx (u_{x+sx} - u) + 1/2 D_yy (u_{y+sy} - u) +
  // 1/2 sx sy D_xy (u_{diagonal} - u), and the sum is divided by the node's share of the cells,
  // present / 4), the crossing of v = 0.5 linear in time over each step. Its activation times
  // agree with the scheme's to rounding at every node.
  const real a = 0.1, eps = 0.01, gamma = 0.5, dl = 1.0, dt_ = 0.25, dx = 0.5, dt = 0.02;
  const real angle = fhn::kTwoPi / 12.0;
  const fhn::Config c = fhn::test::config_from(
      "model: {a: 0.1, epsilon: 0.01, gamma: 0.5}\n"
      "domain: {length: [30, 15], dx: 0.5}\n"
      "anisotropy: {longitudinal: 1.0, transverse: 0.25, angle: 30}\n"
      "initial: {v: {type: rectangle, x_min: 0, x_max: 3, y_min: 0, y_max: 6, value: 1}}\n"
      "time: {end: 50, dt: 0.02}\noutput: {probes: []}\n");
  const LastTimes recorded = recorded_run(c, 0.5, 100);

  const index_t nx = c.domain.nodes[0], ny = c.domain.nodes[1];
  const real cs = std::cos(angle), sn = std::sin(angle);
  const real dxx = dl * cs * cs + dt_ * sn * sn, dyy = dl * sn * sn + dt_ * cs * cs,
             dxy = (dl - dt_) * cs * sn;
  std::vector<real> v(static_cast<std::size_t>(nx * ny), 0.0), w(v.size(), 0.0), vn(v.size()),
      first(v.size(), kNaN);
  for (index_t j = 0; j < ny; ++j)
    for (index_t i = 0; i < nx; ++i)
      if (static_cast<real>(i) * dx <= 3.0 && static_cast<real>(j) * dx <= 6.0) v[static_cast<std::size_t>(i + nx * j)] = 1.0;
  auto u = [&](index_t i, index_t j) { return v[static_cast<std::size_t>(i + nx * j)]; };
  for (index_t s = 0; s < c.time.steps; ++s) {
    for (index_t j = 0; j < ny; ++j)
      for (index_t i = 0; i < nx; ++i) {
        const real centre = u(i, j);
        real sum = 0.0;
        int present = 0;
        for (int sy = -1; sy <= 1; sy += 2)
          for (int sx = -1; sx <= 1; sx += 2) {
            if (i + sx < 0 || i + sx >= nx || j + sy < 0 || j + sy >= ny) continue;
            ++present;
            sum += 0.5 * dxx * (u(i + sx, j) - centre) + 0.5 * dyy * (u(i, j + sy) - centre) +
                   0.5 * sx * sy * dxy * (u(i + sx, j + sy) - centre);
          }
        const real lap = sum * 4.0 / present / (dx * dx);
        const auto n = static_cast<std::size_t>(i + nx * j);
        vn[n] = centre + dt * (lap + centre * (1.0 - centre) * (centre - a) - w[n]);
        w[n] = w[n] + dt * eps * (centre - gamma * w[n]);
        if (centre < 0.5 && vn[n] >= 0.5 && std::isnan(first[n]))
          first[n] = static_cast<real>(s) * dt + (0.5 - centre) / (vn[n] - centre) * dt;
      }
    std::swap(v, vn);
  }
  index_t activated = 0;
  real worst = 0.0;
  for (std::size_t n = 0; n < first.size(); ++n) {
    REQUIRE(std::isnan(first[n]) == std::isnan(recorded.first[n]));
    if (std::isnan(first[n])) continue;
    ++activated;
    worst = std::max(worst, std::abs(first[n] - recorded.first[n]));
  }
  MESSAGE(activated, " of ", first.size(), " nodes activated; largest difference ", worst);
  CHECK(activated > static_cast<index_t>(first.size()) / 2);
  CHECK(worst < 1e-12);
}

TEST_CASE("planar_2d with frames every 10: the conduction velocity map is flat at the planar "
          "pulse's speed") {
  // configs/planar_2d.yaml on a narrower sheet (200 x 10; the front is straight), frames every 10
  // time units: the speed is 1 / |grad t_act| from the times recorded at every step. Where the
  // front has formed (x >= 15, thirty nodes from the excited strip x <= 5, in which it speeds up
  // from 0.42 to 0.61) the 1% and 99% quantiles lie within 2% of the median, and the median
  // within 1% of the speed of the same medium's cable pulse (the front tracker's fit). Read off
  // the frames, the map had median 0.76 and a 1-99% spread of 400%.
  const fhn::Config sheet =
      fhn::load_config(fhn::test::source_path("configs/planar_2d.yaml"),
                       {"domain.length=[200, 10]", "output.every=10",
                        "output.probes=[]"});
  const LastTimes times = recorded_run(sheet, 0.5, sheet.output.every_steps);
  fhn::ActivationMap map(sheet.domain, 0.5, false);
  map.take(times.first.data(), nullptr);
  const std::vector<real> cv = map.conduction_velocity();
  std::vector<real> formed;
  for (index_t n = 0; n < sheet.domain.node_count(); ++n)
    if (sheet.domain.position(n)[0] >= 15.0) formed.push_back(cv[static_cast<std::size_t>(n)]);
  const real median = quantile(formed, 0.5), low = quantile(formed, 0.01),
             high = quantile(formed, 0.99);

  const fhn::Config cable = fhn::test::config_from(
      "model: {a: 0.01, epsilon: 0.01, gamma: 2.0, diffusion: 1.0}\n"
      "domain: {length: 200, dx: 0.5}\n"
      "initial: {v: {type: rectangle, x_min: 0, x_max: 5, value: 1}, w: {type: constant, "
      "value: 0}}\n"
      "time: {end: 300, dt: 0.05}\noutput: {every: 0.05}\n");
  fhn::FrontTracker tracker(200.0, 0.5);
  fhn::test::run_with_sinks(cable, {&tracker});
  REQUIRE(tracker.speed().has_value());
  const real speed = tracker.speed()->speed;
  MESSAGE("CV median ", median, ", 1% ", low, ", 99% ", high, "; cable pulse ", speed);
  CHECK(low >= 0.98 * median);
  CHECK(high <= 1.02 * median);
  CHECK(median == doctest::Approx(speed).epsilon(0.01));
}

TEST_CASE("recorded activation times continue exactly across a checkpoint, and the adaptive "
          "grid's scheme refuses to record") {
  const fhn::Config c = fhn::test::config_from(
      "domain: {length: [12, 6], dx: 0.5}\n"
      "initial: {v: {type: rectangle, x_min: 0, x_max: 2, value: 1}}\n"
      "time: {end: 30, dt: 0.04}\noutput: {probes: []}\n");
  const fhn::Problem problem = fhn::make_problem(c);
  auto straight = fhn::make_scheme(c, problem);
  straight->record_activation(0.5, true);
  straight->advance(c.time.steps);
  fhn::Snapshot end;
  straight->snapshot(end);

  auto first = fhn::make_scheme(c, problem);
  first->record_activation(0.5, true);
  first->advance(c.time.steps / 3);
  const fhn::SchemeState state = first->save_state();
  REQUIRE(state.has("activation.first"));
  REQUIRE(state.has("activation.last"));
  auto second = fhn::make_scheme(c, problem);
  second->record_activation(0.5, true);
  second->restore_state(state);
  second->advance(c.time.steps - c.time.steps / 3);
  fhn::Snapshot resumed;
  second->snapshot(resumed);
  REQUIRE(resumed.activation_first.size() == end.activation_first.size());
  for (std::size_t i = 0; i < end.activation_first.size(); ++i) {
    CHECK(same_or_both_nan(resumed.activation_first[i], end.activation_first[i]));
    CHECK(same_or_both_nan(resumed.activation_last[i], end.activation_last[i]));
  }

  // A checkpoint of a run that recorded nothing: the times start afresh (NaN), and an infinite
  // time is refused.
  auto fresh = fhn::make_scheme(c, problem);
  fresh->record_activation(0.5, false);
  fhn::SchemeState plain = state;
  plain.arrays.erase(std::remove_if(plain.arrays.begin(), plain.arrays.end(),
                                    [](const auto& e) { return e.first.rfind("activation.", 0) == 0; }),
                     plain.arrays.end());
  fresh->restore_state(plain);
  fhn::Snapshot restored;
  fresh->snapshot(restored);
  CHECK(std::all_of(restored.activation_first.begin(), restored.activation_first.end(),
                    [](real t) { return std::isnan(t); }));
  fhn::SchemeState bad = state;
  for (auto& [name, values] : bad.arrays)
    if (name == "activation.first") values[3] = std::numeric_limits<real>::infinity();
  CHECK(fhn::test::thrown_message<fhn::IoError>([&] { fresh->restore_state(bad); }) ==
        "checkpoint: array 'activation.first' holds inf at entry 3 (not a finite number)");

  const fhn::Config adaptive = fhn::test::config_from(
      "domain: {length: 20, dx: 0.5}\nscheme: {type: adaptive_explicit}\n"
      "time: {end: 1, dt: 0.01}\n");
  auto moving = fhn::make_scheme(adaptive, fhn::make_problem(adaptive));
  CHECK(fhn::test::thrown_message<fhn::ConfigError>([&] { moving->record_activation(0.5, false); })
            .find("output.activation: ") == 0);
}
