// Parameter sweeps (fhn sweep): the sweep loader's values and checks, the members' configs, the
// probe measurements on hand-made samples, the CPU member batch against fhn run's own schemes,
// failure isolation, the physical pulse speed, and the files a sweep writes.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "config/loader.hpp"
#include "config/sweep_config.hpp"
#include "core/error.hpp"
#include "core/first_error.hpp"
#include "model/problem.hpp"
#include "parallel/decomposition.hpp"
#include "run/run.hpp"
#include "schemes/member_batch.hpp"
#include "support.hpp"
#include "sweep/measurements.hpp"
#include "sweep/sweep.hpp"
#include "sweep/write.hpp"

using fhn::test::column;
using fhn::test::contains;

namespace {

// A short cable: a pulse started at the left end by stimulus[0]; stimulus[1] (S2) off.
const char* kCable = R"(
name: sweep_test_cable
model: {a: 0.1, epsilon: 0.01, gamma: 2.0, diffusion: 1.0}
domain: {length: 40.0, dx: 0.5}
initial: {v: {type: constant, value: 0.0}, w: {type: constant, value: 0.0}}
stimulus:
  - {x_min: 0.0, x_max: 2.0, start: 0.0, duration: 2.0, amplitude: 0.5}
  - {x_min: 0.0, x_max: 2.0, start: 300.0, duration: 2.0, amplitude: 0.0}
time: {end: 60.0, dt: 0.1}
scheme: {type: crank_nicolson}
output: {every: 1.0, vtk: false, spacetime: false, probes: [10.0, 30.0]}
)";

std::string sweep_error(const std::string& text) {
  return fhn::test::thrown_message<fhn::ConfigError>(
      [&] { fhn::load_sweep_text(text, "sweep.yaml"); });
}

// Members of a sweep over `axes` (YAML) of the test cable written into `dir`.
fhn::SweepConfig cable_sweep(const fhn::test::TempDir& dir, const std::string& axes,
                             const std::string& extra = "") {
  fhn::test::write_text(dir / "cable.yaml", kCable);
  return fhn::load_sweep_text("base: cable.yaml\naxes: " + axes + "\n" + extra,
                              (dir / "sweep.yaml").string());
}

// Options with --set overrides for every member.
fhn::SweepOptions with_set(std::vector<std::string> overrides) {
  fhn::SweepOptions options;
  options.overrides = std::move(overrides);
  return options;
}

// fhn sweep of cable.yaml's fronts (epsilon = 0, w stays 0: v_t = D v_xx + v(1-v)(v-a)) over
// `axes`, with `overrides` besides, into dir/out.
void run_front_sweep(const fhn::test::TempDir& dir, const std::string& axes,
                     std::vector<std::string> overrides) {
  fhn::SweepOptions options;
  options.output_dir = dir / "out";
  options.quiet = true;
  options.overrides = std::move(overrides);
  options.overrides.insert(options.overrides.end(), {"model.epsilon=0", "stimulus[0].amplitude=1"});
  std::ostringstream out;
  fhn::run_sweep(cable_sweep(dir, axes), options, out);
}

std::vector<fhn::Problem> problems_of(const std::vector<fhn::Config>& configs) {
  std::vector<fhn::Problem> problems;
  for (const auto& c : configs) problems.push_back(fhn::make_problem(c));
  return problems;
}

}  // namespace

