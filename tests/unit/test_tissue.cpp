// Tissue masks on sheets (tissue:): where the medium is, no flux through its edge (conservative:
// diffusion keeps the total of v), a planar wave around a disc obstacle converging as dx falls
// (the staircase edge), no tips on the edge, and the refusals of what does not read a mask.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "config/loader.hpp"
#include "model/problem.hpp"
#include "model/tissue.hpp"
#include "model/vti_image.hpp"
#include "parallel/communicator.hpp"
#include "schemes/node_updates.hpp"
#include "study/spiral_tips.hpp"
#include "support.hpp"

namespace {

using fhn::index_t;
using fhn::real;

}  // namespace

TEST_CASE("tissue regions apply in order: a disc removed, a rectangle and a polygon added back") {
  const fhn::Config c = fhn::test::config_from(
      "domain: {length: [20, 10], dx: 1}\ntime: {dt: 0.05}\n"
      "tissue:\n"
      "  - {shape: disc, center: [10, 5], radius: 3}\n"           // op: remove by default
      "  - {shape: rectangle, op: add, x_min: 9, x_max: 11, y_min: 4, y_max: 6}\n"
      "  - {shape: polygon, op: remove, points: [[0, 0], [4, 0], [0, 4]]}\n"
      "output: {probes: [[10, 5], [15, 5]]}\n");
  const fhn::Problem p = fhn::make_problem(c);
  REQUIRE(p.fields.node_type.size() == 21 * 11);
  auto outside = [&](int i, int j) { return p.fields.node_type[static_cast<std::size_t>(i + 21 * j)] != 0; };
  CHECK(outside(10, 8));       // in the disc (distance 3: edges included)
  CHECK(outside(12, 7));       // distance sqrt(8) < 3
  CHECK_FALSE(outside(10, 5)); // the rectangle added back
  CHECK_FALSE(outside(13, 7)); // distance sqrt(13) > 3
  CHECK(outside(0, 0));        // the triangle's corner
  CHECK(outside(1, 2));        // inside the triangle
  CHECK_FALSE(outside(3, 2));  // beyond its hypotenuse x + y = 4
  CHECK_FALSE(outside(20, 10));
  // A node outside starts at the form's resting state.
  CHECK(p.v0[static_cast<std::size_t>(10 + 21 * 8)] == 0.0);
  // A first region that adds starts from no tissue.
  std::vector<fhn::TissueRegion> only_disc(1);
  only_disc[0].add = true;
  only_disc[0].center = {5.0, 5.0, 0.0};
  only_disc[0].radius = 2.0;
  CHECK(fhn::in_tissue(only_disc, {5.0, 6.0, 0.0}));
  CHECK_FALSE(fhn::in_tissue(only_disc, {9.0, 5.0, 0.0}));
  CHECK(fhn::in_tissue({}, {9.0, 5.0, 0.0}));
}

