// Boxes (3-D domains), the explicit scheme on the CPU: a box whose data are constant along z
// steps as the sheet and a planar wave as the cable, bit for bit; orders 2 in dx and 1 in dt;
// stimuli and probes in z, front/back faces, the resolved config; what boxes refuse for now
// (tests/gpu/test_gpu_schemes.cpp: the GPU's box step against this one).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "config/loader.hpp"
#include "core/error.hpp"
#include "grid/interpolation.hpp"
#include "model/problem.hpp"
#include "grid/snapshot.hpp"
#include "study/activation.hpp"
#include "study/convergence.hpp"
#include "support.hpp"

using fhn::test::config_error;
using fhn::test::config_from;
using fhn::test::contains;

namespace {

fhn::Snapshot advance(const fhn::Config& c, fhn::index_t steps) {
  return fhn::test::run_scheme(c, steps).state;
}

}  // namespace

TEST_CASE("box: data constant along z step as the sheet, bit for bit, in every plane") {
  // A Dirichlet side, an S1 strip, a stimulus across the whole depth: each plane z = const of
  // the box is the sheet (d_zz = 0 exactly, added last).
  const std::string physics =
      "initial: {v: {type: rectangle, x_min: 0, x_max: 3, value: 1}}\n"
      "boundary: {left: {type: dirichlet, value: 0.2}, top: {type: dirichlet, value: 0.1}}\n"
      "time: {end: 20, dt: 0.04}\n";
  const fhn::Snapshot sheet = advance(
      config_from("domain: {length: [20, 8], dx: 0.5}\n" + physics +
                  "stimulus: [{x_min: 8, x_max: 12, y_min: 2, y_max: 5, start: 5, duration: 2, "
                  "amplitude: 0.6}]\n"),
      500);
  const fhn::Snapshot box = advance(
      config_from("domain: {length: [20, 8, 3], dx: 0.5}\n" + physics +
                  "stimulus: [{x_min: 8, x_max: 12, y_min: 2, y_max: 5, start: 5, duration: 2, "
                  "amplitude: 0.6}]\n"),
      500);
  const std::size_t plane = sheet.v.size();
  REQUIRE(box.v.size() == plane * 7);
  CHECK(*std::max_element(sheet.v.begin(), sheet.v.end()) > 0.5);  // a wave is under way
  bool equal = true;
  for (std::size_t k = 0; k < 7; ++k)
    for (std::size_t n = 0; n < plane; ++n)
      equal = equal && box.v[n + plane * k] == sheet.v[n] && box.w[n + plane * k] == sheet.w[n];
  CHECK(equal);
}

TEST_CASE("box: a planar wave along x steps as the cable, and one along z as the cable too") {
  const std::string physics =
      "initial: {v: {type: tanh_front, position: 10, width: 2, left: 1, right: 0}}\n"
      "stimulus: [{x_min: 30, x_max: 32, start: 5, duration: 1, amplitude: 0.8}]\n"
      "time: {end: 20, dt: 0.04}\n";
  const fhn::Snapshot cable = advance(
      config_from("domain: {length: 40, dx: 0.5}\nboundary: {left: {type: dirichlet, value: 1}}\n" +
                  physics),
      500);
  const fhn::Snapshot box = advance(
      config_from("domain: {length: [40, 1, 1.5], dx: 0.5}\n"
                  "boundary: {left: {type: dirichlet, value: 1}}\n" + physics),
      500);
  const std::size_t nx = cable.v.size();
  REQUIRE(box.v.size() == nx * 3 * 4);
  CHECK(*std::max_element(cable.v.begin(), cable.v.end()) > 0.9);
  bool equal = true;
  for (std::size_t row = 0; row < 12; ++row)
    for (std::size_t i = 0; i < nx; ++i)
      equal = equal && box.v[i + nx * row] == cable.v[i] && box.w[i + nx * row] == cable.w[i];
  CHECK(equal);
  // Along z: the front faces (z = 0) held at 1, the wave runs to the back.
  const fhn::Snapshot along_z = advance(
      config_from("domain: {length: [1, 1, 40], dx: 0.5}\n"
                  "boundary: {front: {type: dirichlet, value: 1}}\n"
                  "initial: {v: {type: tanh_front, axis: z, position: 10, width: 2, left: 1, "
                  "right: 0}}\n"
                  "stimulus: [{x_min: 0, x_max: 1, z_min: 30, z_max: 32, start: 5, duration: 1, "
                  "amplitude: 0.8}]\ntime: {end: 20, dt: 0.04}\n"),
      500);
  REQUIRE(along_z.v.size() == 9 * nx);
  bool equal_z = true;
  for (std::size_t k = 0; k < nx; ++k)
    for (std::size_t n = 0; n < 9; ++n) equal_z = equal_z && along_z.v[n + 9 * k] == cable.v[k];
  CHECK(equal_z);
}