TEST_CASE("sweep file: ranges, log scales, products and zips give the documented values") {
  const fhn::SweepConfig s = fhn::load_sweep_text(R"(
base: cable.yaml
axes:
  - {key: model.a, from: 0.0, to: 0.3, count: 4}
  - {key: model.epsilon, from: 0.001, to: 0.1, count: 3, scale: log}
)", "dir/sweep.yaml");
  CHECK(s.name == "sweep");
  CHECK(s.base == "dir/cable.yaml");
  REQUIRE(s.axes.size() == 2);
  CHECK(s.axes[0].values[1] == doctest::Approx(0.1).epsilon(1e-15));
  CHECK(s.axes[0].values[3] == 0.3);                                   // the end exactly
  CHECK(s.axes[1].values[1] == doctest::Approx(0.01).epsilon(1e-14));  // geometric middle
  CHECK(fhn::sweep_member_count(s) == 12);
  // Product: the last axis varies fastest.
  CHECK(fhn::sweep_member_values(s, 0) == std::vector<double>{0.0, 0.001});
  CHECK(fhn::sweep_member_values(s, 1)[1] == s.axes[1].values[1]);
  CHECK(fhn::sweep_member_values(s, 5) == std::vector<double>{s.axes[0].values[1], 0.1});

  const fhn::SweepConfig z = fhn::load_sweep_text(R"(
base: cable.yaml
combine: zip
axes: [{key: model.a, values: [0.1, 0.2]}, {key: "stimulus[0].start", values: [5, 7]}]
)", "z.yaml");
  CHECK(fhn::sweep_member_count(z) == 2);
  CHECK(fhn::sweep_member_values(z, 1) == std::vector<double>{0.2, 7.0});
}

TEST_CASE("sweep file: mistakes are reported with their place and what was expected") {
  CHECK(contains(sweep_error("base: c.yaml\n"), "missing required key 'axes'"));
  CHECK(contains(sweep_error("axes: [{key: model.a, values: [1]}]\n"), "missing required key 'base'"));
  CHECK(contains(sweep_error("base: c.yaml\naxes: [{key: model.a, values: [1], from: 0, to: 1, count: 2}]\n"),
                 "either 'values' or 'from'"));
  CHECK(contains(sweep_error("base: c.yaml\naxes: [{key: model.a, from: 0, to: 1, count: 3, scale: log}]\n"),
                 "sweep.yaml:2:8: axes[0]: a log scale needs from > 0"));
  CHECK(contains(sweep_error("base: c.yaml\ncombine: zip\naxes: [{key: model.a, values: [1, 2]}, "
                             "{key: model.epsilon, values: [1]}]\n"),
                 "zip needs axes of equal length"));
  CHECK(contains(sweep_error("base: c.yaml\naxes: [{key: model.a, valuse: [1]}]\n"), "did you mean 'values'"));
  CHECK(contains(sweep_error("base: c.yaml\naxes: [{key: model.a, values: [1, 2]}]\noutput: {members: [2]}\n"),
                 "output.members[0]: expected a member index in [0, 1], got '2'"));
  CHECK(contains(sweep_error("base: c.yaml\naxes: [{key: model.a, values: [1]}, {key: model.a, values: [2]}]\n"),
                 "key 'model.a' is already set by axes[0]"));
}

TEST_CASE("sweep file: keys linked to an axis take its j-th value's partner (Winfree's eps)") {
  const fhn::SweepConfig sw = fhn::load_sweep_text(
      "base: c.yaml\naxes:\n  - {key: model.a, values: [0.5, 1.0]}\n"
      "  - key: model.tau_v\n    values: [0.25, 0.5]\n"
      "    with: [{key: model.tau_w, reciprocal: true}, {key: model.b, values: [0.1, 0.2]}]\n",
      "sweep.yaml");
  REQUIRE(sw.axes[1].with.size() == 2);
  CHECK(sw.axes[1].with[0].values == std::vector<fhn::real>{4.0, 2.0});
  CHECK(sw.axes[1].with[1].values == std::vector<fhn::real>{0.1, 0.2});
  CHECK(fhn::sweep_member_positions(sw, 3) == std::vector<fhn::index_t>{1, 1});
  CHECK(fhn::sweep_member_values(sw, 1) == std::vector<fhn::real>{0.5, 0.5});

  const std::string axis = "base: c.yaml\naxes:\n  - key: model.tau_v\n    values: [0, 0.5]\n    with: ";
  CHECK(contains(sweep_error(axis + "[{key: model.tau_w, values: [1]}]\n"),
                 "axes[0].with[0].values: 1 values for the axis's 2"));
  CHECK(contains(sweep_error(axis + "[{key: model.tau_w}]\n"),
                 "sweep.yaml:5:12: axes[0].with[0]: give either 'values' (one per value of the axis) or 'reciprocal: true'"));
  CHECK(contains(sweep_error(axis + "[{key: model.tau_w, reciprocal: true}]\n"),
                 "reciprocal: the axis 'model.tau_v' takes the value 0"));
  CHECK(contains(sweep_error(axis + "[{key: model.tau_v, values: [1, 2]}]\n"),
                 "key 'model.tau_v' is the axis's own"));
  CHECK(contains(sweep_error("base: c.yaml\naxes:\n  - {key: model.b, values: [1]}\n  - {key: model.a, values: [1], "
                             "with: [{key: model.b, values: [2]}]}\n"),
                 "axes[1]: key 'model.b' is already set by axes[0]"));
}

