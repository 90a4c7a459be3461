#include "model/problem.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include "config/capability_key.hpp"
#include "model/field_values.hpp"
#include "model/initial.hpp"
#include "model/sides.hpp"
#include "model/tissue.hpp"

namespace fhn {
namespace {

Problem build_problem(const Config& c) {
  Problem p;
  p.model = c.model;
  p.boundary = c.boundary;
  p.domain = c.domain;
  p.time = c.time.grid();
  p.fields = build_parameter_fields(c);
  check_fields(p.fields, c.model, c.domain.node_count());
  // Each node's resting state from its own parameters; a spiral or scroll-ring start (the
  // loader asks for it on v and w together) needs the form's excursion. A node outside the
  // tissue starts, and stays, at its resting state.
  const real* values[kMaxFormParameters] = {};
  kinetics_values(p.fields, values);
  NodeRest rest(c.model.kinetics, values);
  std::optional<Excursion> excursion;
  if (excursion_start(c.initial.v.type)) excursion = form_excursion(c.model.kinetics);
  sample_fields(c.initial, c.domain, rest, excursion ? &*excursion : nullptr, p.v0, p.w0);
  p.stimuli = StimulusSchedule(c.stimulus, c.domain, p.time.dt);
  for (std::size_t node = 0; node < p.fields.node_type.size(); ++node)
    if (p.fields.node_type[node] == static_cast<std::uint8_t>(NodeType::outside)) {
      const NodeState here = rest.at(static_cast<index_t>(node), false);
      p.v0[node] = here.v;
      p.w0[node] = here.w;
    }

  // The discrete boundary conditions hold from t = 0 on.
  if (c.domain.dims >= 2) {
    const Sides sides = sides_of(c.boundary, c.domain.dims);
    const index_t n[kMaxAxes] = {c.domain.nodes[0], c.domain.nodes[1], c.domain.nodes[2]};
    for (index_t node = 0; node < c.domain.node_count(); ++node) {
      index_t at[kMaxAxes];
      c.domain.axis_indices(node, at);
      dirichlet_at(sides, at, n, p.v0[static_cast<std::size_t>(node)]);
    }
    return p;
  }
  const index_t last = p.domain.node_count() - 1;
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

}  // namespace

// What the problem refuses names its key; located here, where the Config is.
Problem make_problem(const Config& c) {
  try {
    return build_problem(c);
  } catch (const ConfigError& e) {
    if (e.key().empty()) throw;
    throw ConfigError(c.where(e.key()) + ": " + e.what());
  }
}

FieldArrays field_arrays(const Config& c) {
  auto named = [&](const std::string& parameter) {
    return std::any_of(c.fields.begin(), c.fields.end(),
                       [&](const FieldSpec& field) { return field.parameter == parameter; });
  };
  FieldArrays held;
  held.values = named("diffusion") ? 1 : 0;
  with_kinetics(c.model.kinetics, [&](const auto& k) {
    k.parameters(k, [&](const char* key, const real&, const Interval&) {
      held.values += named(key) ? 1 : 0;
    });
  });
  if (c.anisotropy.enabled && named("fibre_angle")) held.values += 3;
  held.mask = !c.tissue.empty();
  held.quadrants = held.values > 0 || held.mask || c.anisotropy.enabled;
  return held;
}

ParameterFields build_parameter_fields(const Config& c) {
  // `fields` gives D and the form's parameters per node where an entry names them (each stays
  // uniform otherwise), `anisotropy` the diffusion tensor (per node where the fibre angle varies);
  // `tissue` makes the mask.
  ParameterFields fields = uniform_fields(c.model);
  fields.diffusion.values = field_values(c.fields, "diffusion", c.model.diffusion, c.domain);
  fill_kinetics_fields(c, fields);
  if (c.anisotropy.enabled)
    fields.tensor = anisotropic_tensor(
        c.anisotropy, field_values(c.fields, "fibre_angle", c.anisotropy.angle, c.domain));
  fields.node_type = tissue_mask(c.tissue, c.domain);
  return fields;
}

void check_problem(const Config& c, const ParameterFields& fields) {
  check_fields(fields, c.model, c.domain.node_count());
  check_initial_state(c, fields);
  capability::require(capability_key(c, capability::Mode::one_process, medium_of(fields)));
}

}  // namespace fhn
