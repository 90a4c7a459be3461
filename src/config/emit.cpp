// Config -> YAML: the resolved configuration written next to the results (config.yaml).
// Reading it back with load_config gives the same Config.
#include <yaml-cpp/yaml.h>

#include "config/loader.hpp"
#include "config/names.hpp"
#include "core/format.hpp"

namespace fhn {
namespace {

// Numbers as their shortest exact decimal text, so the file reproduces the run bit for bit.
YAML::Emitter& operator<<(YAML::Emitter& out, const std::pair<const char*, real>& entry) {
  return out << YAML::Key << entry.first << YAML::Value << format_exact(entry.second);
}

void emit_profile(YAML::Emitter& out, const char* key, const Profile& p) {
  out << YAML::Key << key << YAML::Value << YAML::Flow << YAML::BeginMap;
  out << YAML::Key << "type" << YAML::Value << name_of(profile_type_names(), p.type);
  switch (p.type) {
    case ProfileType::gaussian:
      out << std::pair{"center", p.center}
          << std::pair{"width2", p.width2} << std::pair{"amplitude", p.amplitude}
          << std::pair{"background", p.background};
      break;
    case ProfileType::constant:
      out << std::pair{"value", p.value};
      break;
    case ProfileType::step:
      out << std::pair{"position", p.position}
          << std::pair{"left", p.left} << std::pair{"right", p.right};
      break;
    case ProfileType::tanh_front:
      out << std::pair{"position", p.position} << std::pair{"width", p.width}
          << std::pair{"left", p.left} << std::pair{"right", p.right};
      break;
  }
  out << YAML::EndMap;
}

void emit_side(YAML::Emitter& out, const char* key, const BoundarySide& side) {
  out << YAML::Key << key << YAML::Value << YAML::Flow << YAML::BeginMap;
  out << YAML::Key << "type" << YAML::Value << name_of(boundary_type_names(), side.type);
  if (side.type == BoundaryType::dirichlet) out << std::pair{"value", side.value};
  out << YAML::EndMap;
}

}  // namespace

std::string to_yaml(const Config& c) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  out << YAML::Key << "name" << YAML::Value << c.name;

  out << YAML::Key << "model" << YAML::Value << YAML::BeginMap << std::pair{"a", c.model.a}
      << std::pair{"epsilon", c.model.epsilon} << std::pair{"gamma", c.model.gamma}
      << std::pair{"diffusion", c.model.diffusion} << YAML::EndMap;

  // nodes is the exact grid; dx is derived from it and not repeated (the keys are exclusive).
  out << YAML::Key << "domain" << YAML::Value << YAML::BeginMap
      << std::pair{"length", c.domain.length} << YAML::Key << "nodes" << YAML::Value
      << c.domain.nodes << YAML::EndMap;
  out << YAML::Comment("dx = " + format_exact(c.domain.dx));

  out << YAML::Key << "boundary" << YAML::Value << YAML::BeginMap;
  emit_side(out, "left", c.boundary.left);
  emit_side(out, "right", c.boundary.right);
  out << YAML::Key << "no_flux_order" << YAML::Value << c.boundary.no_flux_order << YAML::EndMap;

  out << YAML::Key << "initial" << YAML::Value << YAML::BeginMap;
  emit_profile(out, "v", c.initial.v);
  emit_profile(out, "w", c.initial.w);
  out << YAML::EndMap;

  out << YAML::Key << "stimulus" << YAML::Value << YAML::BeginSeq;
  for (const Stimulus& s : c.stimulus) {
    out << YAML::Flow << YAML::BeginMap << std::pair{"x_min", s.x_min}
        << std::pair{"x_max", s.x_max} << std::pair{"start", s.start}
        << std::pair{"duration", s.duration} << std::pair{"amplitude", s.amplitude}
        << std::pair{"period", s.period} << YAML::Key << "count" << YAML::Value << s.count
        << YAML::EndMap;
  }
  out << YAML::EndSeq;

  out << YAML::Key << "time" << YAML::Value << YAML::BeginMap << std::pair{"end", c.time.end}
      << std::pair{"dt", c.time.dt} << YAML::EndMap;
  out << YAML::Comment(std::to_string(c.time.steps) + " steps");

  out << YAML::Key << "scheme" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "type" << YAML::Value << name_of(scheme_type_names(), c.scheme.type);
  out << YAML::Key << "backend" << YAML::Value << name_of(backend_names(), c.scheme.backend);
  const CrankNicolsonSpec& cn = c.scheme.crank_nicolson;
  out << YAML::Key << "crank_nicolson" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "w_update" << YAML::Value << name_of(w_update_names(), cn.w_update);
  out << YAML::Key << "tridiagonal" << YAML::Value << name_of(tridiagonal_names(), cn.tridiagonal);
  out << YAML::Key << "newton" << YAML::Value << YAML::Flow << YAML::BeginMap
      << std::pair{"tolerance", cn.newton.tolerance} << YAML::Key << "max_iterations"
      << YAML::Value << cn.newton.max_iterations << YAML::EndMap;
  out << YAML::EndMap;
  const AdaptiveSpec& ad = c.scheme.adaptive;
  out << YAML::Key << "adaptive" << YAML::Value << YAML::BeginMap
      << std::pair{"tolerance", ad.tolerance};
  out << YAML::Key << "coarse_stride" << YAML::Value << ad.coarse_stride;
  out << YAML::Key << "gradient_stride" << YAML::Value << ad.gradient_stride;
  out << YAML::Key << "rate_stride" << YAML::Value << ad.rate_stride;
  out << std::pair{"gradient_threshold", ad.gradient_threshold}
      << std::pair{"rate_threshold", ad.rate_threshold}
      << std::pair{"inflection_radius", ad.inflection_radius};
  out << YAML::Key << "regrid_every" << YAML::Value << ad.regrid_every;
  out << YAML::EndMap;
  out << YAML::EndMap;

  out << YAML::Key << "output" << YAML::Value << YAML::BeginMap << std::pair{"every", c.output.every}
      << YAML::Key << "precision" << YAML::Value
      << name_of(precision_names(), c.output.precision);
  out << YAML::Key << "probes" << YAML::Value << YAML::Flow << YAML::BeginSeq;
  for (real p : c.output.probes) out << format_exact(p);
  out << YAML::EndSeq;
  out << YAML::Key << "vtk" << YAML::Value << c.output.vtk;
  out << YAML::Key << "spacetime" << YAML::Value << c.output.spacetime;
  out << YAML::Key << "newton_log" << YAML::Value << c.output.newton_log;
  out << std::pair{"checkpoint_every", c.output.checkpoint_every};
  out << YAML::EndMap;

  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

}  // namespace fhn
