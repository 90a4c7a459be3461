// Stimuli that converge (issue 47): a region laid onto the nodes by the overlap of their cells
// (coverage: overlap), `coverage: nodes` as the rule before it, the exact time average of a
// switching stimulus over a Crank-Nicolson step, and the orders in dx and dt they give.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "config/loader.hpp"
#include "grid/time_grid.hpp"
#include "model/stimulus.hpp"
#include "study/convergence.hpp"
#include "support.hpp"

namespace {

using fhn::index_t;
using fhn::NodeStimulus;
using fhn::real;
using fhn::Stimulus;
using fhn::test::config_error;
using fhn::test::contains;

Stimulus region(real x_min, real x_max, fhn::Coverage coverage = fhn::Coverage::overlap) {
  Stimulus s;
  s.x_min = x_min;
  s.x_max = x_max;
  s.coverage = coverage;
  return s;
}

// A cable of length 10, dx = 0.5 (21 nodes, node i at 0.5 i).
fhn::Domain cable() { return fhn::cable(21, 0.5); }

// A domain of `dims` axes of length L = (N - 1) dx each.
fhn::Domain domain(int dims, index_t nodes, real dx) {
  fhn::Domain d;
  d.dims = dims;
  d.dx = dx;
  for (int a = 0; a < fhn::kMaxAxes; ++a) {
    d.nodes[a] = a < dims ? nodes : 1;
    d.length[a] = a < dims ? static_cast<real>(nodes - 1) * dx : 0.0;
  }
  return d;
}

// The observed orders of successive refinements by `ratio` (norm max), as `fhn converge` takes
// them.
std::vector<double> orders(const std::string& yaml, const std::vector<std::string>& fixed,
                           const std::string& key, const std::vector<std::string>& values,
                           double ratio = 2.0) {
  return fhn::successive_orders(fhn::test::refinement(yaml, fixed, key, values), fhn::Norm::max,
                                ratio);
}

// A cable at rest, a box stimulus which starts a pulse; its edges lie on cells' faces at
// dx = 0.2 ([2.3, 3.7]: 11.5 and 18.5 spacings from 0), on nodes at the finer levels, where
// the edge nodes take half their amplitude (coverage: nodes gives them all of it: order 1).
const std::string kBoxStimulus =
    "domain: {length: 20}\n"
    "initial: {v: {type: constant, value: 0}}\n"
    "stimulus: [{x_min: 2.3, x_max: 3.7, start: 0, duration: 1, amplitude: 0.5}]\n"
    "time: {end: 4}\n"
    "output: {vtk: false, spacetime: false}\n";

}  // namespace

