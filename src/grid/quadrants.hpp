#pragma once
// A node's quadrant byte: which of the four grid cells at it (NE, NW, SE, SW of the node) are
// tissue, a bit each (model/tissue.hpp tissue_quadrants; 0: the node is not in the medium). The
// schemes that read a mask compute it once and read it in place of the mask.

namespace fhn {

constexpr unsigned kQuadrantNE = 1, kQuadrantNW = 2, kQuadrantSE = 4, kQuadrantSW = 8;

}  // namespace fhn
