#include "model/tissue.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "model/parameter_fields.hpp"

namespace fhn {

bool region_contains(const TissueRegion& region, const Point& r) {
  switch (region.shape) {
    case TissueShape::disc:
      return std::hypot(r[0] - region.center[0], r[1] - region.center[1]) <= region.radius;
    case TissueShape::rectangle:
      return r[0] >= region.x_min && r[0] <= region.x_max && r[1] >= region.y_min &&
             r[1] <= region.y_max;
    case TissueShape::polygon: {
      // Even-odd rule: a ray from r along +x crosses the boundary an odd number of times. An
      // edge (p_j, p_i) that straddles the ray's y crosses it at
      // x = x_j + (y - y_j) (x_i - x_j) / (y_i - y_j), formed from the scaled points (scaled_edge)
      // so that no product overflows.
      bool inside = false;
      const std::vector<Point>& p = region.points;
      for (std::size_t i = 0, j = p.size() - 1; i < p.size(); j = i++) {
        if ((p[i][1] > r[1]) == (p[j][1] > r[1])) continue;
        const ScaledEdge e = scaled_edge(p[j], p[i], r);
        if (e.r[0] < e.a[0] + (e.r[1] - e.a[1]) * (e.b[0] - e.a[0]) / (e.b[1] - e.a[1]))
          inside = !inside;
      }
      return inside;
    }
    case TissueShape::image: {
      const std::optional<real> value = picture_value(region, r);
      if (!value) return false;
      return region.above ? *value >= region.threshold : *value < region.threshold;
    }
  }
  return false;
}

ScaledEdge scaled_edge(const Point& a, const Point& b, const Point& r) {
  const real largest = std::max({std::abs(a[0]), std::abs(a[1]), std::abs(b[0]), std::abs(b[1]),
                                 std::abs(r[0]), std::abs(r[1])});
  ScaledEdge e;
  e.exponent = largest > 0.0 ? std::ilogb(largest) : 0;
  auto scaled = [&](const Point& q) {
    return Point{std::ldexp(q[0], -e.exponent), std::ldexp(q[1], -e.exponent), 0.0};
  };
  e.a = scaled(a);
  e.b = scaled(b);
  e.r = scaled(r);
  return e;
}

std::optional<real> picture_value(const TissueRegion& region, const Point& r) {
  // The picture covers [x_min, x_max] x [y_min, y_max], its top row at y_max.
  const Picture& picture = *region.image;
  real sample = 0.0;
  if (picture.at_points) {
    // Samples at points, the first and last columns at x_min and x_max: the point falls to the
    // nearest, column round((x - x_min) / (x_max - x_min) (W - 1)) and row
    // round((y_max - y) / (y_max - y_min) (H - 1)), off the picture beyond half a spacing.
    auto nearest = [](real from, real to, real at, index_t count) -> std::optional<index_t> {
      const real k = std::round((at - from) / (to - from) * static_cast<real>(count - 1));
      if (!(k >= 0.0 && k <= static_cast<real>(count - 1))) return std::nullopt;
      return static_cast<index_t>(k);
    };
    const std::optional<index_t> column = nearest(region.x_min, region.x_max, r[0], picture.width);
    const std::optional<index_t> row = nearest(region.y_max, region.y_min, r[1], picture.height);
    if (!column || !row) return std::nullopt;
    sample = picture.at(*column, *row);
  } else {
    // Samples in cells: the point falls in column floor((x - x_min) / (x_max - x_min) W) and
    // row floor((y_max - y) / (y_max - y_min) H), the far edges in the last ones.
    if (r[0] < region.x_min || r[0] > region.x_max || r[1] < region.y_min || r[1] > region.y_max)
      return std::nullopt;
    auto cell = [](real from, real to, real at, index_t count) {
      const auto k =
          static_cast<index_t>(std::floor((at - from) / (to - from) * static_cast<real>(count)));
      return std::clamp<index_t>(k, 0, count - 1);
    };
    sample = picture.at(cell(region.x_min, region.x_max, r[0], picture.width),
                        cell(region.y_max, region.y_min, r[1], picture.height));
  }
  // A NaN sample is no data: the point is off the picture there.
  if (std::isnan(sample)) return std::nullopt;
  return sample;
}

bool in_tissue(const std::vector<TissueRegion>& regions, const Point& r) {
  bool tissue = regions.empty() || !regions.front().add;
  for (const TissueRegion& region : regions)
    if (region_contains(region, r)) tissue = region.add;
  return tissue;
}

std::vector<std::uint8_t> tissue_mask(const std::vector<TissueRegion>& regions,
                                      const Domain& domain) {
  if (regions.empty()) return {};
  // The points in the tissue, then the nodes at a cell all of whose corners are such points.
  const auto count = static_cast<std::size_t>(domain.node_count());
  std::vector<std::uint8_t> points(count);
  for (index_t node = 0; node < domain.node_count(); ++node)
    points[static_cast<std::size_t>(node)] = static_cast<std::uint8_t>(
        in_tissue(regions, domain.position(node)) ? NodeType::tissue : NodeType::outside);
  const std::vector<std::uint8_t> quadrants = tissue_quadrants(points, domain);
  std::vector<std::uint8_t> mask(count);
  bool any_outside = false;
  for (std::size_t node = 0; node < count; ++node) {
    mask[node] =
        static_cast<std::uint8_t>(quadrants[node] != 0 ? NodeType::tissue : NodeType::outside);
    any_outside = any_outside || quadrants[node] == 0;
  }
  if (!any_outside) mask.clear();
  return mask;
}

std::vector<std::uint8_t> tissue_quadrants(const std::vector<std::uint8_t>& node_type,
                                           const Domain& domain) {
  const index_t nx = domain.nodes[0], ny = domain.nodes[1];
  FHN_VERIFY(node_type.empty() || node_type.size() == static_cast<std::size_t>(nx * ny),
             InternalError, "tissue_quadrants: one mask entry per node of the sheet");
  auto tissue = [&](index_t i, index_t j) {
    return node_type.empty() || node_type[static_cast<std::size_t>(i + nx * j)] == 0;
  };
  // Cell (i, j): corners (i, j) .. (i + 1, j + 1), inside the sheet.
  auto cell = [&](index_t i, index_t j) {
    return i >= 0 && j >= 0 && i < nx - 1 && j < ny - 1 && tissue(i, j) && tissue(i + 1, j) &&
           tissue(i, j + 1) && tissue(i + 1, j + 1);
  };
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(nx * ny));
  for (index_t j = 0; j < ny; ++j)
    for (index_t i = 0; i < nx; ++i)
      bytes[static_cast<std::size_t>(i + nx * j)] = static_cast<std::uint8_t>(
          (cell(i, j) ? kQuadrantNE : 0) | (cell(i - 1, j) ? kQuadrantNW : 0) |
          (cell(i, j - 1) ? kQuadrantSE : 0) | (cell(i - 1, j - 1) ? kQuadrantSW : 0));
  return bytes;
}

}  // namespace fhn
