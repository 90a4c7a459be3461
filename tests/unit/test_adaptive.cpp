// The adaptive-grid explicit scheme: the non-uniform second derivative, the node selection (the
// error bound and the spacing limits), the grid invariants during a run, the error it adds to
// the uniform base grid's on three cases (the adaptive studies), and what the scheme buys on the
// reference blog's two cases (fewer nodes for the same pulses; no odd-even oscillation on a
// settled plateau).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "config/loader.hpp"
#include "grid/adaptive_grid.hpp"
#include "io/vtk_writers.hpp"
#include "model/problem.hpp"
#include "run/run.hpp"
#include "schemes/adaptive_explicit_cpu.hpp"
#include "study/convergence.hpp"
#include "study/study.hpp"
#include "support.hpp"

namespace {

using fhn::index_t;

// Largest |u_xx(x_i) - exact(x_i)| over the interior nodes.
template <class U, class Uxx>
double interior_error(const std::vector<double>& x, U u, Uxx exact) {
  std::vector<double> values, u_xx(x.size());
  for (const double xi : x) values.push_back(u(xi));
  fhn::NonUniformLaplacian(x).apply(values.data(), u_xx.data());
  double worst = 0.0;
  for (std::size_t i = 1; i + 1 < x.size(); ++i)
    worst = std::max(worst, std::abs(u_xx[i] - exact(x[i])));
  return worst;
}

// Nodes 0 = x_0 < x_1 < ... <= length with spacings h, ratio h, h, ratio h, ...
std::vector<double> alternating_nodes(double h, double ratio, double length) {
  std::vector<double> x{0.0};
  for (int k = 0; x.back() + h * ratio <= length; ++k)
    x.push_back(x.back() + (k % 2 ? ratio * h : h));
  return x;
}

// ---- Node selection on a synthetic solution --------------------------------------------------
constexpr index_t kBase = 403;  // base nodes 0..402, dx = 0.5 (402 is not a multiple of 8)
constexpr double kDx = 0.5;

// The spacing limits, pinned here since the expected node sets depend on them; the tolerance is
// so loose that the error criterion asks for nothing.
fhn::AdaptiveSpec test_spec() {
  fhn::AdaptiveSpec s;
  s.tolerance = 1e9;
  s.coarse_stride = 8;
  s.gradient_stride = 4;
  s.rate_stride = 2;
  s.gradient_threshold = 0.01;
  s.rate_threshold = 0.001;
  s.inflection_radius = 5.0;
  s.regrid_every = 10;
  return s;
}

// v and w (and v_t, zero unless set) on the given base nodes, with v_xx and w_xx from
// NonUniformLaplacian; w = 0 unless a profile is given.
struct Sample {
  std::vector<index_t> nodes;
  std::vector<double> x, v, w, v_xx, w_xx, v_t;

