#include "grid/interpolation.hpp"

#include <algorithm>
#include <cmath>

namespace fhn {

namespace {

// The cell index and the fraction along one axis: p = (k + s) h, 0 <= k <= N - 2, s in [0, 1].
void locate(const Domain& d, const Point& p, int axis, index_t& k, real& s) {
  const real u = std::clamp(p[axis] / d.dx, 0.0, static_cast<real>(d.nodes[axis] - 1));
  k = std::min(static_cast<index_t>(std::floor(u)), d.nodes[axis] - 2);
  s = u - static_cast<real>(k);
}

}  // namespace

real bilinear_at(const Domain& d, const real* values, const Point& p) {
  auto locate = [&](int axis, index_t& k, real& s) { fhn::locate(d, p, axis, k, s); };
  index_t i = 0, j = 0;
  real s = 0.0, r = 0.0;
  locate(0, i, s);
  locate(1, j, r);
  const index_t nx = d.nodes[0];
  const real* c = values + i + nx * j;
  return (1.0 - s) * (1.0 - r) * c[0] + s * (1.0 - r) * c[1] + (1.0 - s) * r * c[nx] +
         s * r * c[nx + 1];
}

real multilinear_at(const Domain& d, const real* values, const Point& p) {
  if (d.dims < 3) return bilinear_at(d, values, p);
  index_t k = 0;
  real t = 0.0;
  locate(d, p, 2, k, t);
  const real* plane = values + d.nodes[0] * d.nodes[1] * k;
  const real below = bilinear_at(d, plane, p);
  if (t == 0.0) return below;
  return (1.0 - t) * below + t * bilinear_at(d, plane + d.nodes[0] * d.nodes[1], p);
}

}  // namespace fhn
