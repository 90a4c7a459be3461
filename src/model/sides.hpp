#pragma once
// The sides of a sheet as the node updates read them (host and device), and the one rule of
// which Dirichlet side holds a node: the first of left (x = 0), right (x = Lx), bottom (y = 0),
// top (y = Ly) that is Dirichlet and contains it, so a corner between two Dirichlet sides takes
// the earlier one's value. A cable is a sheet of one row whose bottom and top are no-flux.
#include "config/config.hpp"

namespace fhn {

struct Sides {
  BoundaryType type[4] = {BoundaryType::no_flux, BoundaryType::no_flux, BoundaryType::no_flux,
                          BoundaryType::no_flux};  // left, right, bottom, top
  real value[4] = {0.0, 0.0, 0.0, 0.0};
};

inline Sides sides_of(const BoundarySpec& bc) {
  Sides s;
  const BoundarySide* sides[4] = {&bc.left, &bc.right, &bc.bottom, &bc.top};
  for (int k = 0; k < 4; ++k) {
    s.type[k] = sides[k]->type;
    s.value[k] = sides[k]->value;
  }
  return s;
}

// Whether a Dirichlet side holds node (i, j) of an nx x ny grid, and its value.
FHN_HOST_DEVICE inline bool dirichlet_at(const Sides& s, index_t i, index_t j, index_t nx,
                                         index_t ny, real& value) {
  const bool on[4] = {i == 0, i == nx - 1, j == 0, j == ny - 1};
  for (int k = 0; k < 4; ++k)
    if (on[k] && s.type[k] == BoundaryType::dirichlet) {
      value = s.value[k];
      return true;
    }
  return false;
}

}  // namespace fhn
