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

// x (a cable), [x, y] (a sheet) or [x, y, z] (a box).
void emit_point(YAML::Emitter& out, const Point& p, int dims) {
  if (dims == 1) {
    out << format_exact(p[0]);
    return;
  }
  out << YAML::Flow << YAML::BeginSeq;
  for (int a = 0; a < dims; ++a) out << format_exact(p[a]);
  out << YAML::EndSeq;
}

void emit_profile(YAML::Emitter& out, const char* key, const Profile& p, int dims) {
  out << YAML::Key << key << YAML::Value << YAML::Flow << YAML::BeginMap;
  out << YAML::Key << "type" << YAML::Value << name_of(profile_type_names(), p.type);
  const bool sheet = dims >= 2;
  auto emit_axis = [&] {
    if (sheet) out << YAML::Key << "axis" << YAML::Value << axis_name(p.axis);
  };
  switch (p.type) {
    case ProfileType::gaussian:
      out << YAML::Key << "center" << YAML::Value;
      emit_point(out, p.center, dims);
      out << std::pair{"width2", p.width2} << std::pair{"amplitude", p.amplitude}
          << std::pair{"background", p.background};
      break;
    case ProfileType::constant:
      out << std::pair{"value", p.value};
      break;
    case ProfileType::step:
      emit_axis();
      out << std::pair{"position", p.position}
          << std::pair{"left", p.left} << std::pair{"right", p.right};
      break;
    case ProfileType::tanh_front:
      emit_axis();
      out << std::pair{"position", p.position} << std::pair{"width", p.width}
          << std::pair{"left", p.left} << std::pair{"right", p.right};
      break;
    case ProfileType::rectangle:
      out << std::pair{"x_min", p.x_min} << std::pair{"x_max", p.x_max};
      if (sheet) out << std::pair{"y_min", p.y_min} << std::pair{"y_max", p.y_max};
      if (dims == 3) out << std::pair{"z_min", p.z_min} << std::pair{"z_max", p.z_max};
      out << std::pair{"value", p.value} << std::pair{"background", p.background};
      break;
    case ProfileType::rest:
      break;
    case ProfileType::spiral:  // [x, y] on a box too: the scroll's filament runs along z
      out << YAML::Key << "center" << YAML::Value;
      emit_point(out, p.center, 2);
      out << std::pair{"wavelength", p.wavelength};
      break;
    case ProfileType::scroll_ring:
      out << YAML::Key << "center" << YAML::Value;
      emit_point(out, p.center, 3);
      out << std::pair{"radius", p.radius} << std::pair{"wavelength", p.wavelength};
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

// The shape of a region and its keys, inside an open flow mapping (a tissue: region, a fields:
// entry of type region).
void emit_region(YAML::Emitter& out, const TissueRegion& r) {
  out << YAML::Key << "shape" << YAML::Value << name_of(tissue_shape_names(), r.shape);
  switch (r.shape) {
    case TissueShape::disc:
      out << YAML::Key << "center" << YAML::Value;
      emit_point(out, r.center, 2);
      out << std::pair{"radius", r.radius};
      break;
    case TissueShape::rectangle:
      out << std::pair{"x_min", r.x_min} << std::pair{"x_max", r.x_max}
          << std::pair{"y_min", r.y_min} << std::pair{"y_max", r.y_max};
      break;
    case TissueShape::polygon:
      out << YAML::Key << "points" << YAML::Value << YAML::Flow << YAML::BeginSeq;
      for (const Point& p : r.points) emit_point(out, p, 2);
      out << YAML::EndSeq;
      break;
    case TissueShape::image:  // the file by its absolute path (the loader resolved it)
      out << YAML::Key << "file" << YAML::Value << r.file;
      if (!r.array.empty()) out << YAML::Key << "array" << YAML::Value << r.array;
      out << std::pair{"threshold", r.threshold}
          << YAML::Key << "inside" << YAML::Value << (r.above ? "above" : "below")
          << std::pair{"x_min", r.x_min} << std::pair{"x_max", r.x_max}
          << std::pair{"y_min", r.y_min} << std::pair{"y_max", r.y_max};
      break;
  }
}

// tissue:, anisotropy: and fields: (sheets), each written only where the config gives it, so the
// resolved configs (and the digests of checkpoints) of the others stay as they were.
void emit_sheet_media(YAML::Emitter& out, const Config& c) {
  if (!c.tissue.empty()) {
    out << YAML::Key << "tissue" << YAML::Value << YAML::BeginSeq;
    for (const TissueRegion& r : c.tissue) {
      out << YAML::Flow << YAML::BeginMap;
      emit_region(out, r);
      out << YAML::Key << "op" << YAML::Value << (r.add ? "add" : "remove") << YAML::EndMap;
    }
    out << YAML::EndSeq;
  }
  const AnisotropySpec& a = c.anisotropy;
  if (a.enabled)
    out << YAML::Key << "anisotropy" << YAML::Value << YAML::Flow << YAML::BeginMap
        << std::pair{"longitudinal", a.longitudinal} << std::pair{"transverse", a.transverse}
        << std::pair{"angle", a.angle} << YAML::EndMap;
  if (c.fields.empty()) return;
  out << YAML::Key << "fields" << YAML::Value << YAML::BeginSeq;
  for (const FieldSpec& f : c.fields) {
    out << YAML::Flow << YAML::BeginMap << YAML::Key << "parameter" << YAML::Value << f.parameter
        << YAML::Key << "type" << YAML::Value << name_of(field_type_names(), f.type);
    if (f.type == FieldType::region) {
      emit_region(out, f.region);
      out << std::pair{"value", f.value} << std::pair{"edge", f.edge};
    } else if (f.type == FieldType::image) {
      out << YAML::Key << "file" << YAML::Value << f.region.file;
      if (!f.region.array.empty()) out << YAML::Key << "array" << YAML::Value << f.region.array;
      out << std::pair{"x_min", f.region.x_min} << std::pair{"x_max", f.region.x_max}
          << std::pair{"y_min", f.region.y_min} << std::pair{"y_max", f.region.y_max}
          << std::pair{"from", f.from} << std::pair{"to", f.to};
    } else {
      out << YAML::Key << "axis" << YAML::Value << axis_name(f.axis)
          << std::pair{"start", f.start} << std::pair{"end", f.end}
          << std::pair{"from", f.from} << std::pair{"to", f.to};
    }
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

}  // namespace

std::string to_yaml(const Config& c) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  out << YAML::Key << "name" << YAML::Value << c.name;

  out << YAML::Key << "model" << YAML::Value << YAML::BeginMap;
  // The form is written where it is not the default cubic, so the resolved configs (and the
  // digests of checkpoints) of every config from before the forms stay as they were.
  const std::string form = kinetics_name(c.model.kinetics);
  if (form != kinetics_names().front()) out << YAML::Key << "form" << YAML::Value << form;
  with_kinetics(c.model.kinetics, [&](const auto& k) {
    k.parameters(k, [&](const char* key, const real& value, const Interval&) {
      out << std::pair{key, value};
    });
  });
  // With anisotropy: the tensor gives D (model.diffusion is D_l, and the loader refuses the key).
  if (!c.anisotropy.enabled) out << std::pair{"diffusion", c.model.diffusion};
  out << YAML::EndMap;

  // nodes is the exact grid; dx is derived from it and not repeated (the keys are exclusive).
  const Domain& d = c.domain;
  const bool sheet = d.dims >= 2;
  out << YAML::Key << "domain" << YAML::Value << YAML::BeginMap << YAML::Key << "length"
      << YAML::Value;
  if (sheet) {
    out << YAML::Flow << YAML::BeginSeq;
    for (int a = 0; a < d.dims; ++a) out << format_exact(d.length[a]);
    out << YAML::EndSeq << YAML::Key << "nodes" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (int a = 0; a < d.dims; ++a) out << d.nodes[a];
    out << YAML::EndSeq;
  } else {
    out << format_exact(d.length[0]) << YAML::Key << "nodes" << YAML::Value << d.nodes[0];
  }
  out << YAML::EndMap;
  out << YAML::Comment("dx = " + format_exact(d.dx));

  out << YAML::Key << "boundary" << YAML::Value << YAML::BeginMap;
  emit_side(out, "left", c.boundary.left);
  emit_side(out, "right", c.boundary.right);
  if (sheet) {
    emit_side(out, "bottom", c.boundary.bottom);
    emit_side(out, "top", c.boundary.top);
  }
  if (d.dims == 3) {
    emit_side(out, "front", c.boundary.front);
    emit_side(out, "back", c.boundary.back);
  }
  out << YAML::Key << "no_flux_order" << YAML::Value << c.boundary.no_flux_order << YAML::EndMap;

  out << YAML::Key << "initial" << YAML::Value << YAML::BeginMap;
  emit_profile(out, "v", c.initial.v, d.dims);
  emit_profile(out, "w", c.initial.w, d.dims);
  out << YAML::EndMap;

  out << YAML::Key << "stimulus" << YAML::Value << YAML::BeginSeq;
  for (const Stimulus& s : c.stimulus) {
    out << YAML::Flow << YAML::BeginMap << std::pair{"x_min", s.x_min}
        << std::pair{"x_max", s.x_max};
    if (sheet) out << std::pair{"y_min", s.y_min} << std::pair{"y_max", s.y_max};
    if (d.dims == 3) out << std::pair{"z_min", s.z_min} << std::pair{"z_max", s.z_max};
    out << std::pair{"start", s.start}
        << std::pair{"duration", s.duration} << std::pair{"amplitude", s.amplitude}
        << std::pair{"period", s.period} << YAML::Key << "count" << YAML::Value << s.count
        << YAML::Key << "coverage" << YAML::Value << name_of(coverage_names(), s.coverage)
        << YAML::EndMap;
  }
  out << YAML::EndSeq;
  emit_sheet_media(out, c);

  out << YAML::Key << "time" << YAML::Value << YAML::BeginMap << std::pair{"end", c.time.end}
      << std::pair{"dt", c.time.dt} << YAML::EndMap;
  out << YAML::Comment(std::to_string(c.time.steps) + " steps");

  out << YAML::Key << "scheme" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "type" << YAML::Value << name_of(scheme_type_names(), c.scheme.type);
  out << YAML::Key << "backend" << YAML::Value << name_of(backend_names(), c.scheme.backend);
  // Written only where it is not the default, so the resolved configs of the others stay as they
  // were (config_digest leaves the key out of checkpoints' digests either way).
  if (c.scheme.explicit_limit != ExplicitLimitCheck::reaction)
    out << YAML::Key << "explicit_limit" << YAML::Value
        << name_of(explicit_limit_names(), c.scheme.explicit_limit);
  const CrankNicolsonSpec& cn = c.scheme.crank_nicolson;
  out << YAML::Key << "crank_nicolson" << YAML::Value << YAML::BeginMap;
  // Written where it is not a cable's newton, so the resolved cable configs (and the digests of
  // their checkpoints) stay as they were.
  if (sheet || cn.formulation != Formulation::newton)
    out << YAML::Key << "formulation" << YAML::Value << name_of(formulation_names(), cn.formulation);
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
  for (const Point& p : c.output.probes) emit_point(out, p, d.dims);
  out << YAML::EndSeq;
  // Written where they say something the defaults do not (and so left out of the checkpoints'
  // digest, which hashes an OutputSpec{}: run/checkpoint.hpp).
  if (c.output.probes_every != c.output.every)
    out << std::pair{"probes_every", c.output.probes_every};
  if (!c.output.probes.empty()) {
    const RestitutionSpec& r = c.output.restitution;
    out << YAML::Key << "restitution" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key
        << "enabled" << YAML::Value << r.enabled << std::pair{"level", r.level} << YAML::EndMap;
  }
  out << YAML::Key << "stride" << YAML::Value << c.output.stride;
  out << YAML::Key << "vtk" << YAML::Value << c.output.vtk;
  out << YAML::Key << "spacetime" << YAML::Value << c.output.spacetime;
  out << YAML::Key << "newton_log" << YAML::Value << c.output.newton_log;
  out << std::pair{"checkpoint_every", c.output.checkpoint_every};
  // Written only when asked for, so that the resolved configs of the others stay as they were.
  if (c.output.ecg.enabled()) {
    out << YAML::Key << "ecg" << YAML::Value << YAML::BeginMap << YAML::Key << "electrodes"
        << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (const Point& p : c.output.ecg.electrodes)
      emit_point(out, p, EcgSpec::coordinates(d.dims));
    out << YAML::EndSeq << std::pair{"every", c.output.ecg.every} << YAML::EndMap;
  }
  if (c.output.phase) out << YAML::Key << "phase" << YAML::Value << true;
  if (sheet) {
    const ActivationSpec& a = c.output.activation;
    out << YAML::Key << "activation" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key
        << "enabled" << YAML::Value << a.enabled << std::pair{"threshold", a.threshold}
        << YAML::Key << "last" << YAML::Value << a.last << YAML::EndMap;
    const TipSpec& t = c.output.tips;
    out << YAML::Key << "tips" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key
        << "enabled" << YAML::Value << t.enabled << std::pair{"v", t.v_iso}
        << std::pair{"w", t.w_iso} << std::pair{"breakup", t.breakup}
        << std::pair{"drift", t.drift} << std::pair{"meander", t.meander};
    if (t.every != c.output.every) out << std::pair{"every", t.every};
    out << YAML::EndMap;
  }
  if (d.dims == 3) {
    const FilamentSpec& f = c.output.filaments;
    out << YAML::Key << "filaments" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key
        << "enabled" << YAML::Value << f.enabled << std::pair{"v", f.v_iso}
        << std::pair{"w", f.w_iso};
    if (f.settle >= 0.0) out << std::pair{"settle", f.settle};
    if (f.every != c.output.every) out << std::pair{"every", f.every};
    out << YAML::EndMap;
  }
  out << YAML::EndMap;

  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

}  // namespace fhn
