// YAML -> Config: reading the document's sections and keys (the schema), after overrides.cpp
// has applied the --set options and before checks.cpp checks the keys against each other.
// yaml-cpp is included only here and in the other src/config/*.cpp files.
#include "config/loader.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <optional>

#include "config/checks.hpp"
#include "config/names.hpp"
#include "config/overrides.hpp"
#include "config/yaml_reader.hpp"
#include "core/format.hpp"
#include "model/tissue.hpp"

namespace fhn {
namespace {

using namespace config_detail;

// ---------------------------------------------------------------------------------------------
// The schema

// The domain's centre, the default centre of a gaussian.
Point domain_centre(const Domain& d) {
  Point c{0.0, 0.0, 0.0};
  for (int axis = 0; axis < d.dims; ++axis) c[axis] = 0.5 * d.length[axis];
  return c;
}

// A position given as x (cables) or [x, y] (sheets) at `path`; nullopt after reporting why not.
std::optional<Point> read_point(Context& ctx, const YAML::Node& node, const std::string& path,
                                const Domain& d) {
  const std::string form = d.dims == 1 ? "a number x" : "a list [x, y]";
  Point p{0.0, 0.0, 0.0};
  auto number_at = [&](const YAML::Node& n, const std::string& where, real& out) {
    const std::optional<real> x = parse_finite(ctx, where, n, "a finite number");
    if (x) out = *x;
    return x.has_value();
  };
  if (d.dims == 1 && !node.IsSequence()) {
    if (!number_at(node, path, p[0])) return std::nullopt;
    return p;
  }
  if (!node.IsSequence() || node.size() != static_cast<std::size_t>(d.dims)) {
    ctx.error(path, node.Mark(), path + ": expected " + form + " (the domain has " +
                                     std::to_string(d.dims) + (d.dims == 1 ? " axis" : " axes") +
                                     "), got " + node_text(node));
    return std::nullopt;
  }
  for (int axis = 0; axis < d.dims; ++axis)
    if (!number_at(node[static_cast<std::size_t>(axis)], path + "[" + std::to_string(axis) + "]",
                   p[axis]))
      return std::nullopt;
  return p;
}

// The axis named at `key` ("x", or "y" on a sheet) of a step or tanh_front profile.
int read_axis(Section& s, const Domain& d) {
  const std::string name = s.text("axis", "x");
  if (name == "x") return 0;
  if (name == "y" && d.dims >= 2) return 1;
  s.context().error(s.path_of("axis"), s.path_of("axis") + ": " + quoted(name) + " is not allowed; expected " +
                                           (d.dims >= 2 ? "x or y" : "x (the domain is a cable)"));
  return 0;
}

Profile read_profile(Section& parent, const std::string& key, const Profile& fallback,
                     const Domain& d) {
  Section s = parent.section(key);
  Profile p = fallback;
  const bool given = s.node().IsMap();
  p.type = s.choice("type", given ? ProfileType::constant : fallback.type, profile_type_names());
  if (given && !s.has("type"))
    s.context().error(s.path(), s.node().Mark(),
                      "missing required key '" + s.path_of("type") +
                          "' (one of: " + join(names_of(profile_type_names())) + ")");
  // Keys of each profile type; keys of the other types are reported as not applicable.
  const bool sheet = d.dims >= 2;
  const std::vector<std::string> rectangle_keys =
      sheet ? std::vector<std::string>{"x_min", "x_max", "y_min", "y_max", "value", "background"}
            : std::vector<std::string>{"x_min", "x_max", "value", "background"};
  const std::vector<std::pair<ProfileType, std::vector<std::string>>> keys{
      {ProfileType::gaussian, {"center", "width2", "amplitude", "background"}},
      {ProfileType::constant, {"value"}},
      {ProfileType::step, {"position", "axis", "left", "right"}},
      {ProfileType::tanh_front, {"position", "axis", "width", "left", "right"}},
      {ProfileType::rectangle, rectangle_keys},
      {ProfileType::rest, {}},
      {ProfileType::spiral, {"center", "wavelength"}}};
  std::vector<std::string> own;
  for (const auto& [type, names] : keys)
    if (type == p.type) own = names;
  const std::string& type_name = name_of(profile_type_names(), p.type);
  if (!sheet)
    for (const char* name : {"y_min", "y_max"})
      s.forbid(name, "applies to sheets only (domain.length: [Lx, Ly]); this domain is a cable");
  for (const auto& [type, names] : keys)
    for (const auto& name : names)
      if (std::find(own.begin(), own.end(), name) == own.end())
        s.forbid(name, "not a parameter of a '" + type_name + "' profile (" +
                           (own.empty() ? std::string("its only key: type") : "its keys: type, " + join(own)) +
                           ")");

  // The coordinate range of the axis a step or front runs along, for its default position.
  auto axis_length = [&](int axis) { return d.length[axis]; };
  switch (p.type) {
    case ProfileType::gaussian: {
      p.center = given ? domain_centre(d) : fallback.center;
      const YAML::Node centre = s.raw("center");
      if (centre.IsDefined())
        if (auto c = read_point(s.context(), centre, s.path_of("center"), d)) p.center = *c;
      p.width2 = s.number("width2", given ? 10.0 : fallback.width2, positive());
      p.amplitude = s.number("amplitude", given ? 1.0 : fallback.amplitude, any_number());
      p.background = s.number("background", given ? 0.0 : fallback.background, any_number());
      break;
    }
    case ProfileType::constant:
      p.value = s.number("value", given ? 0.0 : fallback.value, any_number());
      break;
    case ProfileType::step:
      p.axis = read_axis(s, d);
      p.position = s.number("position", 0.5 * axis_length(p.axis), any_number());
      p.left = s.number("left", 1.0, any_number());
      p.right = s.number("right", 0.0, any_number());
      break;
    case ProfileType::tanh_front:
      p.axis = read_axis(s, d);
      p.position = s.number("position", 0.5 * axis_length(p.axis), any_number());
      p.width = s.number("width", 1.0, positive());
      p.left = s.number("left", 1.0, any_number());
      p.right = s.number("right", 0.0, any_number());
      break;
    case ProfileType::rectangle:
      p.x_min = s.required_number("x_min", any_number());
      p.x_max = s.required_number("x_max", any_number());
      if (sheet) {
        p.y_min = s.number("y_min", 0.0, any_number());
        p.y_max = s.number("y_max", d.length[1], any_number());
      }
      p.value = s.number("value", 1.0, any_number());
      p.background = s.number("background", 0.0, any_number());
      if (p.x_max < p.x_min || p.y_max < p.y_min)
        s.context().error(s.path_of(p.x_max < p.x_min ? "x_max" : "y_max"),
                          s.path() + ": an empty rectangle (" +
                              (p.x_max < p.x_min ? "x_max < x_min" : "y_max < y_min") + ")");
      break;
    case ProfileType::rest:  // no keys: make_problem takes the form's resting state
      break;
    case ProfileType::spiral: {
      if (!sheet) {
        s.context().error(s.path_of("type"), s.path_of("type") +
                                                 ": a spiral start needs a sheet (domain.length: "
                                                 "[Lx, Ly]); this domain is a cable");
        break;
      }
      p.center = domain_centre(d);
      const YAML::Node centre = s.raw("center");
      if (centre.IsDefined())
        if (auto c = read_point(s.context(), centre, s.path_of("center"), d)) p.center = *c;
      p.wavelength = s.number("wavelength", 0.25 * std::min(d.length[0], d.length[1]), positive());
      break;
    }
  }
  return p;
}

BoundarySide read_side(Section& parent, const std::string& key, bool exists) {
  if (!exists) {
    parent.forbid(key, "applies to sheets only (domain.length: [Lx, Ly]); a cable has the "
                       "ends left and right");
    return {};
  }
  Section s = parent.section(key);
  BoundarySide side;
  side.type = s.choice("type", BoundaryType::no_flux, boundary_type_names());
  if (side.type == BoundaryType::dirichlet)
    side.value = s.required_number("value", any_number());
  else
    s.forbid("value", "applies only to type: dirichlet (this end is no_flux)");
  return side;
}

std::vector<Stimulus> read_stimuli(Section& top, const Domain& d) {
  std::vector<Stimulus> stimuli;
  const YAML::Node list = top.raw("stimulus");
  if (!list.IsDefined()) return stimuli;
  Context& ctx = top.context();
  if (!list.IsSequence()) {
    ctx.error("stimulus", list.Mark(),
              "stimulus: expected a list of {x_min, x_max, " +
                  std::string(d.dims >= 2 ? "[y_min, y_max, ]" : "") +
                  "start, duration, amplitude[, period, count]}, got " + node_text(list));
    return stimuli;
  }
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string path = "stimulus[" + std::to_string(i) + "]";
    Section s(ctx, list[i], path);
    Stimulus st;
    st.x_min = s.required_number("x_min", any_number());
    st.x_max = s.required_number("x_max", any_number());
    if (d.dims >= 2) {
      st.y_min = s.number("y_min", 0.0, any_number());
      st.y_max = s.number("y_max", d.length[1], any_number());
      if (st.y_max < st.y_min)
        ctx.error(s.path_of("y_max"), s.path_of("y_max") + ": " + format_exact(st.y_max) +
                                          " is below y_min = " + format_exact(st.y_min));
    } else {
      for (const char* name : {"y_min", "y_max"})
        s.forbid(name, "applies to sheets only (domain.length: [Lx, Ly]); this domain is a cable");
    }
    st.start = s.required_number("start", non_negative());
    st.duration = s.required_number("duration", positive());
    st.amplitude = s.required_number("amplitude", any_number());
    st.period = s.number("period", 0.0, non_negative());
    st.count = s.integer("count", 1, 1, index_t{1} << 30);
    if (st.x_max < st.x_min)
      ctx.error(s.path_of("x_max"), s.path_of("x_max") + ": " + format_exact(st.x_max) +
                                        " is left of x_min = " + format_exact(st.x_min));
    if (st.count > 1 && st.period < st.duration)
      ctx.error(s.path_of("period"), s.path_of("period") + ": with count = " +
                                         std::to_string(st.count) +
                                         " the period must be at least the duration (" +
                                         format_exact(st.duration) + ")");
    stimuli.push_back(st);
  }
  return stimuli;
}

// tissue: a list of regions {shape, op, ...} (sheets only).
std::vector<TissueRegion> read_tissue(Section& top, const Domain& d) {
  std::vector<TissueRegion> regions;
  const YAML::Node list = top.raw("tissue");
  if (!list.IsDefined()) return regions;
  Context& ctx = top.context();
  if (d.dims < 2) {
    ctx.error("tissue", list.Mark(), "tissue: applies to sheets only (domain.length: [Lx, Ly]); "
                                     "this domain is a cable");
    return regions;
  }
  if (!list.IsSequence() || list.size() == 0) {
    ctx.error("tissue", list.Mark(),
              "tissue: expected a non-empty list of regions {shape: disc | rectangle | polygon, "
              "op: add | remove, ...}, got " + node_text(list));
    return regions;
  }
  const NameTable<bool> ops{{"remove", false}, {"add", true}};
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string path = "tissue[" + std::to_string(i) + "]";
    Section s(ctx, list[i], path);
    TissueRegion r;
    r.shape = s.choice("shape", TissueShape::disc, tissue_shape_names());
    if (!s.has("shape"))
      ctx.error(path, list[i].Mark(), "missing required key '" + s.path_of("shape") +
                                          "' (one of: " + join(names_of(tissue_shape_names())) + ")");
    r.add = s.choice("op", false, ops);
    const std::vector<std::pair<TissueShape, std::vector<std::string>>> keys{
        {TissueShape::disc, {"center", "radius"}},
        {TissueShape::rectangle, {"x_min", "x_max", "y_min", "y_max"}},
        {TissueShape::polygon, {"points"}}};
    for (const auto& [shape, names] : keys)
      if (shape != r.shape)
        for (const auto& name : names)
          s.forbid(name, "not a key of a '" + name_of(tissue_shape_names(), r.shape) + "' region");
    switch (r.shape) {
      case TissueShape::disc: {
        const YAML::Node centre = s.raw("center");
        if (!centre.IsDefined())
          ctx.error(path, list[i].Mark(), "missing required key '" + s.path_of("center") + "' ([x, y])");
        else if (auto c = read_point(ctx, centre, s.path_of("center"), d))
          r.center = *c;
        r.radius = s.required_number("radius", positive());
        break;
      }
      case TissueShape::rectangle:
        r.x_min = s.number("x_min", 0.0, any_number());
        r.x_max = s.number("x_max", d.length[0], any_number());
        r.y_min = s.number("y_min", 0.0, any_number());
        r.y_max = s.number("y_max", d.length[1], any_number());
        if (r.x_max < r.x_min || r.y_max < r.y_min)
          ctx.error(s.path_of(r.x_max < r.x_min ? "x_max" : "y_max"),
                    path + ": an empty rectangle (" +
                        (r.x_max < r.x_min ? "x_max < x_min" : "y_max < y_min") + ")");
        break;
      case TissueShape::polygon: {
        const YAML::Node points = s.raw("points");
        if (!points.IsSequence() || points.size() < 3) {
          ctx.error(s.path_of("points"), points.IsDefined() ? points.Mark() : list[i].Mark(),
                    s.path_of("points") + ": expected a list of at least 3 corners [x, y], got " +
                        (points.IsDefined() ? node_text(points) : std::string("nothing")));
          break;
        }
        for (std::size_t k = 0; k < points.size(); ++k)
          if (auto p = read_point(ctx, points[k], s.path_of("points") + "[" + std::to_string(k) + "]", d))
            r.points.push_back(*p);
        break;
      }
    }
    regions.push_back(r);
  }
  return regions;
}

