// The per-node values of `fields:` and the tensor of `anisotropy:` (model/field_values.hpp): a
// sharp region agrees with region_contains (the tissue mask's test) at every node, a blended edge
// is 1/2 (value + base) on the boundary and linear across it, a gradient is its closed form,
// later entries override earlier ones; signed distances and tensor components against values
// worked out by hand; make_problem fills Problem::fields from a config.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "config/loader.hpp"
#include "model/field_values.hpp"
#include "model/problem.hpp"
#include "model/tissue.hpp"
#include "support.hpp"

using fhn::index_t;
using fhn::real;

namespace {

// Node counts of 2^k + 1 put every node at an exact binary coordinate (x = L (i / 2^k)).
// 33 x 17 nodes, dx = 1: [0, 32] x [0, 16].
fhn::Domain wide_sheet() { return fhn::test::sheet_domain(33, 17, 1.0); }
// 65 x 65 nodes, dx = 0.25: [0, 16] x [0, 16].
fhn::Domain fine_sheet() { return fhn::test::sheet_domain(65, 65, 0.25); }

fhn::TissueRegion disc(real x, real y, real radius) {
  fhn::TissueRegion r;
  r.shape = fhn::TissueShape::disc;
  r.center = {x, y, 0.0};
  r.radius = radius;
  return r;
}
fhn::TissueRegion rectangle(real x_min, real x_max, real y_min, real y_max) {
  fhn::TissueRegion r;
  r.shape = fhn::TissueShape::rectangle;
  r.x_min = x_min;
  r.x_max = x_max;
  r.y_min = y_min;
  r.y_max = y_max;
  return r;
}
fhn::TissueRegion polygon(std::vector<fhn::Point> points) {
  fhn::TissueRegion r;
  r.shape = fhn::TissueShape::polygon;
  r.points = std::move(points);
  return r;
}

fhn::FieldSpec region_field(const std::string& parameter, const fhn::TissueRegion& region,
                            real value, real edge = 0.0) {
  return {parameter, fhn::FieldType::region, region, value, edge, 0, 0.0, 0.0, 0.0, 0.0};
}
fhn::FieldSpec gradient_field(const std::string& parameter, int axis, real start, real end,
                              real from, real to) {
  return {parameter, fhn::FieldType::gradient, {}, 0.0, 0.0, axis, start, end, from, to};
}

// The value at the node at (x, y) of a sheet of spacing dx.
real at(const std::vector<real>& values, const fhn::Domain& d, real x, real y) {
  const auto i = static_cast<index_t>(std::lround(x / d.dx));
  const auto j = static_cast<index_t>(std::lround(y / d.dx));
  return values[static_cast<std::size_t>(i + d.nodes[0] * j)];
}

}  // namespace

TEST_CASE("a sharp region field is its value where region_contains says so, the base elsewhere") {
  const fhn::Domain d = wide_sheet();
  const real base = 0.01, value = 0.2;
  // A disc off the grid, a rectangle with edges on grid lines (nodes on them are inside), and a
  // triangle whose hypotenuse passes through nodes.
  const fhn::TissueRegion regions[] = {disc(16.3, 7.7, 5.1), rectangle(4, 10, 2, 6),
                                       polygon({{20, 2, 0}, {30, 2, 0}, {20, 12, 0}})};
  for (const fhn::TissueRegion& region : regions) {
    const std::vector<real> values =
        fhn::field_values({region_field("a", region, value)}, "a", base, d);
    REQUIRE(values.size() == static_cast<std::size_t>(d.node_count()));
    int inside = 0;
    for (index_t node = 0; node < d.node_count(); ++node) {
      const bool in = fhn::region_contains(region, d.position(node));
      inside += in ? 1 : 0;
      CHECK(values[static_cast<std::size_t>(node)] == (in ? value : base));
    }
    CHECK(inside > 20);
  }
  // The rectangle's corners and edges are in it; one spacing beyond is not.
  const std::vector<real> box =
      fhn::field_values({region_field("a", regions[1], value)}, "a", base, d);
  CHECK(at(box, d, 4, 2) == value);
  CHECK(at(box, d, 10, 6) == value);
  CHECK(at(box, d, 7, 6) == value);
  CHECK(at(box, d, 11, 6) == base);
  CHECK(at(box, d, 7, 7) == base);
  // No entry names the parameter: no values (uniform).
  CHECK(fhn::field_values({region_field("a", regions[0], value)}, "epsilon", base, d).empty());
  CHECK(fhn::field_values({}, "a", base, d).empty());
}