TEST_CASE("overlap: a node takes the fraction of its cell inside the region") {
  // [1.1, 2.3]: node 2 (x = 1, cell [0.75, 1.25]) holds 0.15 of it, 0.3; node 5 (x = 2.5,
  // [2.25, 2.75]) 0.05, 0.1; nodes 3 and 4 their whole cells.
  NodeStimulus s = fhn::stimulus_nodes(region(1.1, 2.3), cable());
  CHECK(s.first == 2);
  CHECK(s.last == 5);
  CHECK(s.fraction(2, 0) == doctest::Approx(0.3).epsilon(1e-12));
  CHECK(s.fraction(3, 0) == 1.0);
  CHECK(s.fraction(4, 0) == 1.0);
  CHECK(s.fraction(5, 0) == doctest::Approx(0.1).epsilon(1e-12));
  // Edges on nodes: those nodes take half their cells.
  s = fhn::stimulus_nodes(region(1.0, 2.0), cable());
  CHECK(s.first == 2);
  CHECK(s.last == 4);
  CHECK(s.fraction(2, 0) == 0.5);
  CHECK(s.fraction(3, 0) == 1.0);
  CHECK(s.fraction(4, 0) == 0.5);
  // Edges on cells' faces: whole cells, exactly 1, and the neighbours beyond left out.
  s = fhn::stimulus_nodes(region(0.75, 2.25), cable());
  CHECK(s.first == 2);
  CHECK(s.last == 4);
  for (index_t i = 2; i <= 4; ++i) CHECK(s.fraction(i, 0) == 1.0);
  // Inside one cell: that node alone, 0.1 of its 0.5.
  s = fhn::stimulus_nodes(region(1.1, 1.2), cable());
  CHECK(s.first == 2);
  CHECK(s.last == 2);
  CHECK(s.fraction(2, 0) == doctest::Approx(0.2).epsilon(1e-12));
  // At the domain's ends a node's cell is half a cell: [0, 0.25] and [9.75, 10].
  s = fhn::stimulus_nodes(region(0.0, 0.6), cable());
  CHECK(s.first == 0);
  CHECK(s.last == 1);
  CHECK(s.fraction(0, 0) == 1.0);
  CHECK(s.fraction(1, 0) == doctest::Approx(0.7).epsilon(1e-12));
  s = fhn::stimulus_nodes(region(9.9, 12.0), cable());
  CHECK(s.first == 20);
  CHECK(s.last == 20);
  CHECK(s.fraction(20, 0) == doctest::Approx(0.4).epsilon(1e-12));
  s = fhn::stimulus_nodes(region(-1.0, 0.1), cable());
  CHECK(s.first == 0);
  CHECK(s.last == 0);
  CHECK(s.fraction(0, 0) == doctest::Approx(0.4).epsilon(1e-12));
  // A region of no width overlaps no cell.
  CHECK(fhn::stimulus_nodes(region(1.0, 1.0), cable()).empty());
  CHECK(fhn::stimulus_nodes(region(1.25, 1.25), cable()).empty());
}

TEST_CASE("overlap: a node's fraction on a sheet and in a box is the product over the axes") {
  Stimulus s = region(1.1, 2.3);
  s.y_min = 0.0;
  s.y_max = 0.6;
  const NodeStimulus sheet = fhn::stimulus_nodes(s, domain(2, 9, 0.5));
  CHECK(sheet.first_y == 0);
  CHECK(sheet.last_y == 1);
  CHECK(sheet.fraction(2, 0) == doctest::Approx(0.3).epsilon(1e-12));
  CHECK(sheet.fraction(2, 1) == doctest::Approx(0.3 * 0.7).epsilon(1e-12));
  CHECK(sheet.fraction(3, 1) == doctest::Approx(0.7).epsilon(1e-12));
  CHECK(sheet.fraction(4, 0) == 1.0);
  CHECK(sheet.fraction(5, 1) == doctest::Approx(0.1 * 0.7).epsilon(1e-12));
  // A box of 9^3 nodes (L = 4): y on nodes [1, 2] (halves at j = 2, 4), z [3.9, 4] in the last
  // half cell [3.75, 4] (0.4).
  s.y_min = 1.0;
  s.y_max = 2.0;
  s.z_min = 3.9;
  s.z_max = 4.0;
  const NodeStimulus box = fhn::stimulus_nodes(s, domain(3, 9, 0.5));
  CHECK(box.first_y == 2);
  CHECK(box.last_y == 4);
  CHECK(box.first_z == 8);
  CHECK(box.last_z == 8);
  CHECK(box.fraction(2, 2, 8) == doctest::Approx(0.3 * 0.5 * 0.4).epsilon(1e-12));
  CHECK(box.fraction(3, 3, 8) == doctest::Approx(0.4).epsilon(1e-12));
  CHECK(box.fraction(5, 4, 8) == doctest::Approx(0.1 * 0.5 * 0.4).epsilon(1e-12));
}

