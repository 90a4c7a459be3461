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
  Domain domain;          // the uniform grid: a cable or a sheet
  index_t nodes = 0;      // domain.node_count()
  real dx = 0.0;
  real dt = 0.0;
  std::vector<real> x;    // node coordinates along x (N_x of them)
  std::vector<real> y;    // along y on a sheet (N_y of them); empty on a cable
  std::vector<real> v0;   // initial v at every node (i + N_x j), boundary conditions applied
  std::vector<real> w0;   // initial w
  StimulusSchedule stimuli;
};

Problem make_problem(const Config& config);

}  // namespace fhn
