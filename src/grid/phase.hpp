#pragma once
// The phase of a node's state about the point (v_iso, w_iso) of the (v, w) plane (Gray, Pertsov
// and Jalife, Nature 392, 75-78 (1998)), in [-pi, pi]:
//   theta = atan2(w - w_iso, v - v_iso).
// Written once: the phase singularities (study/spiral_tips.hpp) wind it around a cell, and the
// frames carry it as the point array "phase" (output.phase, io/vtk_writers.hpp).
#include <cmath>

#include "core/types.hpp"

namespace fhn {

// The two levels the phase turns about: a sheet's tip levels (output.tips.v, .w), a box's
// filament levels (output.filaments.v, .w).
struct PhaseLevels {
  real v_iso = 0.0;
  real w_iso = 0.0;
};

inline real phase_angle(real v, real w, real v_iso, real w_iso) {
  return std::atan2(w - w_iso, v - v_iso);
}

}  // namespace fhn