TEST_CASE("no flux through the tissue's edge: diffusion keeps the total of v, whatever the mask") {
  // masked_laplacian at every tissue node of a random state, summed with the nodes' control
  // volumes V (a quarter cell per tissue cell at the node), is 0 to round-off: each face's flux
  // enters its two nodes with opposite signs. With no node outside it is the sheet's Laplacian,
  // and the branch-free interior form equals the general one. The heterogeneous stencil (a D per
  // node with a scar of D = 0, and an anisotropic tensor whose angle varies) conserves likewise.
  const fhn::Config c = fhn::test::config_from(
      "domain: {length: [20, 16], dx: 1}\ntime: {dt: 0.05}\n"
      "tissue:\n"
      "  - {shape: disc, center: [8, 8], radius: 3.5}\n"
      "  - {shape: polygon, points: [[14, 0], [20, 0], [20, 9]]}\n"
      "  - {shape: rectangle, x_min: 0, x_max: 2, y_min: 12, y_max: 16}\n"
      "output: {probes: []}\n");
  const fhn::Problem p = fhn::make_problem(c);
  const fhn::NodeParams q = fhn::node_params(p);
  const index_t nx = q.n[0], ny = q.n[1];
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<real> unit(-1.0, 1.0);
  std::vector<real> u(static_cast<std::size_t>(nx * ny));
  for (real& x : u) x = unit(rng);
  const std::vector<std::uint8_t> quadrants = fhn::tissue_quadrants(p.fields.node_type, p.domain);
  const std::vector<std::uint8_t> all_tissue = fhn::tissue_quadrants({}, p.domain);
  // A heterogeneous medium on the same mask: D from 0 (a scar on the left) to 2, and a tensor
  // whose fibres turn across the sheet.
  std::vector<real> d(u.size()), xx(u.size()), xy(u.size()), yy(u.size());
  for (std::size_t node = 0; node < u.size(); ++node) {
    const real x = static_cast<real>(node % static_cast<std::size_t>(nx));
    d[node] = x < 4.0 ? 0.0 : 2.0 * unit(rng) * unit(rng) + 0.1;
    const real angle = 0.3 * x, cs = std::cos(angle), sn = std::sin(angle);
    xx[node] = 0.2 + 0.8 * cs * cs;
    xy[node] = 0.8 * cs * sn;
    yy[node] = 0.2 + 0.8 * sn * sn;
  }
  fhn::MediumView scar = fhn::medium_constants(p), fibres = scar;
  scar.quadrants = fibres.quadrants = quadrants.data();
  scar.dxx = scar.dyy = d.data();
  fibres.dxx = xx.data();
  fibres.dxy = xy.data();
  fibres.dyy = yy.data();
  fibres.mixed = true;
  real total = 0.0, scale = 0.0, scar_total = 0.0, scar_scale = 0.0, fibre_total = 0.0,
       fibre_scale = 0.0;
  int outside_nodes = 0;
  for (index_t j = 0; j < ny; ++j)
    for (index_t i = 0; i < nx; ++i) {
      const index_t at = i + nx * j;
      CHECK(fhn::masked_laplacian<false>(u.data(), all_tissue[at], at, q) ==
            doctest::Approx(fhn::laplacian(u.data(), i, j, q)).epsilon(1e-14));
      if (i > 0 && i < nx - 1 && j > 0 && j < ny - 1)
        CHECK(fhn::masked_laplacian<true>(u.data(), quadrants[at], at, q) ==
              fhn::masked_laplacian<false>(u.data(), quadrants[at], at, q));
      const fhn::MaskedStencil<real> m = fhn::masked_stencil_of<real>(quadrants[at]);
      CHECK((p.fields.node_type[at] != 0) == (quadrants[at] == 0));
      if (quadrants[at] == 0) {
        ++outside_nodes;
        CHECK(m.inv_volume == 0.0);
        continue;
      }
      REQUIRE(m.inv_volume > 0.0);
      const real diffusion = fhn::masked_laplacian<false>(u.data(), quadrants[at], at, q);
      total += diffusion / m.inv_volume;
      scale += std::abs(diffusion / m.inv_volume);
      const real in_scar = fhn::tensor_laplacian<false>(u.data(), quadrants[at], at, q, scar);
      if (d[at] == 0.0 && i < 3) CHECK(in_scar == 0.0);  // cut off: every face's D is 0
      scar_total += in_scar / m.inv_volume;
      scar_scale += std::abs(in_scar / m.inv_volume);
      const real along = fhn::tensor_laplacian<false>(u.data(), quadrants[at], at, q, fibres);
      fibre_total += along / m.inv_volume;
      fibre_scale += std::abs(along / m.inv_volume);
    }
  CHECK(outside_nodes > 40);
  CHECK(std::abs(total) < 1e-13 * scale);
  CHECK(scar_scale > 1.0);
  CHECK(std::abs(scar_total) < 1e-13 * scar_scale);
  CHECK(fibre_scale > 1.0);
  CHECK(std::abs(fibre_total) < 1e-13 * fibre_scale);
}

