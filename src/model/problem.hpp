#pragma once
// Everything a scheme needs to know about the equations, independent of how it discretises
// time: parameters, the grid, boundary conditions, stimuli and the initial state.
#include <vector>

#include "config/config.hpp"
#include "grid/time_grid.hpp"
#include "model/parameter_fields.hpp"
#include "model/stimulus.hpp"

namespace fhn {

struct Problem {
  ModelParams model;
  BoundarySpec boundary;
  Domain domain;          // the uniform grid: a cable or a sheet (nodes, dx, coordinates)
  TimeGrid time;          // dt, the number of steps and t(step)
  std::vector<real> v0;   // initial v at every node (i + N_x j), boundary conditions applied
  std::vector<real> w0;   // initial w
  StimulusSchedule stimuli;
  ParameterFields fields;  // where model's parameters vary per node, and node types (uniform today)
};

Problem make_problem(const Config& config);

// The per-node arrays make_problem(config) gives its fields (ParameterFields::arrays), from the
// config alone, before anything is allocated: D and each kinetics parameter per node where a
// `fields:` entry names it, the tensor's three components where one names fibre_angle, the mask
// where `tissue:` has regions (make_problem leaves it out where they leave every node tissue: an
// upper bound), the schemes' quadrant bytes where any of these or anisotropy is there.
FieldArrays field_arrays(const Config& config);

}  // namespace fhn