TEST_CASE("box: the explicit scheme converges with order 2 in dx and 1 in dt") {
  const std::string smooth =
      "domain: {length: [4, 3, 2]}\n"
      "initial: {v: {type: gaussian, center: [2, 1.25, 0.9], width2: 1.5, amplitude: 0.8}}\n"
      "time: {end: 0.5}\n";
  std::vector<fhn::Snapshot> dx_levels;
  for (const char* dx : {"0.5", "0.25", "0.125"})
    dx_levels.push_back(fhn::final_state(config_from(
        smooth, {std::string("domain.dx=") + dx, "time.dt=0.001953125", "scheme.explicit_limit=diffusion"})));
  for (double p : fhn::successive_orders(dx_levels, fhn::Norm::max)) CHECK(p == doctest::Approx(2.0).epsilon(0.1));
  std::vector<fhn::Snapshot> dt_levels;
  for (const char* dt : {"0.02", "0.01", "0.005", "0.0025"})
    dt_levels.push_back(fhn::final_state(config_from(smooth, {"domain.dx=0.5", std::string("time.dt=") + dt})));
  for (double p : fhn::successive_orders(dt_levels, fhn::Norm::max)) CHECK(p == doctest::Approx(1.0).epsilon(0.1));
}

TEST_CASE("box: probes are trilinear, exact at nodes; the header names x, y and z") {
  fhn::Domain d;
  d.dims = 3;
  d.nodes = {5, 4, 3};
  d.length = {2.0, 1.5, 1.0};
  d.dx = 0.5;
  // u = 1 + x - 2 y + 3 z + x y z is trilinear: exact everywhere.
  std::vector<double> u(static_cast<std::size_t>(d.node_count()));
  auto f = [](double x, double y, double z) { return 1 + x - 2 * y + 3 * z + x * y * z; };
  for (fhn::index_t n = 0; n < d.node_count(); ++n) {
    const fhn::Point p = d.position(n);
    u[static_cast<std::size_t>(n)] = f(p[0], p[1], p[2]);
  }
  CHECK(fhn::multilinear_at(d, u.data(), {0.7, 1.1, 0.35}) == doctest::Approx(f(0.7, 1.1, 0.35)));
  CHECK(fhn::multilinear_at(d, u.data(), {1.5, 0.5, 1.0}) == f(1.5, 0.5, 1.0));
  const fhn::Config c = config_from("domain: {length: [20, 10, 5], dx: 0.5}\ntime: {end: 1, dt: 0.02}\n"
                                    "output: {vtk: false, probes: [[10, 5, 2.5], [1, 2, 3]]}\n");
  CHECK(c.output.probes[1][2] == 3.0);
}