TEST_CASE("a mask that cuts out a grid-aligned rectangle runs as the smaller domain") {
  // The left half of a 20 x 10 sheet as tissue (the first region adds) against a 10 x 10 sheet:
  // at the cut the masked stencil is the mirrored ghost node of a side (for ADI: the nodes' rows
  // there are the ghost node's, (1 + r, -r)), so the runs agree at every shared node to
  // round-off; outside the mask the state stays at rest; a mask of the whole sheet is no mask
  // (bit for bit).
  for (const char* scheme : {"explicit", "crank_nicolson"}) {
    CAPTURE(scheme);
    const std::string run =
        "initial: {v: {type: gaussian, center: [4, 5], width2: 4}}\n"
        "stimulus: [{x_min: 0, x_max: 2, start: 1, duration: 1, amplitude: 0.5}]\n"
        "time: {end: 20, dt: 0.05}\noutput: {probes: []}\nscheme: {type: " +
        std::string(scheme) + "}\n";
    const fhn::Config half = fhn::test::config_from(
        "domain: {length: [20, 10], dx: 0.5}\n"
        "tissue: [{shape: rectangle, op: add, x_min: 0, x_max: 10}]\n" + run);
    const fhn::Config small = fhn::test::config_from("domain: {length: [10, 10], dx: 0.5}\n" + run);
    const auto a = fhn::test::run_scheme(half, 400), b = fhn::test::run_scheme(small, 400);
    real worst = 0.0, largest = 0.0;
    for (index_t j = 0; j < 21; ++j)
      for (index_t i = 0; i < 21; ++i) {
        const auto at_half = static_cast<std::size_t>(i + 41 * j), at_small = static_cast<std::size_t>(i + 21 * j);
        worst = std::max({worst, std::abs(a.state.v[at_half] - b.state.v[at_small]),
                          std::abs(a.state.w[at_half] - b.state.w[at_small])});
        largest = std::max(largest, b.state.v[at_small]);
      }
    MESSAGE(std::string(scheme), ": masked half against the smaller sheet: max difference ", worst);
    CHECK(largest > 0.5);  // a wave ran
    CHECK(worst < 1e-12);
    CHECK(a.state.v[static_cast<std::size_t>(30 + 41 * 5)] == 0.0);
    // A mask of the whole sheet: the unmasked run, bit for bit.
    const fhn::Config whole = fhn::test::config_from(
        "domain: {length: [10, 10], dx: 0.5}\n"
        "tissue: [{shape: disc, center: [50, 50], radius: 1}]\n" + run);
    CHECK(fhn::make_problem(whole).fields.node_type.empty());
    CHECK(fhn::test::max_state_difference(fhn::test::run_scheme(whole, 400).state, b.state) == 0.0);
  }
}

TEST_CASE("a planar wave passes a disc obstacle; the delay behind it converges as dx falls") {
  // A front from the left edge past a disc of radius 4 at (15, 12): the delay of its arrival at
  // (26, 12), behind the disc, against (26, 3), beside it. Measured: 2.3172, 2.1348, 2.0586 at
  // dx = 0.5, 0.25, 0.125 (dt = dx^2 / 5): differences 0.182 and 0.076. The edge is a staircase
  // of the grid, so the error falls at about first order, but not evenly (how the disc cuts the
  // grid changes with dx): docs/history/verification-2026-11.md has the numbers of a larger case.
  const std::string yaml =
      "domain: {length: [36, 24], dx: 0.5}\n"
      "tissue: [{shape: disc, center: [15, 12], radius: 4}]\n"
      "initial: {v: {type: rectangle, x_min: 0, x_max: 3, value: 1}}\n"
      "time: {end: 45, dt: 0.05}\n"
      "output: {every: 0.05, probes: [[26, 12]]}\n";
  const real dxs[] = {0.5, 0.25, 0.125};
  real delay[3];
  for (int k = 0; k < 3; ++k) {
    const real dt = dxs[k] * dxs[k] / 5.0;
    const fhn::Config c = fhn::test::config_from(
        yaml, {"domain.dx=" + std::to_string(dxs[k]), "time.dt=" + std::to_string(dt),
               "output.every=" + std::to_string(dt * std::round(0.1 / dt))});
    const index_t nx = c.domain.nodes[0];
    const auto node = [&](real x, real y) {
      return static_cast<index_t>(std::lround(x / dxs[k])) + nx * std::lround(y / dxs[k]);
    };
    fhn::test::UpCrossings behind(node(26, 12), 0.5), beside(node(26, 3), 0.5);
    fhn::test::run_with_sinks(c, {&behind, &beside});
    REQUIRE(!behind.times.empty());
    REQUIRE(!beside.times.empty());
    delay[k] = behind.times.front() - beside.times.front();
  }
  const real ratio = (delay[0] - delay[1]) / (delay[1] - delay[2]);
  MESSAGE("delay behind the disc: ", delay[0], ", ", delay[1], ", ", delay[2], "; ratio ", ratio);
  CHECK(delay[2] > 1.9);
  CHECK(delay[2] < 2.2);
  CHECK(delay[0] > delay[1]);
  CHECK(ratio > 1.8);
}

TEST_CASE("no tip in a cell with a corner outside the tissue") {
  // v = 0.5 and w = w_iso cross in cell (1, 1) of a 4 x 4 grid: found, unless a corner is out.
  const fhn::Domain d = fhn::test::sheet_domain(4, 4, 1.0);
  std::vector<real> v(16), w(16);
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 4; ++i) {
      v[static_cast<std::size_t>(i + 4 * j)] = 0.5 + (i - 1.5);
      w[static_cast<std::size_t>(i + 4 * j)] = 0.1 + (j - 1.5);
    }
  std::vector<std::uint8_t> outside(16, 0);
  CHECK(fhn::find_tips(d, v.data(), w.data(), outside.data(), 0.5, 0.1).size() == 1);
  outside[2 + 4 * 2] = 1;
  CHECK(fhn::find_tips(d, v.data(), w.data(), outside.data(), 0.5, 0.1).empty());
}