TEST_CASE("a blended edge is 1/2 (value + base) on the boundary and linear across the band") {
  const fhn::Domain d = fine_sheet();
  const real base = 0.1, value = 0.3, edge = 2.0;
  // A disc of radius 4 at (8, 8): along y = 8 the signed distance is x - 12 for x > 8, and the
  // weight s = clamp(1/2 - (x - 12) / 2, 0, 1) runs from 1 at x = 11 to 0 at x = 13.
  const fhn::FieldSpec round = region_field("diffusion", disc(8, 8, 4), value, edge);
  const std::vector<real> values = fhn::field_values({round}, "diffusion", base, d);
  for (const auto& [x, y] : std::vector<std::pair<real, real>>{{12, 8}, {4, 8}, {8, 12}, {8, 4}})
    CHECK(at(values, d, x, y) == 0.5 * (value + base));
  for (real x = 8.0; x <= 16.0; x += 0.25) {
    CAPTURE(x);
    const real s = std::clamp(0.5 - (x - 12.0) / edge, 0.0, 1.0);
    CHECK(at(values, d, x, 8) == doctest::Approx(base + s * (value - base)).epsilon(1e-15));
  }
  CHECK(at(values, d, 11, 8) == value);   // d = -edge/2: all of the value
  CHECK(at(values, d, 13, 8) == base);    // d = +edge/2: none
  CHECK(at(values, d, 12.5, 8) == doctest::Approx(base + 0.25 * (value - base)).epsilon(1e-15));
  CHECK(at(values, d, 11.5, 8) == doctest::Approx(base + 0.75 * (value - base)).epsilon(1e-15));
  // Along the diagonal the signed distance is sqrt(2) t - 4 at (8 + t, 8 + t).
  const real t = 3.0, s = std::clamp(0.5 - (std::sqrt(2.0) * t - 4.0) / edge, 0.0, 1.0);
  CHECK(at(values, d, 8 + t, 8 + t) == doctest::Approx(base + s * (value - base)).epsilon(1e-15));
  // A rectangle's blend across its side x = 4 (x from 3 to 5) and its corner (2, 2) region.
  const std::vector<real> box = fhn::field_values(
      {region_field("diffusion", rectangle(4, 12, 4, 12), value, edge)}, "diffusion", base, d);
  CHECK(at(box, d, 4, 8) == 0.5 * (value + base));
  CHECK(at(box, d, 3.5, 8) == doctest::Approx(base + 0.25 * (value - base)).epsilon(1e-15));
  CHECK(at(box, d, 4.5, 8) == doctest::Approx(base + 0.75 * (value - base)).epsilon(1e-15));
  CHECK(at(box, d, 3, 8) == base);
  CHECK(at(box, d, 5, 8) == value);
  // Beyond the corner (4, 4) at (3.5, 3.5): d = sqrt(0.5), s = 1/2 - sqrt(0.5)/2.
  CHECK(at(box, d, 3.5, 3.5) ==
        doctest::Approx(base + (0.5 - std::sqrt(0.5) / 2.0) * (value - base)).epsilon(1e-15));
}

TEST_CASE("a gradient is linear between start and end along its axis and constant beyond") {
  const fhn::Domain d = wide_sheet();
  const real from = 0.01, to = 0.03;
  const std::vector<real> along_x =
      fhn::field_values({gradient_field("epsilon", 0, 5, 15, from, to)}, "epsilon", 0.5, d);
  for (index_t node = 0; node < d.node_count(); ++node) {
    const fhn::Point r = d.position(node);
    const real value = along_x[static_cast<std::size_t>(node)];
    CAPTURE(r[0]);
    if (r[0] <= 5.0)
      CHECK(value == from);
    else if (r[0] >= 15.0)
      CHECK(value == to);
    else
      CHECK(value == doctest::Approx(from + (r[0] - 5.0) / 10.0 * (to - from)).epsilon(1e-15));
  }
  CHECK(at(along_x, d, 10, 3) == doctest::Approx(0.02).epsilon(1e-15));
  CHECK(at(along_x, d, 7, 0) == doctest::Approx(0.014).epsilon(1e-15));
  // Along y, falling: from 2 at y = 4 to -1 at y = 16.
  const std::vector<real> along_y =
      fhn::field_values({gradient_field("b", 1, 4, 16, 2.0, -1.0)}, "b", 0.0, d);
  CHECK(at(along_y, d, 30, 0) == 2.0);
  CHECK(at(along_y, d, 0, 4) == 2.0);
  CHECK(at(along_y, d, 5, 10) == doctest::Approx(0.5).epsilon(1e-15));
  CHECK(at(along_y, d, 5, 13) == doctest::Approx(-0.25).epsilon(1e-15));
  CHECK(at(along_y, d, 17, 16) == -1.0);
}

