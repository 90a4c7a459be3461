// ADI (Peaceman-Rachford with Strang-split reaction) on sheets with a tissue mask, D per node and
// per-node kinetics parameters (schemes/adi_point.hpp, "Sheets with a tissue mask or D per
// node"): the diffusion step keeps the total of v and reproduces a steady profile across a step
// in D; the scheme converges at second order in dt to the solution the explicit scheme converges
// to; anisotropy is refused, naming the scheme that runs it. (test_tissue.cpp: a grid-aligned
// mask runs as the smaller domain, for both schemes.)
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "core/format.hpp"
#include "model/problem.hpp"
#include "parallel/communicator.hpp"
#include "schemes/adi_setup.hpp"
#include "schemes/node_updates.hpp"
#include "schemes/scheme.hpp"
#include "solvers/batched_tridiagonal.hpp"
#include "support.hpp"

namespace {

using fhn::index_t;
using fhn::real;

// One diffusion step of length dt (the two half-steps, no reaction) with the setup's per-node rows:
// (I - (k/2) L_x) v* = (I + (k/2) L_y) u, then (I - (k/2) L_y) v+ = (I + (k/2) L_x) v*.
std::vector<real> diffusion_step(const fhn::AdiSetup& s, index_t nx, index_t ny,
                                 const std::vector<real>& u) {
  using fhn::solvers::BatchLayout;
  auto thomas = fhn::solvers::make_batched_tridiagonal_solver(fhn::solvers::TridiagonalBackend::thomas);
  std::vector<real> half(u.size()), out(u.size());
  for (index_t c = 0; c < nx * ny; ++c)
    half[c] = fhn::adi_medium_rhs(u.data(), c, nx, s.node_lower[1][c], s.node_upper[1][c]);
  thomas->solve(BatchLayout::rows(nx, ny), s.node_lower[0].data(), s.node_diag[0].data(),
                s.node_upper[0].data(), half.data());
  for (index_t c = 0; c < nx * ny; ++c)
    out[c] = fhn::adi_medium_rhs(half.data(), c, 1, s.node_lower[0][c], s.node_upper[0][c]);
  thomas->solve(BatchLayout::columns(nx, ny), s.node_lower[1].data(), s.node_diag[1].data(),
                s.node_upper[1].data(), out.data());
  return out;
}

// The number of tissue quadrants at each node: its control volume in units of h^2 / 4.
real quarters(std::uint8_t byte) {
  const fhn::Quadrants t = fhn::quadrants_of(byte);
  return t.ne + t.nw + t.se + t.sw;
}

}  // namespace

TEST_CASE("ADI's diffusion step keeps the total of v on a masked sheet with a scar of D = 0") {
  // A disc and a triangle removed, D varying at random with a scar of D = 0 on the left: for a
  // random state, sum_P V_P v_P after a diffusion step at dt / h^2 = 5 equals the sum before to
  // round-off (each half-step conserves it, adi_point.hpp). A node outside the tissue keeps its
  // value and no line couples across the tissue's edge or into the scar.
  const fhn::Config c = fhn::test::config_from(
      "domain: {length: [20, 16], dx: 1}\ntime: {end: 10, dt: 5}\nscheme: {type: crank_nicolson}\n"
      "tissue:\n"
      "  - {shape: disc, center: [8, 8], radius: 3.5}\n"
      "  - {shape: polygon, points: [[14, 0], [20, 0], [20, 9]]}\n"
      "fields:\n"
      "  - {parameter: diffusion, type: gradient, axis: y, from: 0.2, to: 2}\n"
      "  - {parameter: diffusion, shape: rectangle, x_max: 3.5, value: 0}\n"
      "output: {every: 10, probes: []}\n");
  const fhn::Problem p = fhn::make_problem(c);
  const fhn::AdiSetup s = fhn::adi_setup(p, c.scheme.crank_nicolson);
  REQUIRE(s.medium());
  const index_t nx = p.domain.nodes[0], ny = p.domain.nodes[1];
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<real> unit(-1.0, 1.0);
  std::vector<real> u(static_cast<std::size_t>(nx * ny));
  for (real& x : u) x = unit(rng);
  const std::vector<real> after = diffusion_step(s, nx, ny, u);
  real before_total = 0.0, after_total = 0.0, scale = 0.0, moved = 0.0;
  int outside = 0;
  for (index_t node = 0; node < nx * ny; ++node) {
    const real volume = quarters(s.quadrants[node]);
    before_total += volume * u[node];
    after_total += volume * after[node];
    scale += volume * std::abs(u[node]);
    if (s.quadrants[node] == 0) {
      ++outside;
      CHECK(after[node] == u[node]);
      for (int axis = 0; axis < 2; ++axis)
        CHECK((s.node_lower[axis][node] == 0.0 && s.node_diag[axis][node] == 1.0 &&
               s.node_upper[axis][node] == 0.0));
    } else if (node % nx <= 3) {
      CHECK(after[node] == doctest::Approx(u[node]).epsilon(1e-14));  // D = 0: cut off
    } else {
      moved = std::max(moved, std::abs(after[node] - u[node]));
    }
  }
  MESSAGE("total before ", before_total, ", after ", after_total, " (scale ", scale, ")");
  CHECK(outside > 40);
  CHECK(moved > 0.1);  // the step did diffuse
  CHECK(std::abs(after_total - before_total) < 1e-13 * scale);
}

