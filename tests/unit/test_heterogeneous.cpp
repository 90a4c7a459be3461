// Sheets whose diffusion varies in space (fields: diffusion, harmonic means on the faces) or is a
// tensor (anisotropy:, the conservative 9-point stencil), against exact values and independent
// solutions: a steady profile across a step in D, fibres along an axis against cables, a planar
// wave across fibres at an angle against the cable with D_xx, a target wave's axis ratio, and no
// spiral tips on a scar's edge.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/format.hpp"
#include "model/problem.hpp"
#include "model/stability.hpp"
#include "model/tissue.hpp"
#include "schemes/node_updates.hpp"
#include "study/spiral_tips.hpp"
#include "support.hpp"

namespace {

using fhn::index_t;
using fhn::real;

// The config of a run, dx and dt set and every frame kept (dt as the frame cadence).
fhn::Config with_grid(const std::string& yaml, real dx, real dt) {
  return fhn::test::config_from(yaml, {"domain.dx=" + fhn::format_exact(dx),
                                       "time.dt=" + fhn::format_exact(dt),
                                       "output.every=" + fhn::format_exact(dt)});
}

// The arrival times of a wave at the nodes of a sheet's `config` nearest (x, y) for each x of
// `xs` (first upward crossings of v = 0.5).
std::vector<real> arrivals(const fhn::Config& config, const std::vector<real>& xs, real y) {
  const real dx = config.domain.dx;
  const index_t nx = config.domain.nodes[0];
  std::vector<fhn::test::UpCrossings> crossings;
  for (real x : xs)
    crossings.emplace_back(std::lround(x / dx) + nx * std::lround(y / dx), 0.5);
  std::vector<fhn::FrameSink*> sinks;
  for (auto& c : crossings) sinks.push_back(&c);
  fhn::test::run_with_sinks(config, sinks);
  std::vector<real> times;
  for (const auto& c : crossings) {
    REQUIRE(!c.times.empty());
    times.push_back(c.times.front());
  }
  return times;
}

// Bilinear interpolation of a sheet's node values at (x, y).
real at(const fhn::Snapshot& s, real x, real y) {
  const fhn::Domain& d = s.domain;
  const real fx = x / d.dx, fy = y / d.dx;
  const auto i = static_cast<index_t>(std::floor(fx)), j = static_cast<index_t>(std::floor(fy));
  const real a = fx - static_cast<real>(i), b = fy - static_cast<real>(j);
  auto v = [&](index_t p, index_t q) { return s.v[static_cast<std::size_t>(p + d.nodes[0] * q)]; };
  return (1 - a) * (1 - b) * v(i, j) + a * (1 - b) * v(i + 1, j) + (1 - a) * b * v(i, j + 1) +
         a * b * v(i + 1, j + 1);
}

// The distance from (x0, y0) along the unit direction (cx, cy) to the outermost point where v
// crosses 0.5 (the front of an outgoing wave), linear between samples a tenth of dx apart.
real front_distance(const fhn::Snapshot& s, real x0, real y0, real cx, real cy, real reach) {
  const real step = 0.1 * s.domain.dx;
  real front = 0.0, before = at(s, x0, y0);
  for (real r = step; r <= reach; r += step) {
    const real v = at(s, x0 + r * cx, y0 + r * cy);
    if (before >= 0.5 && v < 0.5) front = r - step + (before - 0.5) / (before - v) * step;
    before = v;
  }
  return front;
}

}  // namespace

