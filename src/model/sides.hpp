#pragma once
// The ends of every axis of a run's boundary spec as the node updates read them (grid/sides.hpp:
// Sides and the one rule of which Dirichlet end holds a node).
#include "config/config.hpp"
#include "grid/sides.hpp"

namespace fhn {

// The sides of `bc` for a domain of `dims` axes (left/right, bottom/top, front/back).
inline Sides sides_of(const BoundarySpec& bc, int dims) {
  Sides s;
  for (int axis = 0; axis < dims && axis < kMaxAxes; ++axis)
    for (int end = 0; end < 2; ++end) {
      const BoundarySide& side = bc.side(axis, end == 1);
      s.type[axis][end] = side.type;
      s.value[axis][end] = side.value;
    }
  return s;
}

}  // namespace fhn