TEST_CASE("later entries apply over what the earlier ones left") {
  const fhn::Domain d = wide_sheet();
  const fhn::FieldSpec ramp = gradient_field("a", 0, 0, 32, 0.0, 0.32);
  const fhn::FieldSpec spot = region_field("a", disc(16, 8, 3), 0.9);
  // A disc over a gradient: the disc's value inside, the ramp elsewhere.
  const std::vector<real> over = fhn::field_values({ramp, spot}, "a", 0.5, d);
  CHECK(at(over, d, 16, 8) == 0.9);
  CHECK(at(over, d, 16, 11) == 0.9);
  CHECK(at(over, d, 8, 8) == doctest::Approx(0.08).epsilon(1e-15));
  CHECK(at(over, d, 20, 8) == doctest::Approx(0.2).epsilon(1e-15));
  // A gradient over a disc: every node takes the gradient.
  const std::vector<real> under = fhn::field_values({spot, ramp}, "a", 0.5, d);
  CHECK(at(under, d, 16, 8) == doctest::Approx(0.16).epsilon(1e-15));
  // A blended rectangle over the disc: on its side x = 16 the mean of its value and the disc's.
  const fhn::FieldSpec blend = region_field("a", rectangle(16, 32, 0, 16), 0.1, 2.0);
  const std::vector<real> layered = fhn::field_values({spot, blend}, "a", 0.5, d);
  CHECK(at(layered, d, 16, 8) == 0.5 * (0.9 + 0.1));
  CHECK(at(layered, d, 16, 14) == 0.5 * (0.5 + 0.1));  // outside the disc: the base's mean
  CHECK(at(layered, d, 14, 8) == 0.9);
  // Entries of other parameters do not count.
  const std::vector<real> mixed =
      fhn::field_values({spot, region_field("epsilon", disc(16, 8, 3), 7.0)}, "a", 0.5, d);
  CHECK(at(mixed, d, 16, 8) == 0.9);
}

