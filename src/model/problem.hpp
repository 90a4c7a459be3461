#pragma once
// Everything a scheme needs to know about the equations, independent of how it discretises
// time: parameters, the grid, boundary conditions, stimuli and the initial state.
#include <vector>

#include "config/config.hpp"
#include "model/stimulus.hpp"

namespace fhn {

struct Problem {
  ModelParams model;
  BoundarySpec boundary;
  index_t nodes = 0;
  real dx = 0.0;
  real dt = 0.0;
  std::vector<real> x;   // uniform grid
  std::vector<real> v0;  // initial v, boundary conditions already applied
  std::vector<real> w0;  // initial w
  StimulusSchedule stimuli;
};

Problem make_problem(const Config& config);

}  // namespace fhn