  template <class V, class W = double (*)(double)>
  Sample(std::vector<index_t> on, V v_profile, W w_profile = [](double) { return 0.0; })
      : nodes(std::move(on)) {
    for (const index_t j : nodes) {
      x.push_back(kDx * static_cast<double>(j));
      v.push_back(v_profile(x.back()));
      w.push_back(w_profile(x.back()));
    }
    v_xx.resize(x.size());
    w_xx.resize(x.size());
    const fhn::NonUniformLaplacian laplacian(x);
    laplacian.apply(v.data(), v_xx.data());
    laplacian.apply(w.data(), w_xx.data());
    v_t.assign(x.size(), 0.0);
  }
  fhn::GridSample view() const {
    return {static_cast<index_t>(nodes.size()), nodes.data(), x.data(), v.data(), w.data(),
            v_xx.data(), w_xx.data(), v_t.data()};
  }
};

std::vector<index_t> every(index_t stride, index_t from = 0, index_t to = kBase - 1) {
  std::vector<index_t> out;
  for (index_t j = (from + stride - 1) / stride * stride; j <= to; j += stride) out.push_back(j);
  return out;
}

std::set<index_t> coarse_set() {
  const std::vector<index_t> c = every(8);
  std::set<index_t> s(c.begin(), c.end());
  s.insert(kBase - 1);
  return s;
}

std::set<index_t> as_set(const std::vector<index_t>& v) { return {v.begin(), v.end()}; }

// ---- Runs ------------------------------------------------------------------------------------
fhn::Config config_file(const std::string& file, const std::vector<std::string>& overrides = {}) {
  return fhn::load_config(fhn::test::source_path(file), overrides);
}

// Advances `scheme` to step `step` and returns its state.
fhn::Snapshot state_at(fhn::Scheme& scheme, index_t step) {
  scheme.advance(step - scheme.steps_done());
  fhn::Snapshot s;
  scheme.snapshot(s);
  return s;
}

// The positions where v crosses 1/2 between neighbouring nodes (linear interpolation).
std::vector<double> half_crossings(const fhn::Snapshot& s) {
  const std::vector<double> x = s.coordinates(0);
  std::vector<double> out;
  for (std::size_t i = 0; i + 1 < s.v.size(); ++i)
    if ((s.v[i] - 0.5) * (s.v[i + 1] - 0.5) < 0.0)
      out.push_back(x[i] + (0.5 - s.v[i]) / (s.v[i + 1] - s.v[i]) * (x[i + 1] - x[i]));
  return out;
}

// Odd-even oscillation on the plateau behind two outward fronts: the largest
// |v_{i+1} - 2 v_i + v_{i-1}| over neighbouring nodes i-1, i, i+1 of the scheme's own grid that
// all lie in the settled region [x_l + 20, x_r - 20], where x_l and x_r are the leftmost and the
// rightmost crossing of v = 1/2 (the two fronts). 20 space units is about three front widths,
// so the region excludes the fronts and the relaxation just behind them.
double plateau_oscillation(const fhn::Snapshot& s) {
  const std::vector<double> fronts = half_crossings(s);
  REQUIRE(fronts.size() >= 2);
  const double lo = fronts.front() + 20.0, hi = fronts.back() - 20.0;
  REQUIRE(lo < hi);
  const std::vector<double> x = s.coordinates(0);
  double worst = 0.0;
  for (std::size_t i = 1; i + 1 < s.v.size(); ++i)
    if (x[i - 1] >= lo && x[i + 1] <= hi)
      worst = std::max(worst, std::abs(s.v[i + 1] - 2.0 * s.v[i] + s.v[i - 1]));
  return worst;
}

// The checks that hold for every grid the scheme builds (see select_nodes).
void check_grid_invariants(const fhn::AdaptiveExplicitCpu& scheme, const fhn::Problem& p,
                           const fhn::AdaptiveSpec& spec) {
  const std::vector<index_t>& nodes = scheme.nodes();
  const std::vector<double> x = p.domain.coordinates(0);
  const index_t base_nodes = p.domain.node_count();
  fhn::Snapshot s;
  scheme.snapshot(s);
  REQUIRE(s.nodes == nodes);  // the snapshot names its nodes on the base grid
  REQUIRE(s.v.size() == nodes.size());
  REQUIRE(nodes.front() == 0);
  REQUIRE(nodes.back() == base_nodes - 1);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    REQUIRE(s.x()[static_cast<index_t>(i)] == x[nodes[i]]);  // on the base grid, exactly
    if (i > 0) REQUIRE(nodes[i] > nodes[i - 1]);  // sorted, strictly increasing
  }
  const std::set<index_t> present = as_set(nodes);
  for (index_t j = 0; j < base_nodes; j += spec.coarse_stride) REQUIRE(present.count(j) == 1);
  // Every front and back (a crossing of v = 1/2) has base resolution within 2 space units (the
  // steep middle of a front, where |v_xx| ~ 0.05 asks for spacing sqrt(8 tolerance / 0.05) < dx).
  const double reach = 2.0;
  for (const double front : half_crossings(s)) {
    CAPTURE(s.t);
    CAPTURE(front);
    for (index_t j = 0; j < base_nodes; ++j)
      if (std::abs(x[j] - front) <= reach) REQUIRE(present.count(j) == 1);
  }
}

}  // namespace

TEST_CASE("adaptive: the non-uniform second derivative is exact for quadratics, ends included") {
  const std::vector<double> x{0.0, 0.5, 1.5, 1.75, 3.0, 3.5, 5.5};
  CHECK(interior_error(x, [](double t) { return 3.0 * t * t - 2.0 * t + 1.0; },
                       [](double) { return 6.0; }) < 1e-12);
  // The mirrored ghost node: exact for a parabola with u_x = 0 at the end.
  const fhn::NonUniformLaplacian lap(x);
  std::vector<double> left, right;
  for (const double t : x) {
    left.push_back(2.0 * t * t);                    // u_x(0) = 0, u_xx = 4
    right.push_back(-(t - 5.5) * (t - 5.5) + 7.0);  // u_x(5.5) = 0, u_xx = -2
  }
  CHECK(lap.at(left.data(), 0) == doctest::Approx(4.0).epsilon(1e-14));
  CHECK(lap.at(right.data(), lap.size() - 1) == doctest::Approx(-2.0).epsilon(1e-14));
}