TEST_CASE("a step in D: the flux is continuous, a profile linear in each part is exact") {
  // D = 1 left of x* = 10.25 (the face between the nodes at 10 and 10.5), D = 4 right of it. The
  // steady solution of (D u')' = 0 has one flux J = -D u' on both sides: slopes 1 and 1/4. On
  // the face across the step the harmonic mean 2 D_l D_r / (D_l + D_r) = 1.6 carries exactly
  // that flux (the face's half-cells in series), so the discrete diffusion of the exact profile is
  // 0 at every node not on the sheet's left or right side, to round-off; an arithmetic mean
  // (2.5) would leave a source of (2.5 - 1.6) (u_r - u_l) / h^2 at the two nodes beside the step.
  const fhn::Config c = fhn::test::config_from(
      "domain: {length: [20, 4], dx: 0.5}\ntime: {dt: 0.01}\noutput: {probes: []}\n"
      "fields: [{parameter: diffusion, shape: rectangle, x_min: 10.25, value: 4}]\n");
  const fhn::Problem p = fhn::make_problem(c);
  REQUIRE(!p.fields.diffusion.uniform());
  const fhn::NodeParams q = fhn::node_params(p);
  const std::vector<std::uint8_t> quadrants = fhn::tissue_quadrants({}, p.domain);
  fhn::MediumView m = fhn::medium_constants(p);
  m.quadrants = quadrants.data();
  m.dxx = m.dyy = p.fields.diffusion.values.data();
  const index_t nx = q.n[0], ny = q.n[1];
  std::vector<real> u(static_cast<std::size_t>(nx * ny));
  for (index_t node = 0; node < nx * ny; ++node) {
    const real x = 0.5 * static_cast<real>(node % nx);
    u[static_cast<std::size_t>(node)] = x < 10.25 ? 3.0 + x : 3.0 + 10.25 + 0.25 * (x - 10.25);
  }
  real worst = 0.0;
  for (index_t j = 0; j < ny; ++j)
    for (index_t i = 1; i + 1 < nx; ++i) {
      const index_t node = i + nx * j;
      const real d = fhn::tensor_laplacian<false>(u.data(), quadrants[node], node, q, m);
      worst = std::max(worst, std::abs(d));
    }
  MESSAGE("largest |D L u| of the exact piecewise-linear profile: ", worst);
  CHECK(worst < 1e-12);
  // The flux through the step's face is the same seen from either side: -J = 1 (D = 1, slope 1).
  const index_t left = 20, right = 21;  // x = 10 and 10.5
  CHECK(fhn::harmonic_mean(m.dxx[left], m.dxx[right]) * (u[right] - u[left]) / 0.5 ==
        doctest::Approx(1.0).epsilon(1e-14));
}

TEST_CASE("a D field equal to model.diffusion everywhere runs as the uniform sheet to round-off") {
  const std::string yaml =
      "domain: {length: [20, 12], dx: 0.5}\n"
      "initial: {v: {type: gaussian, center: [6, 5], width2: 4}}\n"
      "stimulus: [{x_min: 12, x_max: 14, start: 5, duration: 1, amplitude: 0.5}]\n"
      "time: {end: 20, dt: 0.05}\noutput: {probes: []}\n";
  const auto plain = fhn::test::run_scheme(fhn::test::config_from(yaml), 400);
  const auto field = fhn::test::run_scheme(
      fhn::test::config_from(yaml + "fields: [{parameter: diffusion, shape: disc, center: [10, 6], "
                                    "radius: 100, value: 1}]\n"),
      400);
  const double difference = fhn::test::max_state_difference(plain.state, field.state);
  MESSAGE("uniform D as a field against the plain sheet: ", difference);
  CHECK(difference < 1e-13);
}

TEST_CASE("fibres along x: the anisotropic sheet equals a cable with D_l along x, D_t along y") {
  // With the fibre angle 0, D = diag(D_l, D_t) and D_xy = 0: a planar front along x (uniform in
  // y) is the cable with D = D_l row for row, one along y the cable with D = D_t, to round-off
  // (the sheet groups the same differences differently).
  const std::string sheet =
      "domain: {length: [30, 30], dx: 0.5}\n"
      "anisotropy: {longitudinal: 1.5, transverse: 0.25, angle: 0}\n"
      "time: {end: 30, dt: 0.04}\noutput: {probes: []}\n";
  const std::string cable =
      "domain: {length: 30, dx: 0.5}\n"
      "initial: {v: {type: rectangle, x_min: 0, x_max: 3, value: 1}}\n"
      "time: {end: 30, dt: 0.04}\noutput: {probes: []}\n";
  const auto along = fhn::test::run_scheme(
      fhn::test::config_from(sheet + "initial: {v: {type: rectangle, x_min: 0, x_max: 3, y_min: "
                                     "0, y_max: 30, value: 1}}\n"),
      750);
  const auto across = fhn::test::run_scheme(
      fhn::test::config_from(sheet + "initial: {v: {type: rectangle, x_min: 0, x_max: 30, y_min: "
                                     "0, y_max: 3, value: 1}}\n"),
      750);
  const auto fast = fhn::test::run_scheme(
      fhn::test::config_from(cable + "model: {diffusion: 1.5}\n"), 750);
  const auto slow = fhn::test::run_scheme(
      fhn::test::config_from(cable + "model: {diffusion: 0.25}\n"), 750);
  real worst_along = 0.0, worst_across = 0.0, moved = 0.0;
  for (index_t j = 0; j < 61; ++j)
    for (index_t i = 0; i < 61; ++i) {
      const auto node = static_cast<std::size_t>(i + 61 * j);
      const real x_cable = fast.state.v[static_cast<std::size_t>(i)];
      const real y_cable = slow.state.v[static_cast<std::size_t>(j)];
      worst_along = std::max(worst_along, std::abs(along.state.v[node] - x_cable));
      worst_across = std::max(worst_across, std::abs(across.state.v[node] - y_cable));
      moved = std::max(moved, along.state.v[node] * (i > 30 ? 1.0 : 0.0));
    }
  MESSAGE("fibres along x against the cables: ", worst_along, " (D_l), ", worst_across, " (D_t)");
  CHECK(moved > 0.5);  // the front along x has passed the middle
  CHECK(worst_along < 1e-12);
  CHECK(worst_across < 1e-12);
}

