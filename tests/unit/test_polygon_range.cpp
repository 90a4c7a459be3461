// Polygons with corners anywhere in the range of doubles (model/tissue.hpp, scaled_edge): the
// even-odd test and the signed distance of a blended edge decide as they do for small corners,
// where the unscaled products of coordinates beyond about 1e154 overflowed.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "model/field_values.hpp"
#include "model/problem.hpp"
#include "model/tissue.hpp"
#include "support.hpp"

namespace {

using fhn::real;

fhn::TissueRegion polygon(std::vector<fhn::Point> points) {
  fhn::TissueRegion r;
  r.shape = fhn::TissueShape::polygon;
  r.points = std::move(points);
  return r;
}

// A triangle about the sheet [0, 20]^2: corners (10 -+ 2 scale, 10 - scale), (10, 10 + scale);
// its sides through the top corner pass x = 10 -+ scale / 2 at y = 10, beyond the sheet for
// scale > 20.
fhn::TissueRegion triangle_about_sheet(real scale) {
  return polygon({{10.0 - 2.0 * scale, 10.0 - scale, 0.0},
                  {10.0 + 2.0 * scale, 10.0 - scale, 0.0},
                  {10.0, 10.0 + scale, 0.0}});
}

}  // namespace

TEST_CASE("a triangle about the sheet contains every node whatever the size of its corners") {
  const real largest = std::numeric_limits<real>::max();
  for (const real scale : {30.0, 1e100, 1e154, 1e155, 1e200, 1e300, 0.4 * largest}) {
    CAPTURE(scale);
    const fhn::TissueRegion triangle = triangle_about_sheet(scale);
    for (const fhn::Point r : {fhn::Point{0.0, 0.0, 0.0}, fhn::Point{10.0, 10.0, 0.0},
                               fhn::Point{20.0, 20.0, 0.0}, fhn::Point{0.0, 20.0, 0.0}})
      CHECK(fhn::region_contains(triangle, r));
  }
}

TEST_CASE("an edge between corners near the largest double still splits the plane along it") {
  // The half below the diagonal y = x: corners (-s, -s), (s, s), (s, -s), s = 1e300 and 8e307
  // (their differences 2s are finite only below 9e307).
  for (const real s : {1e300, 8e307}) {
    CAPTURE(s);
    const fhn::TissueRegion below = polygon({{-s, -s, 0.0}, {s, s, 0.0}, {s, -s, 0.0}});
    CHECK(fhn::region_contains(below, {s / 2, -s / 2, 0.0}));
    CHECK(fhn::region_contains(below, {s / 2, s / 4, 0.0}));
    CHECK_FALSE(fhn::region_contains(below, {s / 4, s / 2, 0.0}));
    CHECK_FALSE(fhn::region_contains(below, {-s / 2, s / 2, 0.0}));
  }
  // Small corners decide exactly as before: nodes on the hypotenuse x + y = 4 of a triangle.
  const fhn::TissueRegion small = polygon({{0.0, 0.0, 0.0}, {4.0, 0.0, 0.0}, {0.0, 4.0, 0.0}});
  CHECK(fhn::region_contains(small, {1.0, 2.0, 0.0}));
  CHECK_FALSE(fhn::region_contains(small, {3.0, 2.0, 0.0}));
}

TEST_CASE("a tissue: polygon with corners at 1e200 removes the whole sheet, at 1e100 too") {
  for (const std::string scale : {"1e100", "1e200", "1.5e308"}) {
    CAPTURE(scale);
    // Removed about the sheet, a rectangle added back: only the rectangle is tissue.
    const fhn::Problem p = fhn::make_problem(fhn::test::config_from(
        "domain: {length: [20, 20], dx: 1}\ntime: {dt: 0.05}\noutput: {probes: [[10, 10]]}\n"
        "tissue:\n"
        "  - {shape: polygon, points: [[-" + scale + ", -" + scale + "], [" + scale + ", -" +
        scale + "], [10, " + scale + "]]}\n"
        "  - {shape: rectangle, op: add, x_min: 5, x_max: 15, y_min: 5, y_max: 15}\n"));
    REQUIRE(p.fields.node_type.size() == 21 * 21);
    std::size_t tissue = 0;
    for (const std::uint8_t type : p.fields.node_type) tissue += type == 0 ? 1 : 0;
    CHECK(tissue == 11 * 11);
  }
}

TEST_CASE("the signed distance to a polygon with corners near the largest double is finite") {
  // From the centre of the triangle (-s, -s), (s, -s), (0, s), s = 1e300: the sides through
  // (0, s) lie at s / sqrt(5) (their normals (2, -1) / sqrt(5)), nearer than the base at s.
  const real s = 1e300;
  const real d = fhn::signed_distance(polygon({{-s, -s, 0.0}, {s, -s, 0.0}, {0.0, s, 0.0}}),
                                      {0.0, 0.0, 0.0});
  CHECK(d == doctest::Approx(-s / std::sqrt(5.0)).epsilon(1e-14));
  // Outside, 2s beyond the base: the distance 2s.
  CHECK(fhn::signed_distance(polygon({{-s, -s, 0.0}, {s, -s, 0.0}, {0.0, s, 0.0}}),
                             {0.0, -3 * s, 0.0}) == doctest::Approx(2 * s).epsilon(1e-14));
  // A fields: entry of such a polygon with a blended edge: the value at every node.
  const fhn::Problem p = fhn::make_problem(fhn::test::config_from(
      "domain: {length: [20, 20], dx: 1}\ntime: {dt: 0.05}\noutput: {probes: []}\n"
      "model: {a: 0.05}\n"
      "fields: [{parameter: a, shape: polygon, points: [[-1e200, -1e200], [1e200, -1e200], "
      "[10, 1e200]], value: 0.2, edge: 1}]\n"));
  REQUIRE(p.fields.kinetics.size() >= 1);
  for (const real a : p.fields.kinetics[0].values) REQUIRE(a == 0.2);
}
