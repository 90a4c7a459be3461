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

// Throws ConfigError naming the key (Config::where locates it) where `config` asks for a problem
// that cannot be built (check_problem).
Problem make_problem(const Config& config);

// The per-node arrays make_problem(config) gives its fields (ParameterFields::arrays), from the
// config alone, before anything is allocated: D and each kinetics parameter per node where a
// `fields:` entry names it, the tensor's three components where one names fibre_angle, the mask
// where `tissue:` has regions (make_problem leaves it out where they leave every node tissue: an
// upper bound), the schemes' quadrant bytes where any of these or anisotropy is there.
FieldArrays field_arrays(const Config& config);

// The parameter fields of `config` (fields:, anisotropy:, tissue:) as make_problem puts them in
// Problem::fields, before check_fields: D and each kinetics parameter per node where a `fields:`
// entry names it, the tensor, the mask. Throws ConfigError at anisotropy.transverse or
// .longitudinal where the tensor loses its positive definiteness to round-off
// (anisotropic_tensor, model/field_values.hpp). The loader builds them once and runs its
// physics checks on them (the stability limit, model/stability.hpp; the tissue checks) and
// check_problem.
ParameterFields build_parameter_fields(const Config& config);

// What make_problem refuses of `config` with its fields `fields` (build_parameter_fields), found
// without building the rest of the problem: per-node parameters out of their interval and a
// diffusion tensor that is not positive definite (check_fields), an initial state it cannot
// build (check_initial_state, model/initial.hpp: a spiral or scroll-ring start in a form without
// an excursion, a node without a single resting state, a value that is not finite), a medium
// that the scheme does not read in one process (the capability table, config/capabilities.hpp).
// Throws ConfigError naming the key where there is one. The loader calls it (config/loader.hpp),
// so that fhn validate refuses what fhn run would, and fhn run does before it writes anything.
void check_problem(const Config& config, const ParameterFields& fields);

}  // namespace fhn
