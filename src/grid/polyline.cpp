#include "grid/polyline.hpp"

#include <cmath>

namespace fhn {

real distance(const Point& a, const Point& b) {
  return std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                   (a[2] - b[2]) * (a[2] - b[2]));
}

real Polyline::length() const {
  real sum = 0.0;
  for (std::size_t k = 1; k < points.size(); ++k) sum += distance(points[k - 1], points[k]);
  if (closed && points.size() > 2) sum += distance(points.back(), points.front());
  return sum;
}

real Polyline::radius() const {
  if (points.empty()) return 0.0;
  Point c{0.0, 0.0, 0.0};
  for (const Point& p : points)
    for (int a = 0; a < 3; ++a) c[a] += p[a];
  for (int a = 0; a < 3; ++a) c[a] /= static_cast<real>(points.size());
  real sum = 0.0;
  for (const Point& p : points) sum += distance(p, c);
  return sum / static_cast<real>(points.size());
}

}  // namespace fhn