TEST_CASE("adaptive: the non-uniform second derivative is first order on uneven spacing") {
  // u = sin: the error at x_i is (h_r - h_l) u'''/3 + O(h^2), so alternating spacings h, 2h give
  // first order, equal spacings second order.
  auto u = [](double t) { return std::sin(t); };
  auto u_xx = [](double t) { return -std::sin(t); };
  std::vector<double> uneven, even;
  for (const double h : {0.1, 0.05, 0.025, 0.0125}) {
    uneven.push_back(interior_error(alternating_nodes(h, 2.0, 3.0), u, u_xx));
    even.push_back(interior_error(alternating_nodes(h, 1.0, 3.0), u, u_xx));
  }
  for (std::size_t k = 0; k + 1 < uneven.size(); ++k) {
    const double order_uneven = fhn::observed_order(uneven[k], uneven[k + 1]);
    const double order_even = fhn::observed_order(even[k], even[k + 1]);
    CAPTURE(k);
    CHECK(order_uneven == doctest::Approx(1.0).epsilon(0.05));
    CHECK(order_even == doctest::Approx(2.0).epsilon(0.05));
  }
}

TEST_CASE("adaptive: interpolation keeps shared nodes exactly and is linear in between") {
  const std::vector<double> old_x{0.0, 1.0, 4.0, 6.0};
  const std::vector<double> values{0.1, 0.7, -0.3, 2.0 / 3.0};
  const std::vector<double> new_x{0.0, 0.5, 1.0, 2.0, 3.0, 4.0, 6.0};
  const std::vector<double> got = fhn::interpolate_onto(old_x.data(), values.data(), 4, new_x);
  CHECK(got[0] == 0.1);
  CHECK(got[2] == 0.7);
  CHECK(got[5] == -0.3);
  CHECK(got[6] == 2.0 / 3.0);
  CHECK(got[1] == doctest::Approx(0.4));
  CHECK(got[3] == doctest::Approx(0.7 - 1.0 / 3.0));
  CHECK(got[4] == doctest::Approx(0.7 - 2.0 / 3.0));
}

TEST_CASE("adaptive: front inflections are the steep zeros of v_xx only") {
  // A rise at 30.3 and a fall at 70.1 (tanh fronts, |v_x| up to 1/4), a shallow wiggle at 150
  // (|v_x| <= 0.002) and the plateau between the fronts (|v_x| has minima there, not maxima).
  auto profile = [](double x) {
    return 0.5 * (std::tanh((x - 30.3) / 2.0) - std::tanh((x - 70.1) / 2.0)) +
           0.002 * std::sin(x - 150.0) * std::exp(-(x - 150.0) * (x - 150.0) / 4.0);
  };
  const Sample s(every(1), profile);
  const std::vector<double> points = fhn::front_inflections(s.view(), 0.01);
  REQUIRE(points.size() == 2);
  CHECK(points[0] == doctest::Approx(30.3).epsilon(1e-3));
  CHECK(points[1] == doctest::Approx(70.1).epsilon(1e-3));
}

