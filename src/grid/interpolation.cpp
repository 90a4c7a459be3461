#include "grid/interpolation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace fhn {

namespace {

// The cell index and the fraction along one axis: p = (k + s) h, 0 <= k <= N - 2, s in [0, 1].
void locate(const Domain& d, const Point& p, int axis, index_t& k, real& s) {
  const real u = std::clamp(p[axis] / d.dx, 0.0, static_cast<real>(d.nodes[axis] - 1));
  k = std::min(static_cast<index_t>(std::floor(u)), d.nodes[axis] - 2);
  s = u - static_cast<real>(k);
}

// The 2^dims corners of p's cell (multilinear_at) and their weights, the product over the axes of
// 1 - s or s; returns their count.
int cell_corners(const Domain& d, const Point& p, index_t (&nodes)[8], real (&weights)[8]) {
  index_t cell[kMaxAxes] = {0, 0, 0};
  real s[kMaxAxes] = {0.0, 0.0, 0.0};
  for (int a = 0; a < d.dims; ++a) locate(d, p, a, cell[a], s[a]);
  const int corners = 1 << d.dims;
  for (int c = 0; c < corners; ++c) {
    index_t node = 0, stride = 1;
    real weight = 1.0;
    for (int a = 0; a < d.dims; ++a) {
      const bool high = (c >> a & 1) != 0;
      node += (cell[a] + (high ? 1 : 0)) * stride;
      stride *= d.nodes[a];
      weight *= high ? s[a] : 1.0 - s[a];
    }
    nodes[c] = node;
    weights[c] = weight;
  }
  return corners;
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

real multilinear_at(const Domain& d, const real* values, const Point& p,
                    const std::uint8_t* outside) {
  index_t nodes[8];
  real weights[8];
  const int corners = cell_corners(d, p, nodes, weights);
  bool whole = true;
  for (int c = 0; c < corners; ++c) whole = whole && (outside == nullptr || outside[nodes[c]] == 0);
  if (whole) return multilinear_at(d, values, p);
  real sum = 0.0, weight = 0.0;
  for (int c = 0; c < corners; ++c)
    if (outside[nodes[c]] == 0) {
      sum += weights[c] * values[nodes[c]];
      weight += weights[c];
    }
  return weight > 0.0 ? sum / weight : std::numeric_limits<real>::quiet_NaN();
}

real tissue_weight(const Domain& d, const Point& p, const std::uint8_t* outside) {
  index_t nodes[8];
  real weights[8];
  const int corners = cell_corners(d, p, nodes, weights);
  real weight = 0.0;
  for (int c = 0; c < corners; ++c)
    if (outside == nullptr || outside[nodes[c]] == 0) weight += weights[c];
  return weight;
}

}  // namespace fhn
