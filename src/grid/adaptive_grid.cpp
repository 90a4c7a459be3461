#include "grid/adaptive_grid.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "grid/interpolation.hpp"

namespace fhn {

NonUniformLaplacian::NonUniformLaplacian(const std::vector<real>& x)
    : left_(x.size(), 0.0), centre_(x.size(), 0.0), right_(x.size(), 0.0) {
  const auto n = static_cast<index_t>(x.size());
  FHN_ASSERT(n >= 2);
  for (index_t i = 1; i + 1 < n; ++i) {
    const real hl = x[i] - x[i - 1];
    const real hr = x[i + 1] - x[i];
    FHN_ASSERT(hl > 0.0 && hr > 0.0);
    left_[i] = 2.0 / (hl * (hl + hr));
    centre_[i] = 2.0 / (hl * hr);
    right_[i] = 2.0 / (hr * (hl + hr));
  }
  const real h_first = x[1] - x[0];
  const real h_last = x[n - 1] - x[n - 2];
  centre_[0] = 2.0 / (h_first * h_first);
  centre_[n - 1] = 2.0 / (h_last * h_last);
}

void NonUniformLaplacian::apply(const real* u, real* out) const {
  const index_t last = size() - 1;
  const Weights weights = this->weights();
  out[0] = at(u, 0);
  for (index_t i = 1; i < last; ++i) out[i] = weights.interior(u, i);
  out[last] = at(u, last);
}

std::vector<real> front_inflections(const GridSample& s, real slope_threshold) {
  std::vector<real> points;
  for (index_t i = 1; i + 2 < s.n; ++i) {
    const real width = s.x[i + 1] - s.x[i];
    const real slope = (s.v[i + 1] - s.v[i]) / width;
    if (!(std::abs(slope) > slope_threshold)) continue;
    const real here = slope * s.v_xx[i];
    const real next = slope * s.v_xx[i + 1];
    if (here > 0.0 && next <= 0.0) points.push_back(s.x[i] + width * here / (here - next));
  }
  return points;
}

std::vector<index_t> select_nodes(const AdaptiveSpec& spec, index_t base_nodes, real dx,
                                  const GridSample& s, const std::vector<NodeRange>& keep) {
  const index_t last = base_nodes - 1;
  std::vector<char> on(static_cast<std::size_t>(base_nodes), 0);
  // Multiples of `stride` in [first, last_j].
  auto mark_every = [&](index_t first, index_t last_j, index_t stride) {
    for (index_t j = (first + stride - 1) / stride * stride; j <= last_j; j += stride) on[j] = 1;
  };

  mark_every(0, last, spec.coarse_stride);
  on[last] = 1;
  for (const NodeRange& r : keep)
    for (index_t j = std::max<index_t>(r.first, 0); j <= std::min(r.last, last); ++j) on[j] = 1;

  for (index_t i = 0; i + 1 < s.n; ++i)
    if (std::abs(s.v[i + 1] - s.v[i]) > spec.gradient_threshold * (s.x[i + 1] - s.x[i]))
      mark_every(s.nodes[i], s.nodes[i + 1], spec.gradient_stride);

  for (index_t i = 0; i < s.n; ++i) {
    if (std::abs(s.v_t[i]) > spec.rate_threshold)
      mark_every(s.nodes[std::max<index_t>(i - 1, 0)], s.nodes[std::min(i + 1, s.n - 1)],
                 spec.rate_stride);
    // A blow-up stays in the grid for the time loop's NaN/Inf check to find.
    if (!std::isfinite(s.v[i]) || !std::isfinite(s.v_t[i])) on[s.nodes[i]] = 1;
  }

  // Base nodes within the radius; the 1e-9 dx slack keeps a node exactly at the radius inside.
  for (const real centre : front_inflections(s, spec.gradient_threshold)) {
    const real from = (centre - spec.inflection_radius) / dx - 1e-9;
    const real to = (centre + spec.inflection_radius) / dx + 1e-9;
    const index_t first = std::max<index_t>(0, static_cast<index_t>(std::ceil(from)));
    const index_t last_j = std::min(last, static_cast<index_t>(std::floor(to)));
    for (index_t j = first; j <= last_j; ++j) on[j] = 1;
  }

  std::vector<index_t> nodes;
  for (index_t j = 0; j <= last; ++j)
    if (on[j]) nodes.push_back(j);
  return nodes;
}

std::vector<real> interpolate_onto(const real* old_x, const real* values, index_t n,
                                   const std::vector<real>& new_x) {
  // One walk through both ascending grids: old_x[i] <= p < old_x[i + 1] (or i + 1 the last
  // node), then interpolate_at on those two nodes, which returns values[i] itself at p = old_x[i].
  std::vector<real> out(new_x.size());
  index_t i = 0;
  for (std::size_t k = 0; k < new_x.size(); ++k) {
    const real p = new_x[k];
    while (i + 2 < n && old_x[i + 1] <= p) ++i;
    out[k] = interpolate_at(&old_x[i], &values[i], 2, p);
  }
  return out;
}

}  // namespace fhn