TEST_CASE("overlap: the current a region injects is its amplitude times its length at every dx") {
  // sum_i I_i |C_i| = A |region| whatever the grid (with `nodes` it jumps with dx).
  for (const real dx : {0.4, 0.2, 0.1, 0.05, 0.03}) {
    CAPTURE(dx);
    const auto nodes = static_cast<index_t>(std::lround(12.0 / dx)) + 1;
    const fhn::Domain d = fhn::cable(nodes, dx);
    for (const auto& [lo, hi] : {std::pair{2.3, 3.7}, std::pair{0.0, 1.33}, std::pair{5.01, 12.0}}) {
      Stimulus s = region(lo, hi);
      s.amplitude = 0.5;
      const fhn::StimulusSchedule schedule({s}, d, 0.01);
      std::vector<real> current(static_cast<std::size_t>(nodes), 0.0);
      schedule.currents(0.0, 0.0, current.data());
      real charge = 0.0;
      for (index_t i = 0; i < nodes; ++i)
        charge += current[static_cast<std::size_t>(i)] * (i == 0 || i == nodes - 1 ? 0.5 * dx : dx);
      CHECK(charge == doctest::Approx(0.5 * (hi - lo)).epsilon(1e-12));
    }
  }
}

TEST_CASE("coverage: nodes takes the nodes inside the region, each the whole amplitude") {
  struct Case {
    real lo, hi;
    index_t first, last;
  };
  // The rule before issue 47: lo <= x_i <= hi, a node on an edge inside.
  for (const Case& c : {Case{1.1, 2.3, 3, 4}, Case{1.0, 2.0, 2, 4}, Case{0.75, 2.25, 2, 4},
                        Case{0.0, 0.6, 0, 1}, Case{9.9, 12.0, 20, 20}, Case{1.0, 1.0, 2, 2}}) {
    CAPTURE(c.lo);
    CAPTURE(c.hi);
    Stimulus s = region(c.lo, c.hi, fhn::Coverage::nodes);
    s.amplitude = 0.3;
    const NodeStimulus ns = fhn::stimulus_nodes(s, cable());
    CHECK(ns.first == c.first);
    CHECK(ns.last == c.last);
    // Every node the whole amplitude, to the bit (the fraction is a product of ones).
    const fhn::StimulusSchedule schedule({s}, cable(), 0.1);
    std::vector<real> current(21, 0.0);
    schedule.currents(0.0, 0.0, current.data());
    for (index_t i = 0; i < 21; ++i)
      CHECK(current[static_cast<std::size_t>(i)] == (i >= c.first && i <= c.last ? 0.3 : 0.0));
  }
  CHECK(fhn::stimulus_nodes(region(1.1, 1.2, fhn::Coverage::nodes), cable()).empty());
}

TEST_CASE("a stimulus's weight over a step is the exact time average of its pulses") {
  // Pulses on during [1, 1.5), [3, 3.5), [5, 5.5).
  Stimulus s = region(0.0, 1.0);
  s.start = 1.0;
  s.duration = 0.5;
  s.period = 2.0;
  s.count = 3;
  const real dt = 0.1, tol = fhn::stimulus_tolerance(dt);
  CHECK(fhn::stimulus_mean(s, 0.95, dt, tol) == doctest::Approx(0.5).epsilon(1e-12));
  CHECK(fhn::stimulus_mean(s, 1.45, dt, tol) == doctest::Approx(0.5).epsilon(1e-12));
  CHECK(fhn::stimulus_mean(s, 1.02, dt, tol) == 1.0);
  CHECK(fhn::stimulus_mean(s, 0.8, 1.0, tol) == 0.5);           // the whole first pulse
  CHECK(fhn::stimulus_mean(s, 0.5, 3.0, tol) == doctest::Approx(1.0 / 3.0).epsilon(1e-12));
  CHECK(fhn::stimulus_mean(s, 5.4, 0.2, tol) == doctest::Approx(0.5).epsilon(1e-12));
  CHECK(fhn::stimulus_mean(s, 2.0, 0.9, tol) == 0.0);           // between pulses
  CHECK(fhn::stimulus_mean(s, 6.9, 0.2, tol) == 0.0);           // after the last
  CHECK(fhn::stimulus_mean(s, 0.0, 0.9, tol) == 0.0);           // before the first
  // Edges on steps t = n dt: every step's weight is exactly 1 or 0 (as forward Euler's value at
  // the step's start), 5 steps per pulse.
  const fhn::TimeGrid time{dt, 80};
  int on = 0;
  for (index_t n = 0; n < time.steps; ++n) {
    const real w = fhn::stimulus_mean(s, time.t(n), dt, tol);
    CHECK((w == 0.0 || w == 1.0));
    CHECK(w == (fhn::stimulus_active(s, time.t(n), tol) ? 1.0 : 0.0));
    on += w == 1.0 ? 1 : 0;
  }
  CHECK(on == 15);
  // Span 0 is the value at t.
  CHECK(fhn::stimulus_mean(s, 3.2, 0.0, tol) == 1.0);
  CHECK(fhn::stimulus_mean(s, 3.5, 0.0, tol) == 0.0);
}

