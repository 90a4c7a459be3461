#pragma once
// A curve in space through points in order: a filament of a scroll wave (study/filaments.hpp),
// written by io as VTK PolyData.
#include <vector>

#include "grid/domain.hpp"

namespace fhn {

// The Euclidean distance of two points (all three coordinates).
real distance(const Point& a, const Point& b);

struct Polyline {
  std::vector<Point> points;  // in order along the curve (x, y, z)
  bool closed = false;        // a loop: its last point joins its first
  // The sum of the segments' lengths (the closing segment included for a loop).
  real length() const;
  // A loop's radius: the mean distance of its points from their centroid.
  real radius() const;
};

}  // namespace fhn