TEST_CASE("adaptive: node selection, criterion by criterion") {
  const fhn::AdaptiveSpec spec = test_spec();
  const std::set<index_t> coarse = coarse_set();

  SUBCASE("coarse subset and both ends when nothing happens") {
    const Sample s(every(8), [](double) { return 0.3; });
    CHECK(as_set(fhn::select_nodes(spec, kBase, kDx, 0.0, s.view(), {})) == coarse);
  }
  SUBCASE("gradient: every 4th node where the secant slope exceeds the threshold") {
    // v = 1e-4 x^2: secant slope 1e-4 (x_j + x_{j+1}) > 0.01 from j = 100 on; v_xx > 0, so no
    // inflection.
    const Sample s(every(1), [](double x) { return 1e-4 * x * x; });
    std::set<index_t> expected = coarse;
    for (const index_t j : every(4, 100)) expected.insert(j);
    CHECK(as_set(fhn::select_nodes(spec, kBase, kDx, 0.0, s.view(), {})) == expected);
  }
  SUBCASE("rate: every 2nd node over the two intervals next to a changing node") {
    Sample s(every(8), [](double) { return 0.0; });
    s.v_t[25] = -0.002;  // base node 200
    std::set<index_t> expected = coarse;
    for (const index_t j : every(2, 192, 208)) expected.insert(j);
    CHECK(as_set(fhn::select_nodes(spec, kBase, kDx, 0.0, s.view(), {})) == expected);
  }
  SUBCASE("inflection: every base node within the radius of a front") {
    const Sample s(every(1), [](double x) { return 0.5 * (1.0 - std::tanh((x - 100.3) / 1.0)); });
    const std::vector<double> fronts = fhn::front_inflections(s.view(), spec.gradient_threshold);
    REQUIRE(fronts.size() == 1);
    const std::set<index_t> got = as_set(fhn::select_nodes(spec, kBase, kDx, 0.0, s.view(), {}));
    for (index_t j = 0; j < kBase; ++j) {
      const double distance = std::abs(kDx * static_cast<double>(j) - fronts[0]);
      CAPTURE(j);
      if (distance <= spec.inflection_radius) CHECK(got.count(j) == 1);
      // Anything else is a coarse node, or one of the aligned steps (powers of two) that lead
      // from the coarse nodes into the refined range, within one coarse cell (8 dx) of it.
      if (distance > spec.inflection_radius && got.count(j))
        CHECK((coarse.count(j) == 1 || distance < spec.inflection_radius + 8 * kDx));
    }
  }
  SUBCASE("non-finite: a blown-up node stays") {
    Sample s(every(1), [](double) { return 0.0; });
    s.v[13] = std::nan("");
    std::set<index_t> expected = coarse;
    for (const index_t j : {12, 13, 14}) expected.insert(j);  // 12 -> 13 -> 14: aligned steps
    CHECK(as_set(fhn::select_nodes(spec, kBase, kDx, 0.0, s.view(), {})) == expected);
  }
  SUBCASE("keep: whole ranges") {
    const Sample s(every(8), [](double) { return 0.0; });
    std::set<index_t> expected = coarse;
    for (index_t j = 50; j <= 54; ++j) expected.insert(j);  // 53 -> 54 -> 56: aligned steps
    CHECK(as_set(fhn::select_nodes(spec, kBase, kDx, 0.0, s.view(), {{50, 53}})) == expected);
  }
}

TEST_CASE("adaptive: every node the selection drops is within tolerance of the new grid") {
  // The bound of select_nodes: |u_i - linear interpolant of the new grid at x_i| <= tolerance
  // for v and w at every dropped node i, on the full base grid and on a grid it selected before.
  fhn::AdaptiveSpec spec;
  spec.tolerance = 1e-3;
  auto v = [](double x) {  // a pulse: a rise at 80, a fall at 120, a shallow recovery after it
    return 0.5 * (std::tanh((x - 80.0) / 1.5) - std::tanh((x - 120.0) / 3.0)) -
           0.2 * std::exp(-(x - 150.0) * (x - 150.0) / 400.0);
  };
  auto w = [](double x) { return 0.15 / (1.0 + std::exp(-(x - 110.0) / 10.0)); };
  auto check_dropped = [&](const Sample& s, bool first) {
    const std::vector<index_t> nodes = fhn::select_nodes(spec, kBase, kDx, 1.0, s.view(), {});
    std::vector<double> x;
    for (const index_t j : nodes) x.push_back(kDx * static_cast<double>(j));
    const std::set<index_t> kept = as_set(nodes);
    double worst = 0.0;
    for (std::size_t i = 0; i < s.nodes.size(); ++i) {
      if (kept.count(s.nodes[i])) continue;
      for (const auto* u : {&s.v, &s.w}) {
        std::vector<double> on_new;
        for (const index_t j : nodes)
          on_new.push_back((*u)[static_cast<std::size_t>(
              std::lower_bound(s.nodes.begin(), s.nodes.end(), j) - s.nodes.begin())]);
        const double error =
            std::abs((*u)[i] - fhn::interpolate_onto(x.data(), on_new.data(),
                                                     static_cast<index_t>(x.size()), {s.x[i]})[0]);
        worst = std::max(worst, error);
      }
    }
    MESSAGE(s.nodes.size() << " nodes -> " << nodes.size() << ", largest error of a dropped node "
                           << worst);
    CHECK(worst <= spec.tolerance);
    if (first) CHECK(worst >= 0.1 * spec.tolerance);  // not needlessly fine either
    return nodes;
  };
  const Sample full(every(1), v, w);
  const std::vector<index_t> first = check_dropped(full, true);
  CHECK(first.size() < kBase / 2);
  check_dropped(Sample(first, v, w), false);
}