TEST_CASE("signed distances of a disc, a rectangle and polygons, negative inside") {
  const fhn::TissueRegion circle = disc(1, 1, 2);
  CHECK(fhn::signed_distance(circle, {4, 5, 0}) == 3.0);   // |(3, 4)| - 2
  CHECK(fhn::signed_distance(circle, {2, 1, 0}) == -1.0);
  CHECK(fhn::signed_distance(circle, {1, 1, 0}) == -2.0);
  CHECK(fhn::signed_distance(circle, {3, 1, 0}) == 0.0);

  const fhn::TissueRegion box = rectangle(0, 4, 0, 2);
  CHECK(fhn::signed_distance(box, {1, 1, 0}) == -1.0);     // 1 from x = 0, y = 0 and y = 2
  CHECK(fhn::signed_distance(box, {3, 0.5, 0}) == -0.5);   // nearest side y = 0
  CHECK(fhn::signed_distance(box, {3.75, 1, 0}) == -0.25); // nearest side x = 4
  CHECK(fhn::signed_distance(box, {4, 1, 0}) == 0.0);      // on a side
  CHECK(fhn::signed_distance(box, {6, 1, 0}) == 2.0);      // beside it
  CHECK(fhn::signed_distance(box, {2, -3, 0}) == 3.0);     // below it
  CHECK(fhn::signed_distance(box, {7, 6, 0}) == 5.0);      // corner region: |(3, 4)|
  CHECK(fhn::signed_distance(box, {-1, -1, 0}) == doctest::Approx(std::sqrt(2.0)).epsilon(1e-15));

  // The triangle (0, 0), (4, 0), (0, 3): hypotenuse 3 x + 4 y = 12, length 5.
  const fhn::TissueRegion triangle = polygon({{0, 0, 0}, {4, 0, 0}, {0, 3, 0}});
  CHECK(fhn::signed_distance(triangle, {1, 1, 0}) == doctest::Approx(-1.0).epsilon(1e-15));
  CHECK(fhn::signed_distance(triangle, {0.5, 1, 0}) == doctest::Approx(-0.5).epsilon(1e-15));
  CHECK(fhn::signed_distance(triangle, {4, 3, 0}) == doctest::Approx(2.4).epsilon(1e-15));
  CHECK(fhn::signed_distance(triangle, {6, -1, 0}) ==
        doctest::Approx(std::sqrt(5.0)).epsilon(1e-15));  // to the corner (4, 0)
  CHECK(fhn::signed_distance(triangle, {2, -2, 0}) == doctest::Approx(2.0).epsilon(1e-15));
  // An L (not convex): the notch is outside, 1 from both of its edges.
  const fhn::TissueRegion ell =
      polygon({{0, 0, 0}, {4, 0, 0}, {4, 1, 0}, {1, 1, 0}, {1, 4, 0}, {0, 4, 0}});
  CHECK(fhn::signed_distance(ell, {2, 2, 0}) == doctest::Approx(1.0).epsilon(1e-15));
  CHECK(fhn::signed_distance(ell, {0.5, 2, 0}) == doctest::Approx(-0.5).epsilon(1e-15));
  CHECK(fhn::signed_distance(ell, {3, 0.25, 0}) == doctest::Approx(-0.25).epsilon(1e-15));
  CHECK(fhn::signed_distance(ell, {3, 3, 0}) == doctest::Approx(2.0).epsilon(1e-15));  // to (3, 1)
  CHECK(fhn::signed_distance(ell, {5, 2, 0}) == doctest::Approx(std::sqrt(2.0)).epsilon(1e-15));
}

TEST_CASE("the anisotropic tensor: its components at 0, 90 and 30 degrees, trace and determinant") {
  fhn::AnisotropySpec spec;
  spec.enabled = true;
  spec.longitudinal = 1.0;
  spec.transverse = 0.25;
  // Fibres along x: D_xx = D_l, D_yy = D_t, no cross term.
  const fhn::TensorField along_x = fhn::anisotropic_tensor(spec, {});
  CHECK(along_x.enabled);
  CHECK(along_x.uniform());
  CHECK(along_x.xx == 1.0);
  CHECK(along_x.xy == 0.0);
  CHECK(along_x.yy == 0.25);
  // Along y, exactly (a multiple of 90 degrees has cos and sin 0 and +-1).
  spec.angle = 90.0;
  const fhn::TensorField along_y = fhn::anisotropic_tensor(spec, {});
  CHECK(along_y.xx == 0.25);
  CHECK(along_y.xy == 0.0);
  CHECK(along_y.yy == 1.0);
  spec.angle = -270.0;  // the same fibres
  CHECK(fhn::anisotropic_tensor(spec, {}).yy == 1.0);
  CHECK(fhn::anisotropic_tensor(spec, {}).xy == 0.0);
  // 30 degrees: c^2 = 3/4, c s = sqrt(3)/4, s^2 = 1/4, D_l - D_t = 3/4.
  spec.angle = 30.0;
  const fhn::TensorField oblique = fhn::anisotropic_tensor(spec, {});
  CHECK(oblique.xx == doctest::Approx(0.25 + 0.75 * 0.75).epsilon(1e-15));       // 0.8125
  CHECK(oblique.xy == doctest::Approx(0.75 * std::sqrt(3.0) / 4.0).epsilon(1e-15));
  CHECK(oblique.yy == doctest::Approx(0.25 + 0.75 * 0.25).epsilon(1e-15));       // 0.4375
  // Per node: the components of each node's angle; the scalars stay those of spec.angle.
  const std::vector<real> angles{0.0, 90.0, 30.0, -45.0, 137.0, 1000.0};
  const fhn::TensorField varying = fhn::anisotropic_tensor(spec, angles);
  REQUIRE(varying.xx_values.size() == angles.size());
  REQUIRE(varying.xy_values.size() == angles.size());
  REQUIRE(varying.yy_values.size() == angles.size());
  CHECK_FALSE(varying.uniform());
  CHECK(varying.xx == oblique.xx);
  CHECK(varying.xx_values[0] == 1.0);
  CHECK(varying.yy_values[1] == 1.0);
  CHECK(varying.xy_values[2] == oblique.xy);
  CHECK(varying.xy_values[3] == doctest::Approx(-0.375).epsilon(1e-15));  // 3/4 cos sin(-45)
  CHECK(varying.xx_values[3] == doctest::Approx(0.625).epsilon(1e-15));
  // Every angle: trace D_l + D_t, determinant D_l D_t (the eigenvalues), xx the form's.
  for (std::size_t i = 0; i < angles.size(); ++i) {
    CAPTURE(angles[i]);
    const real xx = varying.xx_values[i], xy = varying.xy_values[i], yy = varying.yy_values[i];
    const real c = std::cos(angles[i] * fhn::kTwoPi / 360.0);
    CHECK(xx + yy == doctest::Approx(1.25).epsilon(1e-15));
    CHECK(xx * yy - xy * xy == doctest::Approx(0.25).epsilon(1e-14));
    CHECK(xx == doctest::Approx(0.25 + 0.75 * c * c).epsilon(1e-14));
  }
}

