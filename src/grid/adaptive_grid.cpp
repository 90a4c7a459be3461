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
                                  real reach, const GridSample& s,
                                  const std::vector<NodeRange>& keep) {
  const index_t last = base_nodes - 1;
  const index_t coarse = spec.coarse_stride;
  // allowed[j] = S_j, the widest spacing any interval holding base node j may have.
  std::vector<index_t> allowed(static_cast<std::size_t>(base_nodes), coarse);
  auto limit = [&](index_t first, index_t last_j, index_t stride) {
    for (index_t j = std::max<index_t>(first, 0); j <= std::min(last_j, last); ++j)
      allowed[j] = std::min(allowed[j], stride);
  };
  auto node = [&](index_t i) { return s.nodes[std::clamp<index_t>(i, 0, s.n - 1)]; };

  // error: H = sqrt(8 bound / C) keeps H^2 C / 8 <= bound; S = floor(H / dx). With
  // hysteresis: a node's current spacing g (the wider of its two intervals) stays until it errs
  // by more than bound, and widens only where a quarter of the bound allows it,
  //   S = max(min(g, S(bound)), S(bound / 4)),
  // so a node is not dropped and re-interpolated again and again as its estimate wavers.
  const auto reach_nodes = static_cast<index_t>(std::ceil(reach / dx - 1e-9));
  auto stride_for = [&](real curvature, real tol) {
    const real spacing = std::sqrt(8.0 * tol / curvature) / dx;
    if (spacing >= static_cast<real>(coarse)) return coarse;
    return std::max<index_t>(1, static_cast<index_t>(spacing));
  };
  // The bound is the tolerance, or the base grid's own largest interpolation error where that
  // is smaller, down to a tenth of the tolerance: linear interpolation over the base spacing
  // errs up to dx^2 C_max / 8, C_max the largest curvature over the current nodes, so
  //   bound = min(tolerance, max(tolerance / 10, dx^2 C_max / 8)),
  //   H = sqrt(8 bound / C) <= dx sqrt(C_max / C) unless bound = tolerance / 10:
  // no node is spaced wider, for its curvature, than the base grid is at the sharpest point.
  // The uniform run's error falls as dx^2 and an absolute tolerance does not; with this bound
  // what the grid adds falls with it (docs/history/verification-2026-11.md, "The base grid's
  // bound"). The floor keeps the tolerance in control: a flat or slowly varying state (C_max -> 0),
  // whose base-grid error is negligible anyway, stays coarse.
  std::vector<real> curvatures(static_cast<std::size_t>(s.n));
  real sharpest = 0.0;
  for (index_t i = 0; i < s.n; ++i) {
    curvatures[i] = std::max(std::abs(s.v_xx[i]), std::abs(s.w_xx[i]));
    if (std::isfinite(curvatures[i])) sharpest = std::max(sharpest, curvatures[i]);
  }
  const real bound =
      std::min(spec.tolerance, std::max(0.1 * spec.tolerance, dx * dx * sharpest / 8.0));
  for (index_t i = 0; i < s.n; ++i) {
    const real curvature = curvatures[i];
    if (!(curvature > 0.0)) continue;
    const index_t current = std::max(node(i) - node(i - 1), node(i + 1) - node(i));
    const index_t stride = std::max(std::min(current, stride_for(curvature, bound)),
                                    stride_for(curvature, 0.25 * bound));
    if (stride < coarse) limit(node(i - 1) - reach_nodes, node(i + 1) + reach_nodes, stride);
  }

  if (spec.gradient_stride > 0)
    for (index_t i = 0; i + 1 < s.n; ++i)
      if (std::abs(s.v[i + 1] - s.v[i]) > spec.gradient_threshold * (s.x[i + 1] - s.x[i]))
        limit(s.nodes[i], s.nodes[i + 1], spec.gradient_stride);

  for (index_t i = 0; i < s.n; ++i) {
    if (spec.rate_stride > 0 && std::abs(s.v_t[i]) > spec.rate_threshold)
      limit(node(i - 1), node(i + 1), spec.rate_stride);
    // A blow-up stays in the grid for the time loop's NaN/Inf check to find.
    if (!std::isfinite(s.v[i]) || !std::isfinite(s.w[i]) || !std::isfinite(s.v_t[i]))
      limit(s.nodes[i], s.nodes[i], 1);
  }

  // Base nodes within the radius; the 1e-9 dx slack keeps a node exactly at the radius inside.
  if (spec.inflection_radius > 0.0) {
    for (const real centre : front_inflections(s, spec.gradient_threshold)) {
      const real from = (centre - spec.inflection_radius) / dx - 1e-9;
      const real to = (centre + spec.inflection_radius) / dx + 1e-9;
      limit(static_cast<index_t>(std::ceil(from)), static_cast<index_t>(std::floor(to)), 1);
    }
  }
  for (const NodeRange& r : keep) limit(r.first, r.last, 1);

  // The widest aligned power-of-two step from j within j's coarse cell that no S_k of a base
  // node strictly inside it forbids.
  index_t widest_step = 1;
  while (2 * widest_step <= coarse) widest_step *= 2;
  std::vector<index_t> nodes{0};
  for (index_t j = 0; j < last;) {
    const index_t cell = j / coarse * coarse;
    const index_t cell_end = std::min(cell + coarse, last);
    index_t step = widest_step;
    auto fits = [&] {
      if ((j - cell) % step != 0 || j + step > cell_end) return false;
      return step == 1 || *std::min_element(&allowed[j + 1], &allowed[j + step]) >= step;
    };
    while (step > 1 && !fits()) step /= 2;
    j += step;
    nodes.push_back(j);
  }
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