TEST_CASE("adaptive: grid invariants hold after every regrid") {
  for (const char* file : {"configs/pulse_split_adaptive.yaml", "configs/front_oscillation.yaml"}) {
    CAPTURE(file);
    const fhn::Config c = config_file(file);
    const fhn::Problem p = fhn::make_problem(c);
    const fhn::AdaptiveSpec& spec = c.scheme.adaptive;
    fhn::AdaptiveExplicitCpu scheme(p, spec);
    check_grid_invariants(scheme, p, spec);  // the first grid, from the initial state
    while (scheme.steps_done() < c.time.steps) {
      scheme.advance(spec.regrid_every);
      check_grid_invariants(scheme, p, spec);
    }
    const fhn::GridStats* stats = scheme.grid_stats();
    REQUIRE(stats != nullptr);
    const auto regrids = static_cast<std::size_t>(c.time.steps / spec.regrid_every + 1);
    CHECK(stats->regrids().size() == regrids);
  }
}

TEST_CASE("adaptive: at the default tolerance, at most 1.2x the uniform run's error") {
  // The adaptive studies (configs/studies/adaptive_*.yaml, docs/history/verification-2026-11.md):
  // the error of v against a reference with dx/4 and dt/16 (RMSE on the base grid, the adaptive v
  // interpolated onto it), adaptive over uniform on the same base grid, at every compared time;
  // with the configs' dt, and with the reference's dt, where the error is the spatial one alone
  // (about 5x smaller) and what the grid adds would show more. The studies whose base config
  // pins tolerance 1e-3 list the default under `tolerances`.
  struct Case {
    const char* study;
    double most_nodes;  // largest time-averaged node ratio
  };
  // Measured mean node ratios: 0.590, 0.192, 0.352, 0.647 (0.467 on the pulse pair before the
  // base-grid bound of select_nodes, issue 45: once the pulses have died at the ends the
  // recovering axon is kept to tolerance / 10).
  for (const Case& c : {Case{"configs/studies/adaptive_pulse_split.yaml", 0.62},
                        Case{"configs/studies/adaptive_front.yaml", 0.25},
                        Case{"configs/studies/adaptive_front_recovering.yaml", 0.4},
                        Case{"configs/studies/adaptive_wave_train.yaml", 0.7}}) {
    const std::string file = c.study;
    CAPTURE(file);
    const fhn::StudyConfig study = fhn::load_study(fhn::test::source_path(file));
    const std::vector<fhn::AdaptiveAccuracy> results = fhn::adaptive_accuracy(study);
    REQUIRE(results.size() == 1);
    const fhn::AdaptiveAccuracy& a = results.front();
    CHECK(a.tolerance == fhn::AdaptiveSpec{}.tolerance);
    MESSAGE(file << ": mean node ratio " << a.mean_ratio());
    CHECK(a.mean_ratio() <= c.most_nodes);
    REQUIRE(a.rows.size() == study.times.size());
    for (const fhn::AdaptiveAccuracyRow& r : a.rows) {
      MESSAGE("  t = " << r.time << ": " << r.adaptive_nodes << " nodes, error uniform "
                       << r.uniform_error << ", adaptive " << r.adaptive_error << ", ratio "
                       << r.ratio() << "; space alone: uniform " << r.uniform_space_error
                       << ", adaptive " << r.adaptive_space_error << ", ratio "
                       << r.space_ratio());
      CHECK(r.ratio() <= 1.2);
      CHECK(r.space_ratio() <= 1.2);
    }
  }
}