TEST_CASE("sweep members: each is the base config with its values; shared settings may not vary") {
  fhn::test::TempDir dir;
  const auto members = fhn::sweep_member_configs(
      cable_sweep(dir, "[{key: model.a, values: [0.05, 0.2]}, {key: 'stimulus[1].start', values: [30, 40]}]"), {});
  REQUIRE(members.size() == 4);
  CHECK(members[2].model.form<fhn::CubicKinetics>().a == 0.2);
  CHECK(members[2].stimulus[1].start == 30.0);
  CHECK(members[3].stimulus[1].start == 40.0);
  CHECK(members[3].model.form<fhn::CubicKinetics>().epsilon == 0.01);  // the base's
  CHECK(members[3].name == "sweep_3");
  // A linked key takes its value with the axis's: gamma = 1 / epsilon member by member.
  const auto linked = fhn::sweep_member_configs(
      cable_sweep(dir, "[{key: model.epsilon, values: [0.01, 0.02], with: [{key: model.gamma, reciprocal: true}]}]"),
      {});
  REQUIRE(linked.size() == 2);
  CHECK(linked[0].model.form<fhn::CubicKinetics>().gamma == 100.0);
  CHECK(linked[1].model.form<fhn::CubicKinetics>().epsilon == 0.02);
  CHECK(linked[1].model.form<fhn::CubicKinetics>().gamma == 50.0);

  auto error = [&](const std::string& axes) {
    return fhn::test::thrown_message<fhn::ConfigError>(
        [&] { fhn::sweep_member_configs(cable_sweep(dir, axes), {}); });
  };
  const std::string grid = error("[{key: domain.dx, values: [0.5, 0.25]}]");
  CHECK(contains(grid, "member 1 (domain.dx=0.25) differs from member 0 in domain.nodes: 161"));
  CHECK(contains(grid, "run in lockstep"));
  CHECK(contains(error("[{key: time.dt, values: [0.1, 0.05]}]"), "differs from member 0 in time."));
  // An invalid value: the axis's line in the sweep file, the member, the loader's reason.
  const std::string invalid = error("\n  - {key: model.epsilon, values: [0.01, -1]}");
  CHECK(contains(invalid, "sweep.yaml:3:5: member 1 (model.epsilon=-1) is not a valid config"));
  CHECK(contains(invalid, "model.epsilon"));
  // Sweep keys checked against the base config name their own line.
  auto measure_error = [&](const std::string& measure) {
    return fhn::test::thrown_message<fhn::ConfigError>([&] {
      fhn::sweep_member_configs(
          cable_sweep(dir, "[{key: model.a, values: [0.1]}]", "measure:\n" + measure), {});
    });
  };
  CHECK(contains(measure_error("  every: 0.03\n"), "sweep.yaml:4:10: measure.every = 0.03 is not a multiple of time.dt = 0.1"));
  // The base config's text is read and checked once for all members: its mistakes are member 0's.
  const fhn::SweepConfig broken = cable_sweep(dir, "[{key: model.a, values: [0.1, 0.2]}]");
  fhn::test::write_text(dir / "cable.yaml", "model: {a: [0.1, 0.2\n");
  const std::string syntax = fhn::test::thrown_message<fhn::ConfigError>(
      [&] { fhn::sweep_member_configs(broken, {}); });
  CHECK(contains(syntax, "sweep.yaml: member 0 (model.a=0.1) is not a valid config"));
  CHECK(contains(syntax, "cable.yaml:2:1: YAML syntax error"));
}

