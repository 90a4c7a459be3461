#pragma once
// Where the medium is on a sheet: the node-type mask of the config's `tissue` regions
// (docs/ARCHITECTURE.md section 4, "Parameter fields").
#include <cstdint>
#include <optional>
#include <vector>

#include "config/config.hpp"

namespace fhn {

// Whether the point r (x, y) lies in the region: a disc's points within its radius of the
// centre, a rectangle's within its bounds, a polygon's by the even-odd rule (edges included
// up to round-off), an image's where the sample the point takes (picture_value) is on the
// region's side of its threshold (config/config.hpp).
bool region_contains(const TissueRegion& region, const Point& r);

// An edge's corners a, b and a point r (x, y) scaled by one power of two, 2^-exponent, the
// exponent that of their largest coordinate, so that the largest scaled coordinate lies in
// [1, 2): the differences and products the polygon's tests form from them (at most 16) cannot
// overflow for any finite coordinates, as they do unscaled beyond about 1e154. A power of two
// scales exactly, so a test of the scaled points decides as the unscaled one does wherever that
// one does not overflow (a coordinate below 2^-1022 of the largest may lose bits, far below the
// largest's round-off).
struct ScaledEdge {
  Point a, b, r;
  int exponent = 0;
};
ScaledEdge scaled_edge(const Point& a, const Point& b, const Point& r);

// The sample of an image region's picture that the point r takes (config/config.hpp, Picture):
// the pixel or cell it falls in, or the nearest point of a picture sampled at points; nullopt
// off the rectangle the picture covers (for points: beyond half a spacing from its edge points)
// and where the sample is NaN (no data).
std::optional<real> picture_value(const TissueRegion& region, const Point& r);

// Whether the point r is tissue under `regions` applied in order: tissue when the last region
// that contains it adds, not when it removes, and, when no region contains it, tissue if the
// first region removes, not if it adds. Every point is tissue when there are no regions.
bool in_tissue(const std::vector<TissueRegion>& regions, const Point& r);

// The node-type mask (NodeType: 0 tissue, 1 outside) of `regions`: a node is tissue when it is
// in_tissue and a corner of at least one grid cell whose four corners all are (the medium is the
// union of such cells, schemes/node_updates.hpp; a node in a strip one node wide belongs to no
// cell and is outside). Empty when every node is tissue, so that such a run is today's, bit for
// bit.
std::vector<std::uint8_t> tissue_mask(const std::vector<TissueRegion>& regions, const Domain& domain);

// Every node's quadrant byte (kQuadrantNE .. kQuadrantSW, model/parameter_fields.hpp): which of
// the grid cells at it are tissue, a cell being tissue when its four corners are (`node_type`:
// the mask, NodeType per node; empty: every node tissue, so that only the sheet's sides leave
// cells out). A node outside the tissue has byte 0. What the schemes that read a mask read.
std::vector<std::uint8_t> tissue_quadrants(const std::vector<std::uint8_t>& node_type,
                                           const Domain& domain);

}  // namespace fhn