TEST_CASE("adaptive: at the default tolerance, at most 1.2x the uniform run's error, new cases") {
  // Issue 24: the four studies away from the tuned cases (docs/history/verification-2026-11.md,
  // configs/studies/adaptive_*_a0.*.yaml) that broke the ratio at 1e-3, each run at the default
  // tolerance instead of its list: Nagumo fronts at a = 0.3, D = 1 on dx = 0.125 and at a = 0.3,
  // D = 2, a pulse at a = 0.05, D = 2 and a decaying bump, whose base grids err 8e-5, 4e-4, 2e-3
  // and 2e-4. The default is the largest of 1e-3, 3e-4 and 1e-4 that holds the ratio <= 1.2 on
  // every adaptive study. Largest ratio over the compared times at 3e-4: 1.029, 1.026, 1.041,
  // 1.009 (1.179, 1.050, 1.071, 1.042 before the base-grid bound of select_nodes, issue 45); at
  // 1e-3 before it: 4.161, 1.386, 1.607, 1.215.
  for (const char* name : {"adaptive_front_a0.3_d1_dx0.125", "adaptive_front_a0.3_d2",
                           "adaptive_pulse_a0.05_d2", "adaptive_bump_a0.2_d1"}) {
    const std::string file = std::string("configs/studies/") + name + ".yaml";
    CAPTURE(file);
    fhn::StudyConfig study = fhn::load_study(fhn::test::source_path(file));
    study.tolerances = {fhn::AdaptiveSpec{}.tolerance};
    const std::vector<fhn::AdaptiveAccuracy> results = fhn::adaptive_accuracy(study);
    REQUIRE(results.size() == 1);
    REQUIRE(results.front().rows.size() == study.times.size());
    for (const fhn::AdaptiveAccuracyRow& r : results.front().rows) {
      MESSAGE("  t = " << r.time << ": " << r.adaptive_nodes << " nodes, ratio " << r.ratio()
                       << " (space " << r.space_ratio() << ")");
      CHECK(r.ratio() <= 1.2);
    }
  }
}

TEST_CASE("adaptive: away from the tuned cases, what the grid adds falls with the tolerance") {
  // Issue 24: a Nagumo front at a = 0.3 on 801 base nodes (dx = 0.25), where tolerance 1e-3
  // (the default then) gave 113 nodes, and pulses at a = 0.1, D = 1
  // (configs/studies/adaptive_*_a0.*.yaml, docs/history/verification-2026-11.md). At tolerances
  // 1e-3, 3e-4, 1e-4, at every compared time, with the config's dt and with the reference's: the
  // distance between the adaptive and the uniform run (what the grid changes, whatever its sign)
  // falls from each tolerance to the next, strictly from 1e-3 to 1e-4, and at 1e-4 it is at most 3%
  // of the uniform run's error (measured: 0.4% / 0.6% on the front, 0.8% / 1.8% on the pulses) and
  // the error ratio at most 1.02 (measured 1.002 / 1.003 and 1.003 / 1.006). "Falls" allows 1%:
  // select_nodes bounds the interpolation by the base grid's own, dx^2 C_max / 8 (issue 45),
  // about 3.9e-4 on the pulses, so there 1e-3 and 3e-4 build nearly the same grid (distance
  // 2.98e-5 and 3.00e-5 at t = 40).
  for (const std::string file : {"configs/studies/adaptive_front_a0.3_d1.yaml",
                                 "configs/studies/adaptive_pulse_a0.1_d1.yaml"}) {
    CAPTURE(file);  // a std::string: doctest prints a const char* as its address
    const fhn::StudyConfig study = fhn::load_study(fhn::test::source_path(file));
    REQUIRE(study.tolerances == std::vector<double>{1e-3, 3e-4, 1e-4});
    const std::vector<fhn::AdaptiveAccuracy> results = fhn::adaptive_accuracy(study);
    REQUIRE(results.size() == 3);
    for (std::size_t k = 0; k < results.size(); ++k) {
      const fhn::AdaptiveAccuracy& a = results[k];
      CHECK(a.tolerance == study.tolerances[k]);
      CHECK(a.base_nodes == 801);
      REQUIRE(a.rows.size() == study.times.size());
      for (std::size_t t = 0; t < a.rows.size(); ++t) {
        const fhn::AdaptiveAccuracyRow& r = a.rows[t];
        MESSAGE("  tolerance " << a.tolerance << ", t = " << r.time << ": " << r.adaptive_nodes
                               << " nodes, ratio " << r.ratio() << " (space " << r.space_ratio()
                               << "), distance to uniform / uniform error " << r.grid_ratio()
                               << " (space " << r.grid_space_ratio() << ")");
        if (k > 0) {
          const fhn::AdaptiveAccuracyRow& looser = results[k - 1].rows[t];
          CHECK(r.grid_distance < 1.01 * looser.grid_distance);
          CHECK(r.grid_space_distance < 1.01 * looser.grid_space_distance);
          CHECK(r.adaptive_nodes >= looser.adaptive_nodes);
        }
      }
    }
    for (std::size_t t = 0; t < results.back().rows.size(); ++t) {
      const fhn::AdaptiveAccuracyRow& r = results.back().rows[t];
      CHECK(r.grid_distance < results.front().rows[t].grid_distance);
      CHECK(r.grid_space_distance < results.front().rows[t].grid_space_distance);
      CHECK(r.grid_ratio() <= 0.03);
      CHECK(r.grid_space_ratio() <= 0.03);
      CHECK(r.ratio() <= 1.02);
      CHECK(r.space_ratio() <= 1.02);
    }
  }
}

