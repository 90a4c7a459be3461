#pragma once
// The ends of every axis as the node updates read them (host and device), and the one rule of
// which Dirichlet end holds a node: the first of axis 0's low (x = 0) and high (x = Lx) ends,
// then axis 1's (y = 0, y = Ly), then axis 2's, that is Dirichlet and contains it, so a corner
// between two Dirichlet sides takes the earlier one's value. An axis the domain does not have
// (one node along it) has no-flux ends: a cable is a sheet of one row whose bottom and top are
// no-flux. model/sides.hpp fills them from a run's boundary spec.
#include "core/types.hpp"
#include "grid/domain.hpp"

namespace fhn {

enum class BoundaryType { no_flux, dirichlet };

struct Sides {
  // [axis][end], end 0 the low one (coordinate 0), 1 the high one.
  BoundaryType type[kMaxAxes][2] = {{BoundaryType::no_flux, BoundaryType::no_flux},
                                    {BoundaryType::no_flux, BoundaryType::no_flux},
                                    {BoundaryType::no_flux, BoundaryType::no_flux}};
  real value[kMaxAxes][2] = {{0.0, 0.0}, {0.0, 0.0}, {0.0, 0.0}};
};

// Whether a Dirichlet end holds the node at index `at` (per axis) of a grid of n nodes per axis,
// and its value. kAxes: the axes to look at (the grid's; beyond them every end is no-flux), a
// constant so that a sheet's kernels test its four sides and no more.
template <int kAxes = kMaxAxes>
FHN_HOST_DEVICE inline bool dirichlet_at(const Sides& s, const index_t (&at)[kMaxAxes],
                                         const index_t (&n)[kMaxAxes], real& value) {
  static_assert(kAxes >= 1 && kAxes <= kMaxAxes, "a grid has 1 to 3 axes");
  for (int axis = 0; axis < kAxes; ++axis)
    for (int end = 0; end < 2; ++end)
      if (at[axis] == (end == 0 ? 0 : n[axis] - 1) && s.type[axis][end] == BoundaryType::dirichlet) {
        value = s.value[axis][end];
        return true;
      }
  return false;
}

// Whether any end of the first kAxes axes is Dirichlet (if not, dirichlet_at holds no node).
template <int kAxes = kMaxAxes>
FHN_HOST_DEVICE inline bool any_dirichlet(const Sides& s) {
  for (int axis = 0; axis < kAxes; ++axis)
    for (int end = 0; end < 2; ++end)
      if (s.type[axis][end] == BoundaryType::dirichlet) return true;
  return false;
}

}  // namespace fhn