TEST_CASE("box config: keys, defaults, the resolved copy, and what boxes refuse for now") {
  const std::string box = "domain: {length: [20, 10, 5], dx: 0.5}\ntime: {end: 1, dt: 0.02}\n";
  const fhn::Config c = config_from(
      box + "boundary: {back: {type: dirichlet, value: 0.3}}\n"
            "initial: {v: {type: rectangle, x_min: 0, x_max: 2, z_min: 1, z_max: 2}}\n"
            "stimulus: [{x_min: 1, x_max: 2, z_min: 4, start: 0, duration: 1, amplitude: 1}]\n");
  CHECK(c.domain.dims == 3);
  CHECK(c.domain.nodes[2] == 11);
  CHECK(c.boundary.back.type == fhn::BoundaryType::dirichlet);
  CHECK(c.initial.v.z_max == 2.0);
  CHECK(c.initial.v.y_max == 10.0);  // the whole height by default
  CHECK(c.stimulus[0].z_max == 5.0);
  CHECK_FALSE(c.output.tips.enabled);
  CHECK(c.output.activation.enabled == c.output.vtk);  // 3-D activation maps beside the frames
  CHECK(c.output.probes.size() == 3);
  CHECK(c.output.probes[2][2] == 5.0);  // the far corner
  // The initial data and the Dirichlet face: v = 1 in the slab 0 <= x <= 2, 1 <= z <= 2, and
  // 0.3 on the back face z = 5.
  const fhn::Problem p = fhn::make_problem(c);
  auto v0 = [&](fhn::index_t i, fhn::index_t j, fhn::index_t k) {
    return p.v0[static_cast<std::size_t>(i + 41 * (j + 21 * k))];
  };
  CHECK(v0(2, 10, 3) == 1.0);
  CHECK(v0(2, 10, 5) == 0.0);
  CHECK(v0(30, 3, 10) == 0.3);
  const fhn::Config again = fhn::load_config_text(fhn::to_yaml(c), "again.yaml");
  CHECK(fhn::to_yaml(again) == fhn::to_yaml(c));
  CHECK(again.boundary.back.value == 0.3);

  CHECK(contains(config_error(box + "output: {probes: [[1, 2]]}\n"),
                 "output.probes[0]: expected a list [x, y, z] (the domain has 3 axes)"));
  CHECK(contains(config_error(box + "scheme: {type: crank_nicolson, crank_nicolson: {formulation: "
                                    "newton}}\n"),
                 "newton (the coupled system of a step) is for cables; on a sheet or a box use adi"));
  CHECK(contains(config_error(box + "tissue: [{shape: disc, center: [5, 5], radius: 1}]\n"),
                 "tissue: applies to sheets only (domain.length: [Lx, Ly]); boxes (domain.length: "
                 "[Lx, Ly, Lz]) do not take it yet"));
  CHECK(contains(config_error(box + "output: {tips: {enabled: true}}\n"),
                 "output.tips.enabled: spiral tips are found on sheets only (domain.length: [Lx, "
                 "Ly]); a box has filaments (output.filaments)"));
  CHECK(contains(config_error(box + "initial: {v: {type: step, axis: w}}\n"),
                 "expected x, y or z"));
  const std::string sheet = "domain: {length: [20, 10], dx: 0.5}\ntime: {end: 1, dt: 0.02}\n";
  CHECK(contains(config_error(sheet + "output: {filaments: {enabled: true}}\n"),
                 "output.filaments.enabled: filaments are found in boxes only (domain.length: "
                 "[Lx, Ly, Lz]); a sheet has spiral tips (output.tips)"));
  CHECK(contains(config_error(sheet + "output: {filaments: {settle: 3}}\n"),
                 ":3:30: output.filaments.settle: the settling time of a scroll ring's rate "
                 "applies to boxes only"));
  CHECK(c.output.filaments.enabled);
  CHECK(contains(config_error(sheet + "boundary: {front: {type: no_flux}}\n"),
                 "boundary.front: applies to boxes only (domain.length: [Lx, Ly, Lz])"));
  CHECK(contains(config_error(sheet + "stimulus: [{x_min: 0, x_max: 1, z_min: 0, start: 0, "
                                      "duration: 1, amplitude: 1}]\n"),
                 "stimulus[0].z_min: applies to boxes only"));
  // The box's explicit limit: diffusion 12 D/dx^2 with the reaction's slope.
  CHECK(contains(config_error("domain: {length: [20, 10, 5], dx: 0.5}\ntime: {end: 7, dt: 0.05}\n"
                              "scheme: {explicit_limit: diffusion}\n"),
                 "exceeds the explicit stability limit dx^2/(6 D) = 0.041666666666666664"));
}