TEST_CASE("a bad stimulus coverage is refused at its key and line") {
  const std::string message =
      config_error("stimulus:\n"
                   "  - {x_min: 0, x_max: 5, start: 1, duration: 1, amplitude: 1, coverage: cells}\n");
  CHECK(contains(message, "test.yaml:2:"));
  CHECK(contains(message, "stimulus[0].coverage"));
  CHECK(contains(message, "overlap"));
  CHECK(contains(message, "nodes"));
  // Both values load, and overlap is the default.
  CHECK(fhn::test::config_from("stimulus: [{x_min: 0, x_max: 5, start: 1, duration: 1, "
                               "amplitude: 1}]\n")
            .stimulus.at(0)
            .coverage == fhn::Coverage::overlap);
  CHECK(fhn::test::config_from("stimulus: [{x_min: 0, x_max: 5, start: 1, duration: 1, "
                               "amplitude: 1, coverage: nodes}]\n")
            .stimulus.at(0)
            .coverage == fhn::Coverage::nodes);
  // A region of no width has no cell to overlap: refused, naming the way to take its node.
  CHECK(contains(config_error("stimulus: [{x_min: 5, x_max: 5, start: 1, duration: 1, "
                              "amplitude: 1}]\n"),
                 "has no width along an axis"));
  CHECK_NOTHROW(fhn::test::config_from("stimulus: [{x_min: 5, x_max: 5, start: 1, duration: 1, "
                                       "amplitude: 1, coverage: nodes}]\n"));
}

TEST_CASE("a dx study of a cable with a box stimulus observes second order (explicit and CN)") {
  // dt fixed (each scheme's time error the same at every level).
  const std::vector<std::string> dx{"0.2", "0.1", "0.05", "0.025"};
  for (const double p : orders(kBoxStimulus, {"scheme.type=explicit", "time.dt=0.0002"},
                               "domain.dx", dx)) {
    CAPTURE(p);
    CHECK(p >= 1.9);
  }
  for (const double p : orders(kBoxStimulus, {"scheme.type=crank_nicolson", "time.dt=0.01"},
                               "domain.dx", dx)) {
    CAPTURE(p);
    CHECK(p >= 1.9);
  }
}

TEST_CASE("Crank-Nicolson with a stimulus switching inside steps is second order in dt") {
  // On during [0.32, 0.8): both edges a third into a step at every dt below (dt divided by 4:
  // the switch keeps its place in the step, so the error's constant stays and the order shows
  // clean; the trapezoid of the values at the step's ends would deliver A dt (1/3 - 1/2) too
  // much charge per switch, first order).
  const std::string yaml =
      "domain: {length: 20, dx: 0.2}\n"
      "initial: {v: {type: constant, value: 0}}\n"
      "stimulus: [{x_min: 2, x_max: 4, start: 0.32, duration: 0.48, amplitude: 0.5}]\n"
      "time: {end: 2.4}\n"
      "scheme: {type: crank_nicolson}\n"
      "output: {every: 0.24, vtk: false, spacetime: false}\n";
  const std::vector<std::string> dt{"0.24", "0.06", "0.015", "0.00375"};
  for (const char* formulation : {"newton", "adi"}) {
    CAPTURE(formulation);
    for (const double p : orders(yaml, {std::string("scheme.crank_nicolson.formulation=") +
                                        formulation},
                                 "time.dt", dt, 4.0)) {
      CAPTURE(p);
      CHECK(p >= 1.9);
    }
  }
}