TEST_CASE("ADI across a step in D: a steady profile linear in each part is a fixed point") {
  // D = 1 left of x = 10.25, D = 4 right of it, v held at both ends by Dirichlet sides at the
  // values of the steady solution of (D u')' = 0, slopes 1 and 1/4 (test_heterogeneous.cpp: the
  // harmonic mean on the step's face carries the one flux). Both half-steps leave it unchanged to
  // round-off at dt / h^2 = 40.
  const real right = 3.0 + 10.25 + 0.25 * 9.75;
  const fhn::Config c = fhn::test::config_from(
      "domain: {length: [20, 4], dx: 0.5}\ntime: {end: 20, dt: 10}\nscheme: {type: crank_nicolson}\n"
      "boundary: {left: {type: dirichlet, value: 3}, right: {type: dirichlet, value: " +
      fhn::format_exact(right) + "}}\n"
      "fields: [{parameter: diffusion, shape: rectangle, x_min: 10.25, value: 4}]\n"
      "output: {every: 20, probes: []}\n");
  const fhn::Problem p = fhn::make_problem(c);
  const fhn::AdiSetup s = fhn::adi_setup(p, c.scheme.crank_nicolson);
  REQUIRE(s.medium());
  const index_t nx = p.domain.nodes[0], ny = p.domain.nodes[1];
  std::vector<real> u(static_cast<std::size_t>(nx * ny));
  for (index_t node = 0; node < nx * ny; ++node) {
    const real x = 0.5 * static_cast<real>(node % nx);
    u[node] = x < 10.25 ? 3.0 + x : 3.0 + 10.25 + 0.25 * (x - 10.25);
  }
  const std::vector<real> after = diffusion_step(s, nx, ny, u);
  real worst = 0.0;
  for (std::size_t node = 0; node < u.size(); ++node)
    worst = std::max(worst, std::abs(after[node] - u[node]));
  MESSAGE("largest change of the steady profile in one ADI step: ", worst);
  CHECK(worst < 1e-12);
}