TEST_CASE("every shipped sweep's members are valid configs") {
  int sweeps = 0;
  for (const auto& entry : std::filesystem::directory_iterator(fhn::test::source_path("configs/sweeps"))) {
    if (entry.path().extension() != ".yaml") continue;
    CAPTURE(entry.path().string());
    if (!contains(fhn::test::read_text(entry.path()), "\naxes:")) {  // a base config
      CHECK_NOTHROW(fhn::load_config(entry.path().string()));
      continue;
    }
    CHECK_NOTHROW(fhn::sweep_member_configs(fhn::load_sweep(entry.path().string()), {}));
    ++sweeps;
  }
  CHECK(sweeps >= 4);
}

TEST_CASE("FirstError: the exception of the lowest iteration leaves a parallel loop, after it") {
  fhn::FirstError failed;
  std::vector<int> done(64, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = t; i < 64; i += 4)
        failed.guard(i, [&] {
          if (i == 9 || i == 30) throw std::out_of_range("iteration " + std::to_string(i));
          done[static_cast<std::size_t>(i)] = 1;
        });
    });
  for (std::thread& thread : threads) thread.join();
  CHECK(std::count(done.begin(), done.end(), 1) == 62);  // the others all ran
  CHECK_THROWS_WITH_AS(failed.rethrow(), "iteration 9", std::out_of_range);
  fhn::FirstError none;
  CHECK_NOTHROW(none.rethrow());
}

TEST_CASE("shares of members (and slabs) by split_range: contiguous in rank order, balanced, the lower ranks taking the extra") {
  // 5 members on 2 ranks: 3 + 2.
  CHECK(fhn::split_range(5, 0, 2).first == 0);
  CHECK(fhn::split_range(5, 0, 2).count == 3);
  CHECK(fhn::split_range(5, 1, 2).first == 3);
  CHECK(fhn::split_range(5, 1, 2).count == 2);
  // More ranks than members: the last ones get none.
  CHECK(fhn::split_range(2, 2, 3).count == 0);
  for (fhn::index_t members : {1, 2, 5, 7, 1000})
    for (int ranks : {1, 2, 3, 8}) {
      CAPTURE(members);
      CAPTURE(ranks);
      fhn::index_t next = 0;
      for (int r = 0; r < ranks; ++r) {
        const fhn::Range range = fhn::split_range(members, r, ranks);
        CHECK(range.first == next);
        CHECK((range.count == members / ranks || range.count == members / ranks + 1));
        CHECK(range.count >= fhn::split_range(members, ranks - 1, ranks).count);
        next = range.end();
      }
      CHECK(next == members);
    }
}

