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

// The 2^axes corners of p's cell over the first `axes` axes (cell_stencil; bilinear_at reads a
// box's plane as a sheet).
NodeStencil corners(const Domain& d, const Point& p, int axes, const std::uint8_t* outside) {
  NodeStencil st;
  st.axes = axes;
  st.count = 1 << axes;
  index_t cell[kMaxAxes] = {0, 0, 0};
  for (int a = 0; a < axes; ++a) locate(d, p, a, cell[a], st.s[a]);
  for (int c = 0; c < st.count; ++c) {
    index_t node = 0, stride = 1;
    for (int a = 0; a < axes; ++a) {
      node += (cell[a] + ((c >> a & 1) != 0 ? 1 : 0)) * stride;
      stride *= d.nodes[a];
    }
    st.nodes[c] = node;
    st.outside[c] = outside == nullptr ? 0 : outside[node];
  }
  return st;
}

// The weight of corner c, the product over the axes of 1 - s or s.
real corner_weight(const NodeStencil& st, int c) {
  real weight = 1.0;
  for (int a = 0; a < st.axes; ++a) weight *= (c >> a & 1) != 0 ? st.s[a] : 1.0 - st.s[a];
  return weight;
}

// (1-s)(1-r) c_0 + s (1-r) c_1 + (1-s) r c_2 + s r c_3.
real bilinear(real s, real r, const real* c) {
  return (1.0 - s) * (1.0 - r) * c[0] + s * (1.0 - r) * c[1] + (1.0 - s) * r * c[2] + s * r * c[3];
}

real value_of(const NodeStencil& st, const real* values) {
  real at[8];
  for (int c = 0; c < st.count; ++c) at[c] = values[st.nodes[c]];
  return stencil_value(st, at);
}

}  // namespace

NodeStencil cell_stencil(const Domain& d, const Point& p, const std::uint8_t* outside) {
  return corners(d, p, d.dims, outside);
}

// A sheet's bilinear value, and a box's trilinear one: with t the fraction of the layer where p
// lies, (1 - t) B_k + t B_{k+1} (B_k itself where t = 0). With corners outside the tissue, the
// tissue corners' weights renormalised (multilinear_at); NaN where they carry none.
real stencil_value(const NodeStencil& st, const real* at) {
  if (st.count == 1) return at[0];
  if (st.count == 2) return at[0] + st.s[0] * (at[1] - at[0]);
  bool whole = true;
  for (int c = 0; c < st.count; ++c) whole = whole && st.outside[c] == 0;
  if (whole) {
    const real below = bilinear(st.s[0], st.s[1], at);
    if (st.count == 4 || st.s[2] == 0.0) return below;
    return (1.0 - st.s[2]) * below + st.s[2] * bilinear(st.s[0], st.s[1], at + 4);
  }
  real sum = 0.0, weight = 0.0;
  for (int c = 0; c < st.count; ++c)
    if (st.outside[c] == 0) {
      const real w = corner_weight(st, c);
      sum += w * at[c];
      weight += w;
    }
  return weight > 0.0 ? sum / weight : std::numeric_limits<real>::quiet_NaN();
}

real bilinear_at(const Domain& d, const real* values, const Point& p) {
  return value_of(corners(d, p, 2, nullptr), values);
}

real multilinear_at(const Domain& d, const real* values, const Point& p) {
  return value_of(cell_stencil(d, p, nullptr), values);
}

real multilinear_at(const Domain& d, const real* values, const Point& p,
                    const std::uint8_t* outside) {
  return value_of(cell_stencil(d, p, outside), values);
}

real tissue_weight(const Domain& d, const Point& p, const std::uint8_t* outside) {
  const NodeStencil st = cell_stencil(d, p, outside);
  real weight = 0.0;
  for (int c = 0; c < st.count; ++c)
    if (st.outside[c] == 0) weight += corner_weight(st, c);
  return weight;
}

}  // namespace fhn