TEST_CASE("adaptive: front_oscillation, at least 10x less odd-even oscillation than uniform") {
  const fhn::Config adaptive = config_file("configs/front_oscillation.yaml");
  const fhn::Config uniform =
      config_file("configs/front_oscillation.yaml", {"scheme.type=explicit"});
  const std::unique_ptr<fhn::Scheme> a = fhn::make_scheme(adaptive, fhn::make_problem(adaptive));
  const std::unique_ptr<fhn::Scheme> u = fhn::make_scheme(uniform, fhn::make_problem(uniform));
  double worst_adaptive = 0.0, worst_uniform = 0.0;
  for (const double t : {60.0, 90.0, 120.0}) {  // the reference blog's Fig. 7
    const auto step = static_cast<index_t>(std::lround(t / adaptive.time.dt));
    const double oa = plateau_oscillation(state_at(*a, step));
    const double ou = plateau_oscillation(state_at(*u, step));
    MESSAGE("front_oscillation at t = " << t << ": odd-even measure adaptive " << oa << ", uniform "
                                        << ou);
    worst_adaptive = std::max(worst_adaptive, oa);
    worst_uniform = std::max(worst_uniform, ou);
  }
  CHECK(worst_uniform > 0.1);  // the oscillation is there on the uniform grid
  CHECK(10.0 * worst_adaptive <= worst_uniform);
}

TEST_CASE("adaptive: boundary rows and stimuli act on the same nodes as on the uniform grid") {
  SUBCASE("first-order no-flux end: its base neighbour stays in the grid, v_0 = v_1") {
    const fhn::Config c = config_file("configs/pulse_split_adaptive.yaml",
                                      {"boundary.no_flux_order=1", "time.end=20"});
    const fhn::Problem p = fhn::make_problem(c);
    fhn::AdaptiveExplicitCpu scheme(p, c.scheme.adaptive);
    for (index_t k = 0; k < 20; ++k) {
      const fhn::Snapshot s = state_at(scheme, scheme.steps_done() + 7);
      const std::vector<index_t>& nodes = scheme.nodes();
      const std::size_t n = nodes.size();
      REQUIRE(nodes[1] == 1);
      REQUIRE(nodes[n - 2] == p.domain.node_count() - 2);
      CHECK(s.v[0] == s.v[1]);
      CHECK(s.v[n - 1] == s.v[n - 2]);
    }
  }
  SUBCASE("Dirichlet end: held, with base resolution within the inflection radius of it") {
    const fhn::Config c = config_file(
        "configs/wave_train.yaml",
        {"scheme.type=adaptive_explicit", "scheme.adaptive.inflection_radius=8", "time.end=20"});
    const fhn::Problem p = fhn::make_problem(c);
    fhn::AdaptiveExplicitCpu scheme(p, c.scheme.adaptive);
    const fhn::Snapshot s = state_at(scheme, c.time.steps);
    CHECK(s.v.back() == 1.0);
    const std::set<index_t> present = as_set(scheme.nodes());
    const std::vector<double> x = p.domain.coordinates(0);
    const double radius = c.scheme.adaptive.inflection_radius;
    for (index_t j = p.domain.node_count() - 1; x.back() - x[j] <= radius; --j)
      CHECK(present.count(j) == 1);
  }
  SUBCASE("a stimulus on a resting axon: every stimulated node is there while it is on") {
    const std::vector<std::string> overrides{
        "initial.v={type: constant, value: 0}", "time.end=30",
        "stimulus=[{x_min: 20, x_max: 24, start: 5, duration: 1, amplitude: 1}]"};
    const fhn::Config c = config_file("configs/pulse_split_adaptive.yaml", overrides);
    std::vector<std::string> uniform_overrides = overrides;
    uniform_overrides.push_back("scheme.type=explicit");
    const fhn::Config cu = config_file("configs/pulse_split_adaptive.yaml", uniform_overrides);
    const fhn::Problem p = fhn::make_problem(c);
    fhn::AdaptiveExplicitCpu a(p, c.scheme.adaptive);
    const std::unique_ptr<fhn::Scheme> u = fhn::make_scheme(cu, fhn::make_problem(cu));
    for (index_t step = 50; step < 60; ++step) {  // t in [5, 6): the stimulus is on
      state_at(a, step);
      const std::set<index_t> present = as_set(a.nodes());
      for (index_t j = 40; j <= 48; ++j) REQUIRE(present.count(j) == 1);
    }
    for (const index_t step : {index_t{60}, index_t{300}}) {
      const fhn::Snapshot sa = state_at(a, step);
      const fhn::Snapshot su = state_at(*u, step);
      double worst = 0.0;
      for (std::size_t i = 0; i < sa.v.size(); ++i)
        worst = std::max(worst, std::abs(sa.v[i] - su.v[a.nodes()[i]]));
      CAPTURE(step);
      CHECK(worst < 0.02);
    }
    CHECK(half_crossings(state_at(a, 300)).size() == 2);  // the pulse it launched
  }
}