TEST_CASE("probe measurements: crossings, APD and speeds from hand-made samples") {
  // Probe at x = 0: v rises through 0.5 between t = 1 (0.25) and t = 2 (0.75): t* = 1.5; falls
  // through it between t = 3 (1.0) and t = 4 (0.25): t* = 3 + 0.5/0.75 = 3.6667; APD 2.1667.
  // Probe at x = 10: the same two time units later, so the speed is 10 / 2 = 5.
  const std::vector<double> trace = {0.0, 0.25, 0.75, 1.0, 0.25, 0.0, 0.0, 0.0};
  fhn::MemberMeasurements m({0.0, 10.0}, 0.5, 1);
  for (std::size_t k = 0; k < trace.size(); ++k) {
    const double v[2] = {trace[k], k >= 2 ? trace[k - 2] : 0.0};
    m.sample(static_cast<double>(k), v);
  }
  CHECK(m.pulses(0) == 1);
  CHECK(m.pulses(1) == 1);
  CHECK(m.first_activation(0) == doctest::Approx(1.5));
  CHECK(m.first_activation(1) == doctest::Approx(3.5));
  CHECK(m.apd(0) == doctest::Approx(3.0 + 0.5 / 0.75 - 1.5));
  CHECK(m.speed() == doctest::Approx(5.0));
  CHECK(m.last_speed() == doctest::Approx(5.0));
  CHECK(m.propagated());

  // Two stimulus pulses expected, one arrived: not propagated, no last speed; a probe that
  // starts above the threshold has no activation from that.
  fhn::MemberMeasurements two({0.0, 10.0}, 0.5, 2);
  for (std::size_t k = 0; k < trace.size(); ++k) {
    const double v[2] = {trace[k], k >= 2 ? trace[k - 2] : 1.0};
    two.sample(static_cast<double>(k), v);
  }
  CHECK(two.pulses(1) == 1);
  CHECK_FALSE(two.propagated());
  CHECK(std::isnan(two.last_speed()));
  CHECK(two.speed() == doctest::Approx(5.0));
}

TEST_CASE("CPU member batch: every member is its own fhn run, bit for bit, however advance is split") {
  fhn::test::TempDir dir;
  for (const char* scheme : {"crank_nicolson", "explicit"}) {
    CAPTURE(scheme);
    const auto configs = fhn::sweep_member_configs(
        cable_sweep(dir, "[{key: model.a, values: [0.05, 0.15]}, {key: 'stimulus[0].amplitude', values: [0.3, 0.8]}]"),
        with_set({std::string("scheme.type=") + scheme, "time.dt=0.05", "boundary.right.type=dirichlet",
                  "boundary.right.value=0.1"}));
    const auto problems = problems_of(configs);
    auto batch = fhn::make_member_batch(problems, configs[0].scheme, 2);
    batch->advance(7);
    batch->advance(33);
    CHECK(batch->steps_done() == 40);
    std::vector<double> sampled;
    batch->sample({0, 5, 80}, sampled);
    REQUIRE(sampled.size() == 12);
    for (fhn::index_t m = 0; m < 4; ++m) {
      const fhn::test::SchemeRun single = fhn::test::run_scheme(configs[static_cast<std::size_t>(m)], 40);
      fhn::Snapshot mine;
      batch->snapshot(m, mine);
      CHECK(fhn::test::max_state_difference(mine, single.state) == 0.0);
      CHECK(sampled[static_cast<std::size_t>(3 * m + 2)] == single.state.v[80]);
    }
    CHECK(batch->take_failures().empty());
  }
}