// output.probes: positions x (a cable) or [x, y] (a sheet). Default: both ends and the middle of
// a cable; the centre and two opposite corners of a sheet.
std::vector<Point> read_probes(Section& o, const Domain& d) {
  const Point centre = domain_centre(d);
  std::vector<Point> probes;
  if (d.dims == 1) {
    const auto xs = o.numbers("probes", any_number(), true, "[0.0, 100.0]");
    if (!xs) return {Point{0.0, 0.0, 0.0}, centre, Point{d.length[0], 0.0, 0.0}};
    for (real x : *xs) probes.push_back(Point{x, 0.0, 0.0});
    return probes;
  }
  const YAML::Node list = o.raw("probes");
  if (!list.IsDefined()) return {centre, Point{0.0, 0.0, 0.0}, Point{d.length[0], d.length[1], 0.0}};
  Context& ctx = o.context();
  const std::string path = o.path_of("probes");
  if (!list.IsSequence()) {
    ctx.error(path, list.Mark(), path + ": expected a list of points, e.g. [[50.0, 50.0], "
                                        "[100.0, 100.0]], got " + node_text(list));
    return probes;
  }
  for (std::size_t i = 0; i < list.size(); ++i)
    if (auto p = read_point(ctx, list[i], path + "[" + std::to_string(i) + "]", d)) probes.push_back(*p);
  return probes;
}