TEST_CASE("box ADI (Douglas): second order in dt and dx, bounded at dt/dx^2 = 20, the explicit "
          "scheme's limit, and a planar wave as the cable's split Crank-Nicolson") {
  const std::string smooth =
      "domain: {length: [4, 3, 2], dx: 0.25}\n"
      "initial: {v: {type: gaussian, center: [2, 1.25, 0.9], width2: 1.5, amplitude: 0.8}}\n"
      "boundary: {left: {type: dirichlet, value: 0.1}}\n"
      "scheme: {type: crank_nicolson}\ntime: {end: 1}\n";
  CHECK(fhn::test::run_scheme(config_from(smooth, {"time.dt=0.1"}), 1).scheme->name().find(
            "Douglas ADI") != std::string::npos);
  std::vector<fhn::Snapshot> dt_levels;
  for (const char* dt : {"0.1", "0.05", "0.025", "0.0125"})
    dt_levels.push_back(fhn::final_state(config_from(smooth, {std::string("time.dt=") + dt})));
  for (double p : fhn::successive_orders(dt_levels, fhn::Norm::max)) CHECK(p == doctest::Approx(2.0).epsilon(0.1));
  // Second order in dx too (dt fixed: its error is the same on every grid and cancels).
  std::vector<fhn::Snapshot> dx_levels;
  for (const char* dx : {"0.5", "0.25", "0.125"})
    dx_levels.push_back(fhn::final_state(
        config_from(smooth, {std::string("domain.dx=") + dx, "time.dt=0.025"})));
  for (double p : fhn::successive_orders(dx_levels, fhn::Norm::max)) CHECK(p == doctest::Approx(2.0).epsilon(0.1));
  // Its limit is the explicit scheme's: both at small dt agree to their time errors.
  const fhn::Snapshot explicit_run =
      fhn::final_state(config_from(smooth, {"scheme.type=explicit", "time.dt=0.0015625"}));
  CHECK(fhn::distance_on_common_nodes(dt_levels.back(), explicit_run, fhn::Norm::max) < 2e-4);
  // dt = 20 dx^2, far beyond the explicit limit: bounded, no oscillation blows up.
  const fhn::Snapshot big = fhn::final_state(config_from(smooth, {"time.dt=1.25", "time.end=50", "output.every=1.25"}));
  CHECK(*std::max_element(big.v.begin(), big.v.end()) < 1.01);
  CHECK(*std::min_element(big.v.begin(), big.v.end()) > -0.3);
  // A planar wave along x: the y and z solves see constant lines, so the box is the cable's
  // split Crank-Nicolson to round-off.
  const std::string physics =
      "initial: {v: {type: tanh_front, position: 10, width: 2, left: 1, right: 0}}\n"
      "boundary: {left: {type: dirichlet, value: 1}}\n"
      "scheme: {type: crank_nicolson, crank_nicolson: {formulation: adi}}\n"
      "time: {end: 20, dt: 0.1}\n";
  const fhn::Snapshot cable = advance(config_from("domain: {length: 40, dx: 0.5}\n" + physics), 200);
  const fhn::Snapshot box = advance(config_from("domain: {length: [40, 1, 1.5], dx: 0.5}\n" + physics), 200);
  const std::size_t nx = cable.v.size();
  REQUIRE(box.v.size() == nx * 12);
  CHECK(*std::max_element(cable.v.begin(), cable.v.end()) > 0.9);
  double worst = 0.0;
  for (std::size_t row = 0; row < 12; ++row)
    for (std::size_t i = 0; i < nx; ++i)
      worst = std::max({worst, std::abs(box.v[i + nx * row] - cable.v[i]),
                        std::abs(box.w[i + nx * row] - cable.w[i])});
  CHECK(worst < 1e-12);
}

TEST_CASE("box activation map: an oblique front's speed is exact in 3-D") {
  // A front crossing x at t* = a x + b y + c z: central and one-sided differences of a linear t*
  // are exact, so CV = 1 / |(a, b, c)| at every node (to rounding).
  fhn::Domain d;
  d.dims = 3;
  d.dx = 0.5;
  d.length = {4.0, 3.0, 2.0};
  d.nodes = {9, 7, 5};
  const fhn::real a = 0.3, b = 0.2, c = 0.6;
  fhn::ActivationMap map(d, 0.0, false);
  std::vector<fhn::real> times(static_cast<std::size_t>(d.node_count()));
  for (fhn::index_t n = 0; n < d.node_count(); ++n) {
    const fhn::Point p = d.position(n);
    times[static_cast<std::size_t>(n)] = a * p[0] + b * p[1] + c * p[2];
  }
  map.take(times.data(), nullptr);
  const std::vector<fhn::real> cv = map.conduction_velocity();
  const fhn::real speed = 1.0 / std::sqrt(a * a + b * b + c * c);
  for (fhn::index_t n = 0; n < d.node_count(); ++n) {
    CHECK(cv[static_cast<std::size_t>(n)] == doctest::Approx(speed).epsilon(1e-11));
  }
}
