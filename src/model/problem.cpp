#include "model/problem.hpp"

#include "grid/uniform_grid.hpp"
#include "model/initial.hpp"

namespace fhn {

Problem make_problem(const Config& c) {
  Problem p;
  p.model = c.model;
  p.boundary = c.boundary;
  p.nodes = c.domain.nodes;
  p.dx = c.domain.dx;
  p.dt = c.time.dt;
  p.x = uniform_nodes(c.domain.length, c.domain.nodes);
  p.v0 = sample_profile(c.initial.v, p.x);
  p.w0 = sample_profile(c.initial.w, p.x);
  p.stimuli = StimulusSchedule(c.stimulus, p.dx, p.nodes, p.dt);

  // The discrete boundary conditions hold from t = 0 on.
  const index_t last = p.nodes - 1;
  if (c.boundary.left.type == BoundaryType::dirichlet)
    p.v0[0] = c.boundary.left.value;
  else if (c.boundary.no_flux_order == 1)
    p.v0[0] = p.v0[1];
  if (c.boundary.right.type == BoundaryType::dirichlet)
    p.v0[last] = c.boundary.right.value;
  else if (c.boundary.no_flux_order == 1)
    p.v0[last] = p.v0[last - 1];
  return p;
}

}  // namespace fhn
