#include "model/tissue.hpp"

#include <cmath>

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
      // Even-odd rule: a ray from r along +x crosses the boundary an odd number of times.
      bool inside = false;
      const std::vector<Point>& p = region.points;
      for (std::size_t i = 0, j = p.size() - 1; i < p.size(); j = i++) {
        const bool straddles = (p[i][1] > r[1]) != (p[j][1] > r[1]);
        if (straddles &&
            r[0] < p[j][0] + (r[1] - p[j][1]) * (p[i][0] - p[j][0]) / (p[i][1] - p[j][1]))
          inside = !inside;
      }
      return inside;
    }
  }
  return false;
}

bool in_tissue(const std::vector<TissueRegion>& regions, const Point& r) {
  bool tissue = regions.empty() || !regions.front().add;
  for (const TissueRegion& region : regions)
    if (region_contains(region, r)) tissue = region.add;
  return tissue;
}

std::vector<std::uint8_t> tissue_mask(const std::vector<TissueRegion>& regions, const Domain& domain) {
  if (regions.empty()) return {};
  const auto count = static_cast<std::size_t>(domain.node_count());
  std::vector<std::uint8_t> in(count);
  for (index_t node = 0; node < domain.node_count(); ++node)
    in[static_cast<std::size_t>(node)] = in_tissue(regions, domain.position(node)) ? 1 : 0;
  // Cell (i, j) is tissue when its corners (i, j) .. (i + 1, j + 1) all are; a node is tissue
  // when one of the (up to four) cells at it is.
  const index_t nx = domain.nodes[0], ny = domain.nodes[1];
  auto cell = [&](index_t i, index_t j) {
    if (i < 0 || j < 0 || i >= nx - 1 || j >= ny - 1) return false;
    const std::size_t c = static_cast<std::size_t>(i + nx * j), up = static_cast<std::size_t>(nx);
    return in[c] && in[c + 1] && in[c + up] && in[c + up + 1];
  };
  std::vector<std::uint8_t> mask(count);
  bool any_outside = false;
  for (index_t j = 0; j < ny; ++j)
    for (index_t i = 0; i < nx; ++i) {
      const bool tissue = cell(i, j) || cell(i - 1, j) || cell(i, j - 1) || cell(i - 1, j - 1);
      mask[static_cast<std::size_t>(i + nx * j)] =
          static_cast<std::uint8_t>(tissue ? NodeType::tissue : NodeType::outside);
      any_outside = any_outside || !tissue;
    }
  if (!any_outside) mask.clear();
  return mask;
}

}  // namespace fhn
