// The checks of fhn validate and fhn run that name the key a problem lies at: a scroll ring's
// centre is checked against the box on every axis, before its radius.
#include <doctest/doctest.h>

#include <string>

#include "support.hpp"

using fhn::test::config_error;
using fhn::test::contains;

namespace {

// A box with a scroll ring centred at `centre`.
std::string ring(const std::string& centre) {
  return "domain: {length: [20, 20, 20], dx: 1}\n"
         "time: {end: 1, dt: 0.05}\n"
         "output: {every: 0.5}\n"
         "initial:\n"
         "  v: {type: scroll_ring, center: " + centre + ", radius: 4}\n"
         "  w: {type: scroll_ring, center: " + centre + ", radius: 4}\n";
}

}  // namespace

TEST_CASE("a scroll ring's centre is checked against the box on every axis, before its radius") {
  // Outside in z only: accepted before.
  CHECK(contains(config_error(ring("[10, 10, 30]")),
                 "test.yaml:5:43: initial.v.center[2]: z = 30 lies outside the box (0 <= z <= 20)"));
  // Outside in x: the centre is named, not "a radius below -88".
  const std::string x = config_error(ring("[-88, 10, 10]"));
  CHECK(contains(x, "initial.v.center[0]: x = -88 lies outside the box (0 < x < 20)"));
  CHECK_FALSE(contains(x, "radius below"));
  // Inside, the radius is checked as before; on a face in z the ring lies in the box's plane.
  CHECK(contains(config_error(ring("[10, 3, 10]")),
                 "initial.v.radius: a ring of radius 4 about y = 3 leaves the box"));
  CHECK(config_error(ring("[10, 10, 20]")).empty());
}