std::string default_name(const std::string& source) {
  const std::string stem = std::filesystem::path(source).stem().string();
  return stem.empty() ? "fhn" : stem;
}

// model.form and that form's parameters (src/kinetics/). A parameter of another form that the
// chosen one does not have is an error naming the form it belongs to.
void read_kinetics(Section& m, Kinetics& kinetics) {
  const std::vector<std::string> forms = kinetics_names();
  const std::string form = m.text("form", kinetics_name(kinetics));
  if (!make_kinetics(form, kinetics)) {
    m.context().error(m.path_of("form"), m.raw("form").Mark(),
                      m.path_of("form") + ": '" + form + "' is not a kinetics form; expected one of: " +
                          join(forms) + did_you_mean(form, forms));
    return;
  }
  std::vector<std::string> own;
  with_kinetics(kinetics, [&](auto& k) {
    k.parameters(k, [&](const char* key, real& value, const Interval& range) {
      own.emplace_back(key);
      value = m.number(key, value, range);
    });
  });
  for (const std::string& other : forms) {
    if (other == form) continue;
    Kinetics alternative;
    make_kinetics(other, alternative);
    with_kinetics(alternative, [&](auto& k) {
      k.parameters(k, [&](const char* key, real&, const Interval&) {
        if (std::find(own.begin(), own.end(), key) == own.end() && m.present(key))
          m.forbid(key, "a parameter of model.form '" + other + "', not of '" + form + "'");
      });
    });
  }
}

