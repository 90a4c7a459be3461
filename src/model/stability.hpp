#pragma once
// The largest time step at which forward Euler (the explicit and adaptive_explicit schemes) is
// stable: computed once, here, for the config check that refuses a larger dt and for the hint
// a run prints when its solution stops being finite.
#include <string>

#include "config/config.hpp"
#include "model/parameter_fields.hpp"

namespace fhn {

struct ExplicitLimit {
  real dt = 0.0;          // the largest stable time step
  real diffusion = 0.0;   // lambda_max = 4 d D / dx^2, the odd-even mode's rate under D L_h
  std::string rate = "4 d D/dx^2";  // how lambda_max was found, as explain() names it
  real slope = 0.0;       // min f'(v) over [v_low, v_high]
  real v_low = 0.0, v_high = 1.0;  // the range of v the bound covers
  real diffusion_dt = 0.0;  // dx^2 / (2 d D): the limit of diffusion alone

  // "forward Euler multiplies the odd-even mode by 1 - dt r per step, r = ... (...), and
  // 1 - dt r >= -1 needs dt <= 2/r = ..."
  std::string explain() const;
};

// The limit for `model` on a grid of spacing dx (the smallest; an adaptive grid's base dx) on
// `dims` axes, with the boundary values `boundary` holds (see stability.cpp for the derivation).
ExplicitLimit explicit_limit(const ModelParams& model, const BoundarySpec& boundary, int dims,
                             real dx);

// The limit of a run on `domain` whose parameter fields are `fields` (the Problem's,
// make_problem, or the loader's build of them, build_parameter_fields; model/problem.hpp): with
// per-node parameters or anisotropy, the smallest over the nodes' kinetics parameters with the
// largest odd-even rate of the sheet's diffusion (stability.cpp); the above when every parameter
// is uniform and the diffusion isotropic.
ExplicitLimit explicit_limit(const ModelParams& model, const BoundarySpec& boundary,
                             const Domain& domain, const ParameterFields& fields);

// Throws ConfigError at the key whose value makes a rate the schemes compute overflow a double,
// so that neither the bound above nor a step can be computed (stability.cpp says which rates):
// domain.dx (1/dx^2), a diffusion coefficient (model.diffusion, anisotropy.longitudinal or
// .transverse, or the value, from or to of a fields: entry for diffusion), a kinetics parameter
// (model.<key>, or a fields: entry's value for it) or a Dirichlet value (boundary.<side>.value)
// that overflows alone, the form's other parameters at their defaults.
void check_rates(const Config& config);

}  // namespace fhn
