// The adaptive-grid explicit scheme: the non-uniform second derivative, the grid it builds, and
// what it buys on the reference blog's cases.
#include <doctest/doctest.h>

#include <cmath>

#include "grid/adaptive_grid.hpp"

TEST_CASE("adaptive: the non-uniform second derivative is exact for quadratics") {
  const std::vector<double> x{0.0, 0.5, 1.5, 1.75, 3.0, 3.5};
  std::vector<double> u;
  for (const double xi : x) u.push_back(3.0 * xi * xi - 2.0 * xi + 1.0);
  const fhn::NonUniformLaplacian lap(x);
  for (fhn::index_t i = 1; i + 1 < lap.size(); ++i) CHECK(lap.interior(u.data(), i) == doctest::Approx(6.0));
}