Config read_config(const YAML::Node& root, Context& ctx, const std::string& source,
                   const BuildCapabilities& build) {
  Config c;
  c.source = source;
  Section top(ctx, root, "");

  c.name = top.text("name", default_name(source));
  check_output_name(ctx, c.name);

  {
    Section m = top.section("model");
    read_kinetics(m, c.model.kinetics);
    c.model.diffusion = m.number("diffusion", c.model.diffusion, positive());
  }
  {
    Section d = top.section("domain");
    // length: L (a cable) or [Lx, Ly] (a sheet); the number of entries is the number of axes.
    if (const auto lengths = d.number_or_list("length", positive(), 2, "[200.0, 200.0]")) {
      if (!lengths->empty()) c.domain.dims = static_cast<int>(lengths->size());
      for (std::size_t a = 0; a < lengths->size() && a < 2; ++a) c.domain.length[a] = (*lengths)[a];
    }
    if (const auto nodes = d.integer_or_list("nodes", 3, kMaxNodes, 2)) {
      if (nodes->size() != static_cast<std::size_t>(c.domain.dims))
        ctx.error("domain.nodes", "domain.nodes: " + std::to_string(nodes->size()) +
                                      (nodes->size() == 1 ? " count" : " counts") + " for a domain of " +
                                      std::to_string(c.domain.dims) + (c.domain.dims == 1 ? " axis" : " axes") +
                                      " (domain.length has " + std::to_string(c.domain.dims) +
                                      (c.domain.dims == 1 ? " entry" : " entries") + "); give " +
                                      (c.domain.dims == 1 ? "one number" : "[nx, ny]") + ", or domain.dx");
      else
        for (std::size_t a = 0; a < nodes->size(); ++a) c.domain.nodes[a] = (*nodes)[a];
    }
    c.domain.dx = d.number("dx", c.domain.dx, positive());
  }
  const bool sheet = c.domain.dims >= 2;
  {
    Section b = top.section("boundary");
    c.boundary.left = read_side(b, "left", true);
    c.boundary.right = read_side(b, "right", true);
    c.boundary.bottom = read_side(b, "bottom", sheet);
    c.boundary.top = read_side(b, "top", sheet);
    c.boundary.no_flux_order = static_cast<int>(b.integer("no_flux_order", 2, 1, 2));
    if (sheet && c.boundary.no_flux_order == 1)
      ctx.error("boundary.no_flux_order",
                "boundary.no_flux_order: 1 (v_0 = v_1, the reference blog's cable) is for cables "
                "only; a sheet uses the second-order mirrored ghost nodes (no_flux_order: 2)");
  }
  {
    Section init = top.section("initial");
    Profile v0;
    v0.type = ProfileType::gaussian;
    v0.center = domain_centre(c.domain);
    v0.width2 = 10.0;
    c.initial.v = read_profile(init, "v", v0, c.domain);
    c.initial.w = read_profile(init, "w", Profile{}, c.domain);
    // A spiral start lays out v and w together (the form's excursion around the centre).
    const bool v_spiral = c.initial.v.type == ProfileType::spiral;
    if (v_spiral != (c.initial.w.type == ProfileType::spiral))
      ctx.error(v_spiral ? "initial.w" : "initial.v",
                std::string(v_spiral ? "initial.w" : "initial.v") +
                    ": a spiral start sets v and w together: give {type: spiral} (with the same "
                    "center and wavelength) for both initial.v and initial.w");
    else if (v_spiral && (c.initial.v.center != c.initial.w.center ||
                          c.initial.v.wavelength != c.initial.w.wavelength))
      ctx.error("initial.w", "initial.w: a spiral start needs the same center and wavelength for "
                             "v and w (initial.v has center " +
                                 format_exact(c.initial.v.center[0]) + ", " +
                                 format_exact(c.initial.v.center[1]) + " and wavelength " +
                                 format_exact(c.initial.v.wavelength) + ")");
  }
  c.stimulus = read_stimuli(top, c.domain);
  c.tissue = read_tissue(top, c.domain);
  {
    Section t = top.section("time");
    c.time.end = t.number("end", c.time.end, positive());
    c.time.dt = t.number("dt", c.time.dt, positive());
  }
  {
    Section s = top.section("scheme");
    c.scheme.type = s.choice("type", c.scheme.type, scheme_type_names());
    c.scheme.backend = s.choice("backend", c.scheme.backend, backend_names());
    c.scheme.explicit_limit =
        s.choice("explicit_limit", c.scheme.explicit_limit, explicit_limit_names());
    Section cn = s.section("crank_nicolson");
    CrankNicolsonSpec& spec = c.scheme.crank_nicolson;
    spec.formulation = cn.choice("formulation", sheet ? Formulation::adi : Formulation::newton,
                                 formulation_names());
    spec.w_update = cn.choice("w_update", spec.w_update, w_update_names());
    spec.tridiagonal = cn.choice("tridiagonal", spec.tridiagonal, tridiagonal_names());
    Section newton = cn.section("newton");
    spec.newton.tolerance = newton.number("tolerance", spec.newton.tolerance, {0.0, 1.0, true, false});
    spec.newton.max_iterations = newton.integer("max_iterations", spec.newton.max_iterations, 1, 1000);
    Section ad = s.section("adaptive");
    AdaptiveSpec& a = c.scheme.adaptive;
    a.tolerance = ad.number("tolerance", a.tolerance, positive());
    a.coarse_stride = ad.integer("coarse_stride", a.coarse_stride, 1, 1 << 20);
    a.gradient_stride = ad.integer("gradient_stride", a.gradient_stride, 0, 1 << 20);
    a.rate_stride = ad.integer("rate_stride", a.rate_stride, 0, 1 << 20);
    a.gradient_threshold = ad.number("gradient_threshold", a.gradient_threshold, positive());
    a.rate_threshold = ad.number("rate_threshold", a.rate_threshold, positive());
    a.inflection_radius = ad.number("inflection_radius", a.inflection_radius, non_negative());
    a.regrid_every = ad.integer("regrid_every", a.regrid_every, 1, 1 << 30);
  }
  {
    Section o = top.section("output");
    c.output.every = o.number("every", c.output.every, positive());
    c.output.precision = o.choice("precision", c.output.precision, precision_names());
    c.output.stride = o.integer("stride", c.output.stride, 1, 1 << 20);
    c.output.vtk = o.boolean("vtk", c.output.vtk);
    c.output.spacetime = o.boolean("spacetime", !sheet);
    c.output.newton_log = o.boolean("newton_log", c.output.newton_log);
    c.output.checkpoint_every = o.number("checkpoint_every", c.output.checkpoint_every, non_negative());
    c.output.probes = read_probes(o, c.domain);
    for (std::size_t i = 0; i < c.output.probes.size(); ++i)
      if (!in_tissue(c.tissue, c.output.probes[i]))
        ctx.error("output.probes", "output.probes[" + std::to_string(i) + "]: (" +
                                       format_exact(c.output.probes[i][0]) + ", " +
                                       format_exact(c.output.probes[i][1]) +
                                       ") lies outside the tissue (tissue:); a probe reads tissue");
    // Activation and tip levels default to the form's (a wave's loop encircles them).
    const NodeState levels = with_kinetics(c.model.kinetics, [](const auto& k) { return k.levels(); });
    {
      Section a = o.section("activation");
      ActivationSpec& spec = c.output.activation;
      spec.enabled = a.boolean("enabled", sheet && c.output.vtk);
      spec.threshold = a.number("threshold", levels.v, any_number());
      spec.last = a.boolean("last", spec.last);
    }
    {
      Section t = o.section("tips");
      TipSpec& spec = c.output.tips;
      spec.enabled = t.boolean("enabled", sheet);
      spec.v_iso = t.number("v", levels.v, any_number());
      spec.w_iso = t.number("w", levels.w, any_number());
    }
  }
  if (ctx.ok()) check_consistency(c, top, build);
  return c;
}

Config load(const std::string& text, const std::string& source,
            const std::vector<std::string>& overrides, const BuildCapabilities& build) {
  YAML::Node root = parse_yaml(text, source);
  Context ctx(source);
  std::vector<std::string> notes;
  for (const auto& assignment : overrides) apply_override(root, assignment, ctx, notes);
  Config config;
  {
    config = read_config(root, ctx, source, build);
  }  // the top-level Section reports unknown keys as it closes
  ctx.throw_if_errors();
  config.notes = notes;
  config.locations = ctx.locations();
  return config;
}

}  // namespace

Config load_config_text(const std::string& text, const std::string& source,
                        const std::vector<std::string>& overrides, const BuildCapabilities& build) {
  return load(text, source, overrides, build);
}

std::string read_config_file(const std::string& path) { return read_text_file(path, "config file"); }

Config load_config(const std::string& path, const std::vector<std::string>& overrides,
                   const BuildCapabilities& build) {
  return load(read_config_file(path), path, overrides, build);
}

}  // namespace fhn
