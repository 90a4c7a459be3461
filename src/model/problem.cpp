#include "model/problem.hpp"

#include "grid/uniform_grid.hpp"
#include "model/initial.hpp"

namespace fhn {

const BoundarySide* dirichlet_side(const BoundarySpec& b, const Domain& d, index_t node) {
  const index_t i = node % d.nodes[0];
  const index_t j = node / d.nodes[0];
  const struct {
    const BoundarySide& side;
    bool on;
  } sides[] = {{b.left, i == 0},
               {b.right, i == d.nodes[0] - 1},
               {b.bottom, d.dims >= 2 && j == 0},
               {b.top, d.dims >= 2 && j == d.nodes[1] - 1}};
  for (const auto& s : sides)
    if (s.on && s.side.type == BoundaryType::dirichlet) return &s.side;
  return nullptr;
}

Problem make_problem(const Config& c) {
  Problem p;
  p.model = c.model;
  p.boundary = c.boundary;
  p.domain = c.domain;
  p.nodes = c.domain.node_count();
  p.dx = c.domain.dx;
  p.dt = c.time.dt;
  p.x = uniform_nodes(c.domain.length[0], c.domain.nodes[0]);
  if (c.domain.dims >= 2) p.y = uniform_nodes(c.domain.length[1], c.domain.nodes[1]);
  p.v0 = sample_profile(c.initial.v, c.domain);
  p.w0 = sample_profile(c.initial.w, c.domain);
  p.stimuli = StimulusSchedule(c.stimulus, c.domain, p.dt);

  // The discrete boundary conditions hold from t = 0 on.
  if (c.domain.dims >= 2) {
    for (index_t node = 0; node < p.nodes; ++node)
      if (const BoundarySide* side = dirichlet_side(c.boundary, c.domain, node))
        p.v0[static_cast<std::size_t>(node)] = side->value;
    return p;
  }
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