TEST_CASE("a failing member is frozen and reported; the others go on unaffected") {
  fhn::test::TempDir dir;
  // Explicit: a stimulus of 1e150 makes v^3 overflow in member 1.
  const auto configs = fhn::sweep_member_configs(
      cable_sweep(dir, "[{key: 'stimulus[0].amplitude', values: [0.5, 1.0e150, 0.8]}]"),
      with_set({"scheme.type=explicit", "time.dt=0.05"}));
  const auto problems = problems_of(configs);
  auto batch = fhn::make_member_batch(problems, configs[0].scheme, 2);
  batch->advance(50);
  batch->check_finite();
  const auto failures = batch->take_failures();
  REQUIRE(failures.size() == 1);
  CHECK(failures[0].member == 1);
  CHECK(contains(failures[0].reason, "stopped being finite"));
  fhn::Snapshot frozen, later;
  batch->snapshot(1, frozen);
  batch->advance(10);
  batch->check_finite();
  CHECK(batch->take_failures().empty());  // reported once
  batch->snapshot(1, later);
  CHECK(later.step == frozen.step);
  for (fhn::index_t m : {0, 2}) {
    fhn::Snapshot mine;
    batch->snapshot(m, mine);
    CHECK(fhn::test::max_state_difference(mine, fhn::test::run_scheme(configs[m], 60).state) == 0.0);
  }

  // Crank-Nicolson: a stimulus of 1e6 leaves Newton no chance in member 0; member 1 is fine.
  const auto cn = fhn::sweep_member_configs(
      cable_sweep(dir, "[{key: 'stimulus[0].amplitude', values: [1.0e6, 0.5]}]"), with_set({"time.dt=0.5"}));
  auto cn_batch = fhn::make_member_batch(problems_of(cn), cn[0].scheme, 2);
  cn_batch->advance(20);
  const auto cn_failures = cn_batch->take_failures();
  REQUIRE(cn_failures.size() == 1);
  CHECK(cn_failures[0].member == 0);
  CHECK(cn_failures[0].step == 0);  // frozen at its last accepted state: the initial one
  fhn::Snapshot good;
  cn_batch->snapshot(1, good);
  CHECK(fhn::test::max_state_difference(good, fhn::test::run_scheme(cn[1], 20).state) == 0.0);
}

TEST_CASE("fhn sweep: a front's measured speed is the bistable speed sqrt(D/2)(1 - 2a)") {
  // epsilon = 0: w stays 0 and the front of v_t = D v_xx + v(1-v)(v-a) travels at
  // sqrt(D/2)(1 - 2a) (to O(dx^2) on the grid).
  fhn::test::TempDir dir;
  run_front_sweep(dir, "[{key: model.a, values: [0.0, 0.2]}, {key: model.diffusion, values: [1, 2]}]",
                  {"time.end=80", "domain.dx=0.25", "time.dt=0.05"});
  const auto rows = fhn::test::read_csv(dir / "out" / "sweep.csv");
  REQUIRE(rows.size() == 5);
  const std::size_t speed = column(rows[0], "speed");
  for (std::size_t r = 1; r < rows.size(); ++r) {
    const double a = std::stod(rows[r][1]), d = std::stod(rows[r][2]);
    CAPTURE(a);
    CAPTURE(d);
    CHECK(std::stod(rows[r][speed]) == doctest::Approx(std::sqrt(d / 2.0) * (1.0 - 2.0 * a)).epsilon(0.01));
  }
}

TEST_CASE("propagation edges: where neighbours along the first axis differ, per line of the others") {
  using fhn::sweep_detail::PropagationPoint;
  // Two lines (second axis 1 and 2), given out of order: line 1 fails above 0.3 and
  // propagates again at 0.6 (two edges), line 2 propagates from 0.2 up.
  const std::vector<PropagationPoint> points = {
      {{0.6, 1.0}, true}, {{0.1, 2.0}, false}, {{0.1, 1.0}, true}, {{0.3, 1.0}, true},
      {{0.4, 1.0}, false}, {{0.2, 2.0}, true}, {{0.4, 2.0}, true}};
  const auto edges = fhn::sweep_detail::propagation_edges(points);
  REQUIRE(edges.size() == 3);
  CHECK(edges[0].others == std::vector<double>{1.0});
  CHECK(edges[0].below == 0.3);
  CHECK(edges[0].above == 0.4);
  CHECK_FALSE(edges[0].propagates_above);
  CHECK(edges[1].below == 0.4);
  CHECK(edges[1].above == 0.6);
  CHECK(edges[1].propagates_above);
  CHECK(edges[2].others == std::vector<double>{2.0});
  CHECK(edges[2].below == 0.1);
  CHECK(edges[2].above == 0.2);
  CHECK(edges[2].propagates_above);
  CHECK(fhn::sweep_detail::propagation_edges({{{0.1}, true}, {{0.2}, true}}).empty());
}