TEST_CASE("make_problem fills the parameter fields from fields: and the tensor from anisotropy:") {
  const std::string sheet = "domain: {length: [32, 16], nodes: [33, 17]}\ntime: {dt: 0.05}\n"
                            "output: {probes: []}\n";
  const fhn::Config c = fhn::test::config_from(
      sheet + "model: {a: 0.05}\n"
              "fields:\n"
              "  - {parameter: a, shape: disc, center: [16, 8], radius: 3, value: 0.2}\n"
              "  - {parameter: diffusion, type: region, shape: rectangle, x_max: 4, value: 0}\n"
              "  - {parameter: epsilon, type: gradient, from: 0.01, to: 0.03}\n");
  const fhn::Problem p = fhn::make_problem(c);
  const fhn::Domain& d = p.domain;
  REQUIRE(p.fields.kinetics.size() == 3);  // cubic: a, epsilon, gamma
  CHECK(p.fields.kinetics[0].name == "a");
  CHECK(at(p.fields.kinetics[0].values, d, 16, 8) == 0.2);
  CHECK(at(p.fields.kinetics[0].values, d, 5, 8) == 0.05);  // model.a elsewhere
  CHECK(at(p.fields.kinetics[1].values, d, 0, 3) == 0.01);
  CHECK(at(p.fields.kinetics[1].values, d, 32, 3) == 0.03);
  CHECK(at(p.fields.kinetics[1].values, d, 8, 3) == doctest::Approx(0.015).epsilon(1e-15));
  CHECK(p.fields.kinetics[2].uniform());  // gamma: no entry
  CHECK(at(p.fields.diffusion.values, d, 4, 16) == 0.0);
  CHECK(at(p.fields.diffusion.values, d, 5, 16) == 1.0);
  CHECK_FALSE(p.fields.tensor.enabled);
  // anisotropy: the tensor, per node where a fibre_angle entry names the angle.
  const fhn::Problem q = fhn::make_problem(fhn::test::config_from(
      sheet + "anisotropy: {longitudinal: 1, transverse: 0.25, angle: 90}\n"
              "fields: [{parameter: fibre_angle, shape: rectangle, x_max: 8, value: 0}]\n"));
  REQUIRE(q.fields.tensor.enabled);
  CHECK(q.model.diffusion == 1.0);
  CHECK(q.fields.diffusion.uniform());
  CHECK(at(q.fields.tensor.xx_values, d, 4, 4) == 1.0);    // angle 0 in the rectangle
  CHECK(at(q.fields.tensor.xx_values, d, 20, 4) == 0.25);  // 90 elsewhere
  CHECK(at(q.fields.tensor.yy_values, d, 20, 4) == 1.0);
  CHECK(at(q.fields.tensor.xy_values, d, 20, 4) == 0.0);
  const fhn::Problem u = fhn::make_problem(fhn::test::config_from(
      sheet + "anisotropy: {longitudinal: 2, transverse: 0.5}\n"));
  CHECK(u.fields.tensor.uniform());
  CHECK(u.fields.tensor.xx == 2.0);
  CHECK(u.fields.tensor.yy == 0.5);
}