TEST_CASE("ADI with a mask, a scar and a kinetics field converges at second order in dt") {
  // An obstacle, a scar of D = 0, a region of D = 2 and `a` varying along y; an excited strip
  // starts a wave round them (no stimulus: its switching on and off in time would limit every
  // scheme to first order). ADI at dt = 0.2, 0.1, 0.05: the differences between successive runs fall
  // 4-fold (second order), and the finest is close to the explicit scheme's run at dt = 0.002
  // (the same spatial discretisation; both converge to its solution in time).
  const std::string yaml =
      "domain: {length: [24, 16], dx: 0.5}\n"
      "tissue: [{shape: disc, center: [12, 8], radius: 3}]\n"
      "fields:\n"
      "  - {parameter: diffusion, shape: rectangle, x_min: 17, x_max: 19, y_min: 4, y_max: 12, value: 0}\n"
      "  - {parameter: diffusion, shape: disc, center: [6, 12], radius: 3, value: 2, edge: 1}\n"
      "  - {parameter: a, type: gradient, axis: y, from: 0.05, to: 0.15}\n"
      "initial: {v: {type: rectangle, x_min: 0, x_max: 2, value: 1}}\n"
      "time: {end: 20}\noutput: {probes: []}\n";
  auto run = [&](const std::string& scheme, real dt) {
    const fhn::Config c = fhn::test::config_from(
        yaml + "scheme: {type: " + scheme + "}\n", {"time.dt=" + fhn::format_exact(dt)});
    return fhn::test::run_scheme(c, c.time.steps).state;
  };
  const fhn::Snapshot coarse = run("crank_nicolson", 0.2), middle = run("crank_nicolson", 0.1),
                      fine = run("crank_nicolson", 0.05);
  const real d1 = fhn::test::max_state_difference(coarse, middle);
  const real d2 = fhn::test::max_state_difference(middle, fine);
  const real order = std::log2(d1 / d2);
  // Both schemes' limits dt -> 0 by Richardson extrapolation, ADI's second order
  // (4 u_{0.05} - u_{0.1}) / 3 and forward Euler's first order 2 u_{0.001} - u_{0.002}: they
  // agree far closer than either run does with the other.
  const fhn::Snapshot euler = run("explicit", 0.002), euler_fine = run("explicit", 0.001);
  real limits = 0.0, runs = 0.0;
  for (std::size_t node = 0; node < fine.v.size(); ++node) {
    const real adi = (4.0 * fine.v[node] - middle.v[node]) / 3.0;
    const real explicit_limit = 2.0 * euler_fine.v[node] - euler.v[node];
    limits = std::max(limits, std::abs(adi - explicit_limit));
    runs = std::max(runs, std::abs(fine.v[node] - euler_fine.v[node]));
  }
  MESSAGE("ADI differences ", d1, ", ", d2, ": observed order ", order,
          "; ADI (dt 0.05) against explicit (dt 0.001): ", runs, ", their limits: ", limits);
  CHECK(*std::max_element(fine.v.begin(), fine.v.end()) > 0.5);
  CHECK(order > 1.8);
  CHECK(order < 2.3);
  CHECK(limits < 0.1 * runs);
}

TEST_CASE("ADI refuses anisotropy, naming the scheme that runs it; slabs refuse fields") {
  const std::string sheet =
      "domain: {length: [10, 10], dx: 0.5}\ntime: {dt: 0.1}\nscheme: {type: crank_nicolson}\n"
      "output: {probes: []}\n";
  // The loader refuses the config (test_config_checks.cpp); the factory a Problem made by hand.
  fhn::Config fibres = fhn::test::config_from(
      sheet + "anisotropy: {longitudinal: 1, transverse: 0.25, angle: 30}\n",
      {"scheme.type=explicit", "time.dt=0.05"});
  fibres.scheme.type = fhn::SchemeType::crank_nicolson;
  CHECK(fhn::test::thrown_message<fhn::ConfigError>([&] {
          fhn::make_scheme(fibres, fhn::make_problem(fibres));
        }) == "anisotropy: anisotropic diffusion is not supported by crank_nicolson "
              "(formulation adi) on the cpu backend: its line solves take the second differences "
              "along x and along y implicitly, and the tensor's mixed term D_xy couples the lines "
              "(the reasons in configs/README.md, anisotropy); run it with scheme.type: explicit");
  const fhn::Config masked =
      fhn::test::config_from(sheet + "tissue: [{shape: disc, center: [5, 5], radius: 2}]\n");
  const auto comm = fhn::make_serial_communicator();
  CHECK(fhn::test::contains(fhn::test::thrown_message<fhn::ConfigError>([&] {
                              fhn::make_slab_scheme(masked, fhn::make_problem(masked), *comm);
                            }),
                            "per-node parameters (a tissue mask (tissue:)) are not supported by "
                            "crank_nicolson (formulation adi) on the cpu backend over several ranks"));
}