TEST_CASE("fhn sweep: summary.json gives where fronts stop propagating, above as well as below") {
  // epsilon = 0: the front of v_t = D v_xx + v(1-v)(v-a) moves at sqrt(D/2)(1 - 2a), forwards
  // for a < 1/2 and backwards (the stimulated region shrinks) above: along a, propagation
  // fails between 0.3 (0.28 sqrt(D), at the far probe by t = 100) and 0.6 for each D.
  fhn::test::TempDir dir;
  run_front_sweep(dir, "[{key: model.a, values: [0.1, 0.3, 0.6]}, {key: model.diffusion, values: [1, 2]}]",
                  {"time.end=100", "domain.dx=0.5", "time.dt=0.1"});
  const std::string summary = fhn::test::read_text(dir / "out" / "summary.json");
  CHECK(contains(summary,
                 "\"propagation\": {\"key\":\"model.a\",\"smallest_propagating\":0.1,"
                 "\"largest_propagating\":0.3,\"edges\":["
                 "{\"model.diffusion\":1,\"failing\":0.6,\"propagating\":0.3},"
                 "{\"model.diffusion\":2,\"failing\":0.6,\"propagating\":0.3}]}"));
}

TEST_CASE("fhn sweep: sweep.csv, summary.json, failures as rows, and the members' own files") {
  fhn::test::TempDir dir;
  fhn::SweepOptions options;
  options.output_dir = dir / "out";
  options.quiet = true;
  options.overrides = {"time.dt=0.5"};
  std::ostringstream out;
  // Member 0 fails (Newton), 1 and 2 run an S1-S2 protocol: S2 at 30 falls into S1's refractory
  // tail and dies, S2 at 110 propagates.
  const fhn::SweepResult result = fhn::run_sweep(
      cable_sweep(dir, "[{key: 'stimulus[0].amplitude', values: [1.0e6, 0.5, 0.5]}, "
                       "{key: 'stimulus[1].start', values: [30, 30, 110]}]",
                  "combine: zip\nset: {'stimulus[1].amplitude': 0.5, time.end: 200}\n"
                  "measure: {probes: [10, 30]}\noutput: {members: [2]}\nbatch: 2\n"),
      options, out);
  CHECK(result.members == 3);
  CHECK(result.failed == 1);
  const auto rows = fhn::test::read_csv(dir / "out" / "sweep.csv");
  REQUIRE(rows.size() == 4);
  const auto& h = rows[0];
  CHECK(h[0] == "member");
  CHECK(h[1] == "stimulus[0].amplitude");
  CHECK(h[2] == "stimulus[1].start");
  CHECK(rows[1][column(h, "status")] == "numerical_failure");
  CHECK(contains(rows[1][column(h, "reason")], "Newton"));
  CHECK(rows[2][column(h, "status")] == "ok");
  CHECK(rows[2][column(h, "pulses@30")] == "1");
  CHECK(rows[2][column(h, "propagated")] == "0");
  CHECK(rows[2][column(h, "last_speed")].empty());
  CHECK(rows[3][column(h, "pulses@30")] == "2");
  CHECK(rows[3][column(h, "propagated")] == "1");
  CHECK(std::stod(rows[3][column(h, "last_speed")]) > 0.2);
  CHECK(std::stod(rows[3][column(h, "newton_mean_iterations")]) >= 1.0);

  const std::string summary = fhn::test::read_text(dir / "out" / "summary.json");
  CHECK(contains(summary, "\"members\": 3"));
  CHECK(contains(summary, "\"failed\": 1"));
  CHECK(contains(summary, "\"batches\": 2"));
  CHECK(contains(fhn::test::read_text(dir / "out" / "run.log"), "member 0 (stimulus[0].amplitude=1e+06"));

  // Member 2's probes.csv is byte for byte what fhn run of its config writes.
  fhn::Config member = fhn::load_config(
      (dir / "cable.yaml").string(),
      {"stimulus[1].amplitude=0.5", "time.end=200", "time.dt=0.5", "stimulus[0].amplitude=0.5", "stimulus[1].start=110"});
  fhn::RunOptions run;
  run.quiet = true;
  run.output_dir = dir / "single";
  fhn::run_simulation(member, run);
  CHECK(fhn::test::read_text(dir / "out" / "members" / "2" / "probes.csv") ==
        fhn::test::read_text(dir / "single" / "probes.csv"));
}