TEST_CASE("fibres at 30 degrees: a planar wave along x travels at the cable's speed with D_xx") {
  // D_xx = D_t + (D_l - D_t) cos^2 30 = 0.25 + 0.75 x 3/4 = 0.8125. A front uniform in y moves
  // as the cable with D = D_xx away from the top and bottom sides (there its flux D_xy u_x through
  // the side, which no-flux forbids, bends it; the bend spreads inwards with time, so the sheet is
  // tall): arrivals on the middle row at x = 10 and 20 against the cable's, at two dx. Measured:
  // 0.561473 against 0.561473 at dx = 0.5, 0.563753 against 0.563753 at dx = 0.25 (to 6 digits;
  // the grid's own error, 0.4% between them, is the cable's too). In a sheet as tall as it is
  // wide (40 x 40, rows x = 15 and 30) the bend had reached the middle row: 0.7% slower.
  const std::string sheet =
      "domain: {length: [30, 60]}\n"
      "anisotropy: {longitudinal: 1.0, transverse: 0.25, angle: 30}\n"
      "initial: {v: {type: rectangle, x_min: 0, x_max: 3, y_min: 0, y_max: 60, value: 1}}\n"
      "time: {end: 40}\noutput: {probes: [], vtk: false}\n";
  const std::string cable =
      "domain: {length: 30}\nmodel: {diffusion: 0.8125}\n"
      "initial: {v: {type: rectangle, x_min: 0, x_max: 3, value: 1}}\n"
      "time: {end: 40}\noutput: {probes: [], vtk: false, spacetime: false}\n";
  for (const real dx : {0.5, 0.25}) {
    CAPTURE(dx);
    const real dt = 0.16 * dx * dx;
    const std::vector<real> s = arrivals(with_grid(sheet, dx, dt), {10.0, 20.0}, 30.0);
    const std::vector<real> c = arrivals(with_grid(cable, dx, dt), {10.0, 20.0}, 0.0);
    const real sheet_speed = 10.0 / (s[1] - s[0]), cable_speed = 10.0 / (c[1] - c[0]);
    MESSAGE("dx = ", dx, ": speed along x ", sheet_speed, " against the cable's ", cable_speed);
    CHECK(sheet_speed == doctest::Approx(cable_speed).epsilon(1e-4));
  }
}

TEST_CASE("a target wave in fibres at 30 degrees grows as an ellipse of axis ratio sqrt(D_l/D_t)") {
  // Scaled by sqrt(D_l) along the fibres and sqrt(D_t) across, the medium is isotropic and a
  // target wave a circle: its front moves along and across the fibres in the ratio
  // sqrt(D_l / D_t) = 2. Measured between t = 24 and t = 40 (the isotropic start, a head start
  // across the fibres in the scaled frame, drops out of the difference): 2.0017 at dx = 0.5; the
  // fronts' distances themselves (23.02 and 11.88 at t = 40) are in the ratio 1.94.
  const fhn::Config c = fhn::test::config_from(
      "domain: {length: [80, 80], dx: 0.5}\n"
      "anisotropy: {longitudinal: 1.0, transverse: 0.25, angle: 30}\n"
      "initial: {v: {type: gaussian, center: [40, 40], width2: 6, amplitude: 1}}\n"
      "time: {end: 40, dt: 0.04}\noutput: {probes: []}\n");
  auto run = fhn::test::run_scheme(c, 600);
  fhn::Snapshot later;
  run.scheme->advance(400);
  run.scheme->snapshot(later);
  const real cs = std::cos(fhn::kTwoPi / 12.0), sn = std::sin(fhn::kTwoPi / 12.0);
  const real along[2] = {front_distance(run.state, 40, 40, cs, sn, 39.0),
                         front_distance(later, 40, 40, cs, sn, 39.0)};
  const real across[2] = {front_distance(run.state, 40, 40, -sn, cs, 39.0),
                          front_distance(later, 40, 40, -sn, cs, 39.0)};
  const real back = front_distance(later, 40, 40, -cs, -sn, 39.0);
  const real ratio = (along[1] - along[0]) / (across[1] - across[0]);
  MESSAGE("front along the fibres ", along[0], " -> ", along[1], ", across ", across[0], " -> ",
          across[1], ": ratio of growth ", ratio);
  CHECK(along[1] > 20.0);
  CHECK(along[1] == doctest::Approx(back).epsilon(1e-9));  // the tensor's symmetry
  CHECK(ratio == doctest::Approx(2.0).epsilon(0.02));
}