TEST_CASE("adaptive: a run writes grid.csv, grid statistics, moving frames, a uniform kymograph") {
  fhn::test::TempDir dir;
  fhn::RunOptions options;
  options.output_dir = dir / "out";
  options.quiet = true;
  std::vector<std::string> overrides{"time.end=20", "output.every=10"};
  if (!fhn::vtk_compiled())
    overrides.insert(overrides.end(), {"output.vtk=false", "output.spacetime=false"});
  const fhn::Config c = config_file("configs/pulse_split_adaptive.yaml", overrides);
  fhn::run_simulation(c, options);

  const std::string grid = fhn::test::read_text(options.output_dir / "grid.csv");
  CHECK(grid.rfind("step,t,nodes\n0,0,", 0) == 0);
  CHECK(std::count(grid.begin(), grid.end(), '\n') == 1 + 200 / 10 + 1);  // header, t = 0..20
  const std::string json = fhn::test::read_text(options.output_dir / "summary.json");
  for (const char* key : {"\"grid\"", "\"base_nodes\":401", "\"mean_nodes\"", "\"max_nodes\"",
                          "\"mean_ratio\"", "\"max_ratio\"", "\"regrids\":21"})
    CHECK(json.find(key) != std::string::npos);

  if (fhn::vtk_compiled()) {
    // The .vtu headers are plain XML: the point count of the first and the last frame differ.
    auto points = [&](const char* frame) {
      const std::string text = fhn::test::read_text(options.output_dir / "frames" / frame);
      const std::size_t at = text.find("NumberOfPoints=\"");
      REQUIRE(at != std::string::npos);
      return std::stol(text.substr(at + 16));
    };
    const long first = points("pulse_split_adaptive_000000.vtu");
    const long last = points("pulse_split_adaptive_000002.vtu");
    CHECK(first < 401);
    CHECK(last < 401);
    CHECK(first != last);
    // The kymograph has the base grid's uniform columns, whatever nodes the first frame had.
    const std::string image = fhn::test::read_text(options.output_dir / "spacetime.vti");
    CHECK(image.find("WholeExtent=\"0 400 0 2 0 0\"") != std::string::npos);
    CHECK(image.find("Spacing=\"0.5 10 1\"") != std::string::npos);
  }
}

TEST_CASE("adaptive: the resolved config reads back every adaptive key exactly") {
  const fhn::Config original = config_file(
      "configs/pulse_split_adaptive.yaml",
      {"scheme.adaptive={tolerance: 3.7e-4, coarse_stride: 12, gradient_stride: 4, rate_stride: 2, "
       "gradient_threshold: 0.02, rate_threshold: 0.003, inflection_radius: 2.5, regrid_every: 7}"});
  const fhn::Config again = fhn::test::config_from(fhn::to_yaml(original));
  const fhn::AdaptiveSpec& a = again.scheme.adaptive;
  CHECK(a.tolerance == 3.7e-4);
  CHECK(a.coarse_stride == 12);
  CHECK(a.gradient_stride == 4);
  CHECK(a.rate_stride == 2);
  CHECK(a.gradient_threshold == 0.02);
  CHECK(a.rate_threshold == 0.003);
  CHECK(a.inflection_radius == 2.5);
  CHECK(a.regrid_every == 7);
  CHECK(fhn::to_yaml(again) == fhn::to_yaml(original));
}