TEST_CASE("fhn sweep on the command line: usage, bad files and the backend's absence") {
  fhn::test::TempDir dir;
  const auto missing = fhn::test::run_cli({"sweep", (dir / "nope.yaml").string()});
  CHECK(missing.code == 2);
  CHECK(contains(missing.err, "nope.yaml"));
  fhn::test::write_text(dir / "cable.yaml", "domain: {length: 20.0, dx: 0.5}\ntime: {end: 5.0, dt: 0.05}\n"
                                            "output: {vtk: false, spacetime: false}\n");
  const std::string sweep = fhn::test::write_text(dir / "s.yaml", "base: cable.yaml\naxes: [{key: model.a, values: [0.1]}]\n");
  const auto box = fhn::test::run_cli({"sweep", sweep, "--set", "domain.length=[4, 4, 4]", "--set", "time.dt=0.01", "--output", (dir / "o").string()});
  CHECK(box.code == 2);
  CHECK(contains(box.err, "sweeps run cables and sheets"));
  const auto ok = fhn::test::run_cli({"sweep", sweep, "--quiet", "--output", (dir / "o").string()});
  CHECK(ok.code == 0);
  CHECK(std::filesystem::exists(dir / "o" / "sweep.csv"));
}

TEST_CASE("fhn sweep: a kinetics form's own keys are axes, and activations use the form's level") {
  // configs/fitzhugh_pulse.yaml on a 100-unit cable, over FitzHugh's tau_w (and its a, at one
  // value): every member's pulse is timed where v crosses the form's level 0 (the default
  // measure.threshold); the textbook member's speed is the example's.
  fhn::test::TempDir dir;
  fhn::SweepOptions options;
  options.output_dir = dir / "out";
  options.quiet = true;
  std::ostringstream out;
  const std::string base = fhn::test::source_path("configs/fitzhugh_pulse.yaml");
  const fhn::SweepResult result = fhn::run_sweep(
      fhn::load_sweep_text("base: " + base +
                               "\n"
                               "set: {domain.length: 100, time.end: 120, output.probes: []}\n"
                               "axes: [{key: model.tau_w, values: [10, 12.5, 20]}, "
                               "{key: model.a, values: [0.7]}]\n",
                           (dir / "sweep.yaml").string()),
      options, out);
  CHECK(result.members == 3);
  CHECK(result.failed == 0);
  const auto rows = fhn::test::read_csv(dir / "out" / "sweep.csv");
  REQUIRE(rows.size() == 4);
  CHECK(rows[0][1] == "model.tau_w");
  const std::size_t speed = column(rows[0], "speed");
  std::vector<double> speeds;
  for (std::size_t r = 1; r < rows.size(); ++r) {
    CHECK(rows[r][column(rows[0], "propagated")] == "1");
    speeds.push_back(std::stod(rows[r][speed]));
  }
  // Slower recovery (larger tau_w) leaves the front more excitable tissue: a faster pulse.
  CHECK(speeds[0] < speeds[1]);
  CHECK(speeds[1] < speeds[2]);
  // The textbook member against the example's own run (0.8105 at dx = 0.2, fitted by fhn run).
  CHECK(speeds[1] == doctest::Approx(0.8105).epsilon(0.01));
}