TEST_CASE("a scar of D = 0 is cut off: no spiral tips are found on its edge") {
  // A planar wave passes a scar (D = 0 on a rectangle touching the bottom side): along the scar's
  // top edge the front ends, and the v and w iso-lines meet there as at a spiral's tip. Cells with
  // a cut-off corner are skipped, as cells touching a tissue: hole are: no tip in any frame, where
  // the same run without the skip finds one in most frames.
  const fhn::Config c = fhn::test::config_from(
      "domain: {length: [40, 20], dx: 0.5}\n"
      "fields: [{parameter: diffusion, shape: rectangle, x_min: 10, x_max: 30, y_max: 8, "
      "value: 0}]\n"
      "initial: {v: {type: rectangle, x_min: 0, x_max: 3, value: 1}}\n"
      "time: {end: 50, dt: 0.04}\noutput: {every: 1, probes: []}\n");
  const fhn::Problem p = fhn::make_problem(c);
  const std::vector<std::uint8_t> cut = fhn::cut_off_nodes(p.fields);
  REQUIRE(cut.size() == p.v0.size());
  CHECK(cut[static_cast<std::size_t>(40 + 81 * 8)] == 1);   // (20, 4): in the scar
  CHECK(cut[static_cast<std::size_t>(40 + 81 * 20)] == 0);  // (20, 10): above it
  CHECK(fhn::cut_off_nodes(fhn::make_problem(fhn::test::config_from(
                               "domain: {length: [4, 4], dx: 1}\ntime: {dt: 0.01}\n"))
                               .fields)
            .empty());
  const fhn::test::TempDir dir;
  fhn::TipTracker skipped(dir / "skipped.csv", 0.5, 0.1, false, cut);
  fhn::TipTracker all(dir / "all.csv", 0.5, 0.1, false);
  fhn::test::run_with_sinks(c, {&skipped, &all});
  MESSAGE("frames with tips: ", skipped.frames_with_tips(), " skipping the scar, ",
          all.frames_with_tips(), " not");
  CHECK(all.frames_with_tips() > 10);
  CHECK(skipped.frames_with_tips() == 0);
}

TEST_CASE("forward Euler's limit follows the fields: the largest D, the tensor's bound") {
  // Isotropic: the odd-even rate 4 d max D / dx^2 with the field's largest D (2.5 here, a blend
  // region), so a dt the uniform sheet takes is refused. Anisotropic: the Gershgorin bound
  // 4 (D_xx + D_yy + |D_xy|) / dx^2, D_xx + D_yy = D_l + D_t, |D_xy| = (D_l - D_t) cos sin.
  const std::string sheet = "domain: {length: [20, 10], dx: 0.5}\ntime: {dt: 0.01}\n";
  const fhn::Config field = fhn::test::config_from(
      sheet + "fields: [{parameter: diffusion, shape: disc, center: [5, 5], radius: 2, "
              "value: 2.5, edge: 1}]\n");
  // The limit of a run's Problem, its fields as make_problem built them.
  auto limit = [](const fhn::Config& c) {
    const fhn::Problem p = fhn::make_problem(c);
    return fhn::explicit_limit(p.model, p.boundary, p.domain, p.fields);
  };
  CHECK(limit(field).diffusion == doctest::Approx(4.0 * 2.0 * 2.5 / 0.25));
  CHECK(limit(field).rate == "4 d max D/dx^2");
  const fhn::Config fibres = fhn::test::config_from(
      sheet + "anisotropy: {longitudinal: 1.0, transverse: 0.25, angle: 30}\n");
  const real cross = 0.75 * std::cos(fhn::kTwoPi / 12.0) * std::sin(fhn::kTwoPi / 12.0);
  CHECK(limit(fibres).diffusion == doctest::Approx(4.0 * (1.25 + cross) / 0.25).epsilon(1e-14));
  CHECK(limit(fibres).rate == "4 max (D_xx + D_yy + |D_xy|)/dx^2");
  // The uniform sheet's dt = 0.05 (limit 0.0624 with D = 1) is refused with the field.
  CHECK(fhn::test::contains(fhn::test::config_error(sheet + "fields: [{parameter: diffusion, "
                                                            "shape: disc, center: [5, 5], "
                                                            "radius: 2, value: 2.5}]\n",
                                                    {"time.dt=0.05"}),
                            "exceeds the explicit stability limit"));
  CHECK_NOTHROW(fhn::test::config_from(sheet, {"time.dt=0.05"}));
}