TEST_CASE("tissue: mistakes are located, and what does not read a mask says so") {
  using fhn::test::config_error;
  using fhn::test::contains;
  const std::string sheet = "domain: {length: [20, 10], dx: 1}\ntime: {dt: 0.05}\n";
  CHECK(contains(config_error("tissue: [{shape: disc, center: [5, 5], radius: 2}]\n"),
                 "tissue: applies to sheets only"));
  CHECK(contains(config_error(sheet + "tissue: [{shape: circle, radius: 2}]\n"),
                 "tissue[0].shape"));
  CHECK(contains(config_error(sheet + "tissue: [{shape: polygon, points: [[0, 0], [1, 1]]}]\n"),
                 "tissue[0].points: expected a list of at least 3 corners"));
  CHECK(contains(config_error(sheet + "tissue: [{shape: disc, center: [5, 5], radius: 2, x_min: 1}]\n"),
                 "not a key of a 'disc' region"));
  CHECK(contains(config_error(sheet + "tissue: [{shape: disc, center: [5, 5], radius: 2}]\n"
                                      "output: {probes: [[5, 5]]}\n"),
                 "output.probes[0]: (5, 5) lies outside the tissue"));
  // ADI's slabs do not read a mask yet (test_adi_medium.cpp: ADI in one process does); the
  // explicit scheme's slabs do (tests/mpi/test_mpi_run.cpp: over the ranks, bit for bit).
  const fhn::Config sheet_run = fhn::test::config_from(
      sheet + "tissue: [{shape: disc, center: [5, 5], radius: 2}]\noutput: {probes: []}\n",
      {"scheme.type=crank_nicolson"});
  const auto comm = fhn::make_serial_communicator();
  const std::string refused = fhn::test::thrown_message<fhn::ConfigError>(
      [&] { fhn::make_slab_scheme(sheet_run, fhn::make_problem(sheet_run), *comm); });
  CHECK(contains(refused, "a tissue mask (tissue:)"));
  CHECK(contains(refused, "crank_nicolson (formulation adi) on the cpu backend over several "
                          "ranks yet"));
}

TEST_CASE("a spiral pinned to a disc obstacle turns slower than the free one and has no free tip") {
  // configs/anchored_spiral.yaml: Barkley's medium round a disc of radius 4 (the free spiral's
  // core is about 0.4, its period 3.163 at this grid). Measured: 7.3598 at (25, 20).
  const fhn::Config c = fhn::load_config(fhn::test::source_path("configs/anchored_spiral.yaml"),
                                         {"output.every=0.05", "output.probes=[]"});
  const index_t nx = c.domain.nodes[0];
  fhn::test::UpCrossings beside(100 + nx * 80, 0.5);  // (25, 20), beside the disc
  fhn::test::TempDir dir;
  // The tracker watches (25, 20) too: no tip, a hole, a wave past it every 7.36: anchored.
  fhn::TipTracker tips(dir / "tips.csv", c.output.tips.v_iso, c.output.tips.w_iso, false, {}, {},
                       {{25.0, 20.0, 0.0}});
  fhn::test::run_with_sinks(c, {&beside, &tips});
  REQUIRE(beside.times.size() >= 6);
  const real period = (beside.times.back() - beside.times[beside.times.size() - 4]) / 3.0;
  MESSAGE("anchored period ", period);
  CHECK(period == doctest::Approx(7.36).epsilon(0.005));
  CHECK(tips.tips_at_end() == 0);
  CHECK(tips.path_analysis().kind == "anchored");
  REQUIRE(tips.path_analysis().period.has_value());
  CHECK(*tips.path_analysis().period == doctest::Approx(period).epsilon(1e-3));
}

TEST_CASE("a .vti picture: read where the build has VTK, else refused with what to install") {
  // The reading itself is tested in test_vti_image.cpp (builds with VTK); here what either build
  // says of a file that is not there.
  const std::string error = fhn::test::config_error(
      "domain: {length: [20, 10], dx: 1}\ntime: {dt: 0.05}\n"
      "tissue: [{shape: image, file: /nonexistent/mask.vti, array: tissue}]\n");
  if (fhn::vti_supported())
    CHECK(fhn::test::contains(error, "tissue[0].file: /nonexistent/mask.vti: not a VTK image "
                                     "fhnsim can read: no such file"));
  else
    CHECK(fhn::test::contains(error, "tissue[0].file: /nonexistent/mask.vti: this build reads no "
                                     "VTK images"));
}
