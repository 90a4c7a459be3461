// YAML -> Config: reading the document's sections and keys (the schema), after overrides.cpp
// has applied the --set options and before checks.cpp checks the keys against each other.
// yaml-cpp is included only here and in the other src/config/*.cpp files.
#include "config/loader.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <optional>
#include <set>
#include <utility>

#include "config/checks.hpp"
#include "config/names.hpp"
#include "config/overrides.hpp"
#include "config/yaml_reader.hpp"
#include "core/format.hpp"
#include "model/png_image.hpp"
#include "model/problem.hpp"
#include "model/tissue.hpp"
#include "model/vti_image.hpp"

namespace fhn {
namespace {

using namespace config_detail;

// ---------------------------------------------------------------------------------------------
// The schema

// What a key of sheets only says on a cable, and on a box.
constexpr const char* kSheetsOnly =
    "applies to sheets only (domain.length: [Lx, Ly]); this domain is a cable";
constexpr const char* kNotOnBoxes =
    "applies to sheets only (domain.length: [Lx, Ly]); boxes (domain.length: [Lx, Ly, Lz]) do "
    "not take it yet";
// Keys of sheets and boxes (y_min, bottom:), and keys of boxes only (z_min, front:).
constexpr const char* kNotOnCables =
    "applies to sheets and boxes (domain.length: [Lx, Ly] or [Lx, Ly, Lz]); this domain is a cable";
constexpr const char* kBoxesOnly =
    "applies to boxes only (domain.length: [Lx, Ly, Lz]); this domain has no z axis";

// The domain's centre, the default centre of a gaussian.
Point domain_centre(const Domain& d) {
  Point c{0.0, 0.0, 0.0};
  for (int axis = 0; axis < d.dims; ++axis) c[axis] = 0.5 * d.length[axis];
  return c;
}

// A list of `count` finite numbers at `path` (`form` and `why` say what is expected: "a list
// [x, y]", "the domain has 2 axes"); nullopt after reporting why not.
std::optional<Point> read_coordinates(Context& ctx, const YAML::Node& node, const std::string& path,
                                      int count, const std::string& form, const std::string& why) {
  Point p{0.0, 0.0, 0.0};
  if (!node.IsSequence() || node.size() != static_cast<std::size_t>(count)) {
    ctx.error(path, node.Mark(), path + ": expected " + form + " (" + why + "), got " +
                                     node_text(node));
    return std::nullopt;
  }
  for (int axis = 0; axis < count; ++axis) {
    const std::string where = path + "[" + std::to_string(axis) + "]";
    const std::optional<real> x =
        parse_finite(ctx, where, node[static_cast<std::size_t>(axis)], "a finite number");
    if (!x) return std::nullopt;
    p[axis] = *x;
  }
  return p;
}

// A position given as x (cables) or [x, y] (sheets) at `path`; nullopt after reporting why not.
std::optional<Point> read_point(Context& ctx, const YAML::Node& node, const std::string& path,
                                const Domain& d) {
  if (d.dims == 1 && !node.IsSequence()) {
    const std::optional<real> x = parse_finite(ctx, path, node, "a finite number");
    if (!x) return std::nullopt;
    return Point{*x, 0.0, 0.0};
  }
  const std::string form =
      d.dims == 1 ? "a number x" : d.dims == 2 ? "a list [x, y]" : "a list [x, y, z]";
  return read_coordinates(ctx, node, path, d.dims, form,
                          "the domain has " + std::to_string(d.dims) +
                              (d.dims == 1 ? " axis" : " axes"));
}

// The axis named at `key` ("x", or "y" on a sheet) of a step or tanh_front profile.
int read_axis(Section& s, const Domain& d) {
  const std::string name = s.text("axis", "x");
  if (name == "x") return 0;
  if (name == "y" && d.dims >= 2) return 1;
  if (name == "z" && d.dims >= 3) return 2;
  s.context().error(s.path_of("axis"), s.path_of("axis") + ": " + quoted(name) + " is not allowed; expected " +
                                           (d.dims >= 3   ? "x, y or z"
                                            : d.dims == 2 ? "x or y (the domain is a sheet)"
                                                          : "x (the domain is a cable)"));
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
  const bool sheet = d.dims >= 2;  // has a y axis (a sheet or a box)
  const bool box = d.dims == 3;
  std::vector<std::string> rectangle_keys{"x_min", "x_max"};
  if (sheet) rectangle_keys.insert(rectangle_keys.end(), {"y_min", "y_max"});
  if (box) rectangle_keys.insert(rectangle_keys.end(), {"z_min", "z_max"});
  rectangle_keys.insert(rectangle_keys.end(), {"value", "background"});
  const std::vector<std::pair<ProfileType, std::vector<std::string>>> keys{
      {ProfileType::gaussian, {"center", "width2", "amplitude", "background"}},
      {ProfileType::constant, {"value"}},
      {ProfileType::step, {"position", "axis", "left", "right"}},
      {ProfileType::tanh_front, {"position", "axis", "width", "left", "right"}},
      {ProfileType::rectangle, rectangle_keys},
      {ProfileType::rest, {}},
      {ProfileType::spiral, {"center", "wavelength"}},
      {ProfileType::scroll_ring, {"center", "radius", "wavelength"}}};
  std::vector<std::string> own;
  for (const auto& [type, names] : keys)
    if (type == p.type) own = names;
  const std::string& type_name = name_of(profile_type_names(), p.type);
  if (!sheet)
    for (const char* name : {"y_min", "y_max"})
      s.forbid(name, kNotOnCables);
  if (!box)
    for (const char* name : {"z_min", "z_max"})
      s.forbid(name, kBoxesOnly);
  for (const auto& [type, names] : keys)
    for (const auto& name : names)
      if (std::find(own.begin(), own.end(), name) == own.end())
        s.forbid(name, "not a parameter of a '" + type_name + "' profile (" +
                           (own.empty() ? std::string("its only key: type") : "its keys: type, " + join(own)) +
                           ")");

  // The coordinate range of the axis a step or front runs along, for its default position.
  auto axis_length = [&](int axis) { return d.length[axis]; };
  // A type this domain cannot take: reported at 'type', its own keys taken unread (not reported
  // again as unknown keys).
  auto refuse_type = [&](const std::string& why) {
    s.context().error(s.path_of("type"), s.path_of("type") + why);
    for (const std::string& name : own) s.raw(name);
  };
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
      if (box) {
        p.z_min = s.number("z_min", 0.0, any_number());
        p.z_max = s.number("z_max", d.length[2], any_number());
      }
      p.value = s.number("value", 1.0, any_number());
      p.background = s.number("background", 0.0, any_number());
      for (const char axis : {'x', 'y', 'z'}) {
        const real lo = axis == 'x' ? p.x_min : axis == 'y' ? p.y_min : p.z_min;
        const real hi = axis == 'x' ? p.x_max : axis == 'y' ? p.y_max : p.z_max;
        if (hi < lo) {
          s.context().error(s.path_of(std::string(1, axis) + "_max"),
                            s.path() + ": an empty rectangle (" + axis + "_max < " + axis + "_min)");
          break;
        }
      }
      break;
    case ProfileType::rest:  // no keys: make_problem takes the form's resting state
      break;
    case ProfileType::spiral: {
      if (!sheet) {
        refuse_type(": a spiral start needs a sheet or a box (domain.length: [Lx, Ly] or "
                    "[Lx, Ly, Lz]); this domain is a cable");
        break;
      }
      // On a box the spiral is the same in every plane z: a straight scroll wave whose
      // filament runs along z through the centre, given as [x, y] (z does not enter).
      Domain plane = d;
      plane.dims = 2;
      p.center = domain_centre(plane);
      const YAML::Node centre = s.raw("center");
      if (centre.IsDefined())
        if (auto c = read_point(s.context(), centre, s.path_of("center"), plane)) p.center = *c;
      p.wavelength = s.number("wavelength", 0.25 * std::min(d.length[0], d.length[1]), positive());
      break;
    }
    case ProfileType::scroll_ring: {
      if (!box) {
        refuse_type(": a scroll ring needs a box (domain.length: [Lx, Ly, Lz]); on a sheet use "
                    "type: spiral");
        break;
      }
      // The ring lies in the plane z = center_z about the axis through (center_x, center_y)
      // parallel to z: its centre must lie in the box (0 <= center_z <= L_z, the plane a plane
      // of the box; 0 < center_x < L_x and likewise y, which a ring of positive radius needs),
      // each axis reported at its entry of `center`; then the ring must fit inside the box's x
      // and y extent, reported at `radius`.
      const real shorter = std::min(d.length[0], d.length[1]);
      p.center = domain_centre(d);
      const YAML::Node centre = s.raw("center");
      if (centre.IsDefined())
        if (auto c = read_point(s.context(), centre, s.path_of("center"), d)) p.center = *c;
      p.radius = s.number("radius", 0.25 * shorter, positive());
      p.wavelength = s.number("wavelength", 0.25 * shorter, positive());
      bool centre_inside = true;
      for (int axis = 0; axis < 3; ++axis) {
        const real x = p.center[axis], length = d.length[axis];
        const bool plane = axis == 2;
        if (plane ? x >= 0.0 && x <= length : x > 0.0 && x < length) continue;
        const char name = static_cast<char>('x' + axis);
        const std::string entry = s.path_of("center") + "[" + std::to_string(axis) + "]";
        const YAML::Mark mark = centre.IsSequence() ? centre[static_cast<std::size_t>(axis)].Mark()
                                                    : YAML::Mark::null_mark();
        s.context().error(entry, mark, entry + ": " + name + " = " + format_exact(x) +
                                   " lies outside the box (" + (plane ? "0 <= " : "0 < ") + name +
                                   (plane ? " <= " : " < ") + format_exact(length) +
                                   "); the ring's centre must lie inside it");
        centre_inside = false;
      }
      for (int axis = 0; centre_inside && axis < 2; ++axis)
        if (p.center[axis] - p.radius <= 0.0 || p.center[axis] + p.radius >= d.length[axis]) {
          const char name = static_cast<char>('x' + axis);
          s.context().error(s.path_of("radius"),
                            s.path_of("radius") + ": a ring of radius " + format_exact(p.radius) +
                                " about " + name + " = " + format_exact(p.center[axis]) +
                                " leaves the box (0 < " + name + " < " +
                                format_exact(d.length[axis]) + "); expected a radius below " +
                                format_exact(std::min(p.center[axis], d.length[axis] - p.center[axis])));
          break;
        }
      break;
    }
  }
  return p;
}

BoundarySide read_side(Section& parent, const std::string& key, int axis, const Domain& d) {
  if (axis >= d.dims) {
    parent.forbid(key, axis == 1 ? "applies to sheets and boxes (domain.length: [Lx, Ly] or "
                                   "[Lx, Ly, Lz]); a cable has the ends left and right"
                                 : "applies to boxes only (domain.length: [Lx, Ly, Lz]); this "
                                   "domain has no z axis");
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
                  std::string(d.dims >= 3 ? "[z_min, z_max, ]" : "") +
                  "start, duration, amplitude[, period, count, coverage]}, got " +
                  node_text(list));
    return stimuli;
  }
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string path = "stimulus[" + std::to_string(i) + "]";
    Section s(ctx, list[i], path);
    Stimulus st;
    st.x_min = s.required_number("x_min", any_number());
    st.x_max = s.required_number("x_max", any_number());
    // [y_min, y_max] on a sheet or box, [z_min, z_max] on a box: the whole extent by default.
    auto range = [&](int axis, real& lo, real& hi) {
      const std::string name = axis_name(axis);
      if (d.dims <= axis) {
        for (const std::string& key : {name + "_min", name + "_max"})
          s.forbid(key, axis == 1 ? kNotOnCables : kBoxesOnly);
        return;
      }
      lo = s.number(name + "_min", 0.0, any_number());
      hi = s.number(name + "_max", d.length[axis], any_number());
      if (hi < lo)
        ctx.error(s.path_of(name + "_max"), s.path_of(name + "_max") + ": " + format_exact(hi) +
                                                " is below " + name + "_min = " + format_exact(lo));
    };
    range(1, st.y_min, st.y_max);
    range(2, st.z_min, st.z_max);
    st.start = s.required_number("start", non_negative());
    st.duration = s.required_number("duration", positive());
    st.amplitude = s.required_number("amplitude", any_number());
    st.period = s.number("period", 0.0, non_negative());
    st.count = s.integer("count", 1, 1, index_t{1} << 30);
    st.coverage = s.choice("coverage", Coverage::overlap, coverage_names());
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

// The list at `key` of a section that applies to sheets only (tissue:, fields:): an undefined
// node when it is absent, or after reporting that the domain is a cable or that it is not a
// non-empty list of `entries` (what an entry looks like, for the message).
YAML::Node sheet_list(Section& top, const std::string& key, const Domain& d,
                      const std::string& entries) {
  const YAML::Node list = top.raw(key);
  if (!list.IsDefined()) return list;
  Context& ctx = top.context();
  if (d.dims != 2)
    ctx.error(key, list.Mark(), key + ": " + (d.dims < 2 ? kSheetsOnly : kNotOnBoxes));
  else if (!list.IsSequence() || list.size() == 0)
    ctx.error(key, list.Mark(), key + ": expected a non-empty list of " + entries + ", got " +
                                    node_text(list));
  else
    return list;
  return YAML::Node(YAML::NodeType::Undefined);
}

// The folder files named in the config are relative to: the config file's.
std::filesystem::path config_folder(const std::string& source) {
  return std::filesystem::path(source).parent_path();
}

// The keys of each region shape (a tissue: region, a fields: entry of type region).
const std::vector<std::pair<TissueShape, std::vector<std::string>>>& region_shape_keys() {
  static const std::vector<std::pair<TissueShape, std::vector<std::string>>> keys{
      {TissueShape::disc, {"center", "radius"}},
      {TissueShape::rectangle, {"x_min", "x_max", "y_min", "y_max"}},
      {TissueShape::polygon, {"points"}},
      {TissueShape::image,
       {"file", "array", "threshold", "inside", "x_min", "x_max", "y_min", "y_max"}}};
  return keys;
}

// The bounds of a rectangle, or of the rectangle a picture covers: the sheet's by default.
void read_bounds(Section& s, const Domain& d, TissueRegion& r) {
  r.x_min = s.number("x_min", 0.0, any_number());
  r.x_max = s.number("x_max", d.length[0], any_number());
  r.y_min = s.number("y_min", 0.0, any_number());
  r.y_max = s.number("y_max", d.length[1], any_number());
}

// A picture at `s` (an image region, a fields: entry of type image): `file` (required, a PNG or
// a .vti by its extension, relative to `base`, the config's folder; kept absolute so that the
// resolved config reads it from anywhere), a .vti's `array`, and the rectangle it is stretched
// over, `x_min` .. `y_max` (a PNG: the sheet's; a .vti: its own, from its origin and spacing).
void read_picture(Section& s, const YAML::Node& entry, const Domain& d,
                  const std::filesystem::path& base, TissueRegion& r) {
  Context& ctx = s.context();
  r.shape = TissueShape::image;
  const std::filesystem::path file = base / s.text("file", "");
  std::string extension = file.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  const bool vti = extension == ".vti";
  if (!vti) s.forbid("array", "only a .vti image has arrays to choose from");
  r.array = s.text("array", "");
  if (!s.has("file")) {
    ctx.error(s.path(), entry.Mark(),
              "missing required key '" + s.path_of("file") + "' (a PNG or .vti file)");
  } else {
    r.file = std::filesystem::absolute(file).lexically_normal().string();
    try {
      if (vti)
        r.image = std::make_shared<const Picture>(read_vti(r.file, r.array));
      else if (extension == ".png")
        r.image = std::make_shared<const Picture>(read_png(r.file));
      else
        throw ConfigError("expected a PNG (.png) or VTK image (.vti) file, got '" +
                          file.filename().string() + "'");
    } catch (const ConfigError& e) {
      ctx.error(s.path_of("file"), s.raw("file").Mark(), s.path_of("file") + ": " + e.what());
    }
  }
  // A .vti sits where its origin and spacing put it unless the bounds say otherwise.
  const std::optional<std::array<real, 4>> own =
      r.image ? r.image->own_bounds : std::optional<std::array<real, 4>>{};
  r.x_min = s.number("x_min", own ? (*own)[0] : 0.0, any_number());
  r.x_max = s.number("x_max", own ? (*own)[1] : d.length[0], any_number());
  r.y_min = s.number("y_min", own ? (*own)[2] : 0.0, any_number());
  r.y_max = s.number("y_max", own ? (*own)[3] : d.length[1], any_number());
  // The rectangle needs an area, and a width and height that are finite numbers (picture_value
  // divides by them): reported at the bound the config gives, else at the file, whose origin and
  // spacing put the picture there (an origin of 1e300 with spacing 1 leaves no width).
  for (const std::string axis : {"x", "y"}) {
    const std::string low = axis + "_min", high = axis + "_max";
    const real lo = axis == "x" ? r.x_min : r.y_min, hi = axis == "x" ? r.x_max : r.y_max;
    if (hi > lo && std::isfinite(hi - lo)) continue;
    const std::string extent = format_exact(lo) + " .. " + format_exact(hi) + " in " + axis;
    if (s.present(low) || s.present(high)) {
      const std::string key = s.path_of(s.present(high) ? high : low);
      ctx.error(key, key + ": an image needs a rectangle of some area to cover (" + low + " < " +
                         high + ", their difference a finite number), got " + extent);
    } else {
      ctx.error(s.path_of("file"),
                s.path_of("file") + ": the image's origin and spacing place it at " + extent +
                    (std::isfinite(hi - lo) ? ", no width in double precision (the spacing is "
                                              "below the round-off of the origin)"
                                            : ", a width beyond the range of double precision") +
                    "; give " + s.path_of(low) + " and " + s.path_of(high) + " to place it");
    }
  }
}

// The shape of a region at `s` (an entry `entry` of tissue: or fields:): `shape` (required) and
// its keys, the keys of the other shapes reported as not its own. `add` is left to the caller.
TissueRegion read_region(Section& s, const YAML::Node& entry, const Domain& d,
                         const std::filesystem::path& base) {
  Context& ctx = s.context();
  const std::string& path = s.path();
  TissueRegion r;
  r.shape = s.choice("shape", TissueShape::disc, tissue_shape_names());
  if (!s.has("shape"))
    ctx.error(path, entry.Mark(), "missing required key '" + s.path_of("shape") +
                                      "' (one of: " + join(names_of(tissue_shape_names())) + ")");
  std::vector<std::string> own;
  for (const auto& [shape, names] : region_shape_keys())
    if (shape == r.shape) own = names;
  for (const auto& [shape, names] : region_shape_keys())
    for (const auto& name : names)
      if (std::find(own.begin(), own.end(), name) == own.end())
        s.forbid(name, "not a key of a '" + name_of(tissue_shape_names(), r.shape) + "' region");
  switch (r.shape) {
    case TissueShape::disc: {
      const YAML::Node centre = s.raw("center");
      if (!centre.IsDefined())
        ctx.error(path, entry.Mark(),
                  "missing required key '" + s.path_of("center") + "' ([x, y])");
      else if (auto c = read_point(ctx, centre, s.path_of("center"), d))
        r.center = *c;
      r.radius = s.required_number("radius", positive());
      break;
    }
    case TissueShape::rectangle:
      read_bounds(s, d, r);
      if (r.x_max < r.x_min || r.y_max < r.y_min)
        ctx.error(s.path_of(r.x_max < r.x_min ? "x_max" : "y_max"),
                  path + ": an empty rectangle (" +
                      (r.x_max < r.x_min ? "x_max < x_min" : "y_max < y_min") + ")");
      break;
    case TissueShape::polygon: {
      const YAML::Node points = s.raw("points");
      if (!points.IsSequence() || points.size() < 3) {
        ctx.error(s.path_of("points"), points.IsDefined() ? points.Mark() : entry.Mark(),
                  s.path_of("points") + ": expected a list of at least 3 corners [x, y], got " +
                      (points.IsDefined() ? node_text(points) : std::string("nothing")));
        break;
      }
      for (std::size_t k = 0; k < points.size(); ++k) {
        const std::string corner = s.path_of("points") + "[" + std::to_string(k) + "]";
        if (auto p = read_point(ctx, points[k], corner, d)) r.points.push_back(*p);
      }
      break;
    }
    case TissueShape::image: {
      read_picture(s, entry, d, base, r);
      const NameTable<bool> sides{{"above", true}, {"below", false}};
      r.above = s.choice("inside", true, sides);
      r.threshold = s.number("threshold", r.threshold, any_number());
      break;
    }
  }
  return r;
}

// tissue: a list of regions {shape, op, ...} (sheets only).
std::vector<TissueRegion> read_tissue(Section& top, const Domain& d,
                                      const std::filesystem::path& base) {
  std::vector<TissueRegion> regions;
  const YAML::Node list = sheet_list(top, "tissue", d,
                                     "regions {shape: disc | rectangle | polygon | image, "
                                     "op: add | remove, ...}");
  if (!list.IsDefined()) return regions;
  const NameTable<bool> ops{{"remove", false}, {"add", true}};
  for (std::size_t i = 0; i < list.size(); ++i) {
    Section s(top.context(), list[i], "tissue[" + std::to_string(i) + "]");
    TissueRegion r = read_region(s, list[i], d, base);
    r.add = s.choice("op", false, ops);
    regions.push_back(r);
  }
  return regions;
}

// anisotropy: {longitudinal, transverse[, angle]} (sheets only), the diffusion tensor; disabled
// when absent. read_config then sets model.diffusion (which the config must not give) to D_l.
AnisotropySpec read_anisotropy(Section& top, const Domain& d) {
  AnisotropySpec a;
  if (!top.has("anisotropy")) return a;
  if (d.dims != 2) {
    top.forbid("anisotropy", d.dims < 2 ? kSheetsOnly : kNotOnBoxes);
    return a;
  }
  Section s = top.section("anisotropy");
  a.enabled = true;
  a.longitudinal = s.required_number("longitudinal", positive());
  a.transverse = s.required_number("transverse", positive());
  a.angle = s.number("angle", a.angle, any_number());
  return a;
}

// fields: a list of {parameter, type: region | gradient | image, ...} (sheets only), read after the model,
// the domain and anisotropy: what `parameter` may name and the interval of its values depend on
// them (diffusion >= 0, a form's parameter its interval, fibre_angle any number).
std::vector<FieldSpec> read_fields(Section& top, const Config& c) {
  std::vector<FieldSpec> fields;
  const YAML::Node list =
      sheet_list(top, "fields", c.domain,
                 "fields {parameter, type: region | gradient | image, ...}");
  if (!list.IsDefined()) return fields;
  Context& ctx = top.context();
  const bool anisotropic = c.anisotropy.enabled;
  const std::string form = kinetics_name(c.model.kinetics);
  // The parameters an entry may name, in the order messages list them, with the interval of
  // their values.
  std::vector<std::pair<std::string, Interval>> allowed;
  if (!anisotropic) allowed.emplace_back("diffusion", non_negative());
  with_kinetics(c.model.kinetics, [&](const auto& k) {
    k.parameters(k, [&](const char* key, const real&, const Interval& range) {
      allowed.emplace_back(key, range);
    });
  });
  if (anisotropic) allowed.emplace_back("fibre_angle", any_number());
  std::vector<std::string> names;
  for (const auto& entry : allowed) names.push_back(entry.first);
  const std::vector<std::string> gradient_keys{"axis", "start", "end", "from", "to"};
  std::vector<std::string> region_keys{"shape", "value", "edge"};
  for (const auto& shape : region_shape_keys())
    region_keys.insert(region_keys.end(), shape.second.begin(), shape.second.end());

  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string path = "fields[" + std::to_string(i) + "]";
    Section s(ctx, list[i], path);
    FieldSpec f;
    Interval range = any_number();  // of the parameter named (any: an unknown name, reported)
    const std::string parameter_key = s.path_of("parameter");
    const YAML::Node parameter = s.raw("parameter");
    if (!s.present("parameter")) {
      ctx.error(path, list[i].Mark(), "missing required key '" + parameter_key + "' (one of: " +
                                          join(names) + ")");
    } else if (parameter.IsDefined() && !parameter.IsScalar()) {
      ctx.error(parameter_key, parameter.Mark(),
                parameter_key + ": expected a parameter name, got " + node_text(parameter));
    } else if (parameter.IsDefined()) {
      f.parameter = parameter.Scalar();
      const auto known =
          std::find_if(allowed.begin(), allowed.end(),
                       [&](const auto& entry) { return entry.first == f.parameter; });
      if (known != allowed.end())
        range = known->second;
      else if (f.parameter == "diffusion")
        ctx.error(parameter_key, parameter.Mark(),
                  parameter_key + ": 'diffusion' does not apply with anisotropy: (it gives the "
                                  "diffusion tensor: longitudinal, transverse); vary fibre_angle "
                                  "or remove anisotropy:");
      else if (f.parameter == "fibre_angle")
        ctx.error(parameter_key, parameter.Mark(),
                  parameter_key + ": 'fibre_angle' needs anisotropy: {longitudinal, transverse} "
                                  "(fibres in the sheet)");
      else
        ctx.error(parameter_key, parameter.Mark(),
                  parameter_key + ": " + config_detail::quoted(f.parameter) +
                      " is not allowed; expected one of: " + join(names) + " (model.form is '" +
                      form + "')" + did_you_mean(f.parameter, names));
    }
    // How messages name the parameter: its key under model:, or diffusion / fibre_angle.
    const std::string what = f.parameter == "diffusion" || f.parameter == "fibre_angle"
                                 ? f.parameter
                                 : "model." + f.parameter;
    // A value of the parameter at `key` (required), in its interval where `in_range`.
    auto parameter_value = [&](const std::string& key, bool in_range = true) {
      const std::optional<real> x = s.optional_number(key, any_number());
      if (!x && !s.present(key))
        ctx.error(path, list[i].Mark(), "missing required key '" + s.path_of(key) + "' (" +
                                            range.describe() + ")");
      if (x && in_range && !range.contains(*x))
        ctx.error(s.path_of(key), s.path_of(key) + ": value " + format_exact(*x) +
                                      " is out of range for " + what + "; expected " +
                                      range.describe());
      return x.value_or(0.0);
    };

    f.type = s.choice("type", FieldType::region, field_type_names());
    s.forbid("op", "not a key of a field entry (a field sets a value in its region; tissue: adds "
                   "and removes regions)");
    const bool region = f.type == FieldType::region;
    const std::vector<std::string> picture_keys{"file", "array", "x_min", "x_max", "y_min",
                                                "y_max", "from", "to"};
    const std::vector<std::string>& own_keys =
        region ? region_keys : (f.type == FieldType::gradient ? gradient_keys : picture_keys);
    const std::string own = region ? "parameter, type, shape with the shape's keys, value, edge"
                            : f.type == FieldType::gradient
                                ? "parameter, type, axis, start, end, from, to"
                                : "parameter, type, file, array, x_min, x_max, y_min, y_max, "
                                  "from, to";
    std::set<std::string> every_key(region_keys.begin(), region_keys.end());
    every_key.insert(gradient_keys.begin(), gradient_keys.end());
    every_key.insert(picture_keys.begin(), picture_keys.end());
    for (const std::string& key : every_key)
      if (std::find(own_keys.begin(), own_keys.end(), key) == own_keys.end())
        s.forbid(key, "not a key of a " + name_of(field_type_names(), f.type) +
                          " field entry (its keys: " + own + ")");
    if (f.type == FieldType::image) {
      // from + (to - from) p over the picture: from and to both in the parameter's interval,
      // so every value between them is.
      read_picture(s, list[i], c.domain, config_folder(c.source), f.region);
      const Picture* picture = f.region.image.get();
      const bool grey = picture == nullptr || !picture->own_bounds;  // a PNG's p in [0, 1]
      f.from = parameter_value("from", grey);
      f.to = parameter_value("to", grey);
      // A .vti's samples are any numbers: the values its extremes map to must be in the interval.
      if (!grey) {
        real lo = kInf, hi = -kInf;
        for (real p : picture->values)
          if (!std::isnan(p)) lo = std::min(lo, p), hi = std::max(hi, p);
        const real at_lo = (1.0 - lo) * f.from + lo * f.to, at_hi = (1.0 - hi) * f.from + hi * f.to;
        if (lo > hi)
          ctx.error(s.path_of("file"), s.path_of("file") + ": the image's array has no numbers "
                                                           "(every sample is NaN)");
        else if (!range.contains(at_lo) || !range.contains(at_hi))
          ctx.error(s.path_of("to"),
                    path + ": the image's samples run from " + format_exact(lo) + " to " +
                        format_exact(hi) + ", which from + p (to - from) maps to " +
                        format_exact(at_lo) + " .. " + format_exact(at_hi) + "; " + what +
                        " must be " + range.describe());
      }
    } else if (region) {
      f.region = read_region(s, list[i], c.domain, config_folder(c.source));
      f.value = parameter_value("value");
      f.edge = s.number("edge", f.edge, non_negative());
      if (f.region.shape == TissueShape::image && f.edge > 0.0)
        ctx.error(s.path_of("edge"), s.path_of("edge") + ": an image region's edge is its "
                                                         "pixels' (no blend; edge: 0)");
    } else {
      f.axis = read_axis(s, c.domain);
      f.start = s.number("start", 0.0, any_number());
      f.end = s.number("end", c.domain.length[f.axis], any_number());
      f.from = parameter_value("from");
      f.to = parameter_value("to");
      if (!(f.start < f.end)) {
        const bool end_given = ctx.given(s.path_of("end"));
        ctx.error(s.path_of(end_given ? "end" : "start"),
                  path + ": end = " + format_exact(f.end) +
                      (end_given ? "" : std::string(" (the sheet's length along ") +
                                            axis_name(f.axis) + ", the default)") +
                      " is not beyond start = " + format_exact(f.start) +
                      "; a gradient runs from start to end (start < end)");
      }
    }
    fields.push_back(f);
  }
  return fields;
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
  if (!list.IsDefined()) return {centre, Point{0.0, 0.0, 0.0}, Point{d.length[0], d.length[1], d.length[2]}};
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

// output.ecg: {electrodes: [[x, y(, z)], ...], every}. An electrode has one coordinate more than
// a cable's or a sheet's axes (its distance off the tissue), three in a box (EcgSpec).
// Each electrode's place is recorded at "output.ecg.electrodes[i]" for the checks made once the
// grid is known (checks.cpp: none may sit on a node).
EcgSpec read_ecg(Section& o, const Domain& d, real every) {
  Section e = o.section("ecg");
  EcgSpec spec;
  spec.every = e.number("every", every, positive());
  const YAML::Node list = e.raw("electrodes");
  Context& ctx = o.context();
  const std::string path = e.path_of("electrodes");
  const int count = EcgSpec::coordinates(d.dims);
  const std::string form = count == 2 ? "[x, y]" : "[x, y, z]";
  const std::string why = d.dims == 1   ? "a cable's electrode: x along it, y its distance from it"
                          : d.dims == 2 ? "a sheet's electrode: x, y and z its height above it"
                                        : "a box's electrode: x, y, z, inside the box or outside";
  if (!list.IsDefined()) {
    if (e.node().IsMap())
      ctx.error(e.path(), e.node().Mark(),
                "missing required key '" + path + "' (a list of points " + form + "; " + why + ")");
    return spec;
  }
  if (!list.IsSequence() || list.size() == 0) {
    ctx.error(path, list.Mark(), path + ": expected a non-empty list of points " + form + " (" +
                                     why + "), got " + node_text(list));
    return spec;
  }
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string at = path + "[" + std::to_string(i) + "]";
    ctx.record(at, list[i].Mark());
    if (auto p = read_coordinates(ctx, list[i], at, count, "a list " + form, why))
      spec.electrodes.push_back(*p);
  }
  return spec;
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
                   const BuildCapabilities& build, ProblemFields& fields) {
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
    // length: L (a cable), [Lx, Ly] (a sheet) or [Lx, Ly, Lz] (a box); the number of entries is
    // the number of axes.
    if (const auto lengths = d.number_or_list("length", positive(), kMaxAxes, "[200.0, 200.0]")) {
      // More entries than axes is reported above; the domain keeps kMaxAxes of them.
      if (!lengths->empty())
        c.domain.dims = static_cast<int>(std::min<std::size_t>(lengths->size(), kMaxAxes));
      for (std::size_t a = 0; a < lengths->size() && a < kMaxAxes; ++a)
        c.domain.length[a] = (*lengths)[a];
    }
    if (const auto nodes = d.integer_or_list("nodes", kMinNodes, kMaxNodes, kMaxAxes)) {
      if (nodes->size() != static_cast<std::size_t>(c.domain.dims))
        ctx.error("domain.nodes", "domain.nodes: " + std::to_string(nodes->size()) +
                                      (nodes->size() == 1 ? " count" : " counts") + " for a domain of " +
                                      std::to_string(c.domain.dims) + (c.domain.dims == 1 ? " axis" : " axes") +
                                      " (domain.length has " + std::to_string(c.domain.dims) +
                                      (c.domain.dims == 1 ? " entry" : " entries") + "); give " +
                                      (c.domain.dims == 1   ? "one number"
                                       : c.domain.dims == 2 ? "[nx, ny]"
                                                            : "[nx, ny, nz]") +
                                      ", or domain.dx");
      else
        for (std::size_t a = 0; a < nodes->size(); ++a) c.domain.nodes[a] = (*nodes)[a];
    }
    c.domain.dx = d.number("dx", c.domain.dx, positive());
  }
  const bool sheet = c.domain.dims >= 2;
  {
    Section b = top.section("boundary");
    c.boundary.left = read_side(b, "left", 0, c.domain);
    c.boundary.right = read_side(b, "right", 0, c.domain);
    c.boundary.bottom = read_side(b, "bottom", 1, c.domain);
    c.boundary.top = read_side(b, "top", 1, c.domain);
    c.boundary.front = read_side(b, "front", 2, c.domain);
    c.boundary.back = read_side(b, "back", 2, c.domain);
    c.boundary.no_flux_order = static_cast<int>(b.integer("no_flux_order", 2, 1, 2));
    if (sheet && c.boundary.no_flux_order == 1)
      ctx.error("boundary.no_flux_order",
                "boundary.no_flux_order: 1 (v_0 = v_1, the reference blog's cable) is for cables "
                "only; a sheet or a box uses the second-order mirrored ghost nodes "
                "(no_flux_order: 2)");
  }
  {
    Section init = top.section("initial");
    Profile v0;
    v0.type = ProfileType::gaussian;
    v0.center = domain_centre(c.domain);
    v0.width2 = 10.0;
    c.initial.v = read_profile(init, "v", v0, c.domain);
    c.initial.w = read_profile(init, "w", Profile{}, c.domain);
    // A spiral or scroll-ring start lays out v and w together (the form's excursion around
    // the centre).
    const Profile& v = c.initial.v;
    const Profile& w = c.initial.w;
    // (Only where the start applies to the domain: read_profile reported it otherwise.)
    auto applies = [&](ProfileType t) {
      return t == ProfileType::spiral ? c.domain.dims >= 2 : c.domain.dims == 3;
    };
    const bool v_start = excursion_start(v.type) && applies(v.type);
    const bool w_start = excursion_start(w.type) && applies(w.type);
    if (v_start || w_start) {
      const bool v_given = v_start;
      const std::string type = name_of(profile_type_names(), v_given ? v.type : w.type);
      const std::string keys = type == "spiral" ? "center and wavelength"
                                                : "center, radius and wavelength";
      if (v.type != w.type)
        ctx.error(v_given ? "initial.w" : "initial.v",
                  std::string(v_given ? "initial.w" : "initial.v") + ": a " + type +
                      " start sets v and w together: give {type: " + type + "} (with the same " +
                      keys + ") for both initial.v and initial.w");
      else if (v.center != w.center || v.wavelength != w.wavelength || v.radius != w.radius) {
        std::string at = format_exact(v.center[0]) + ", " + format_exact(v.center[1]);
        if (v.type == ProfileType::scroll_ring)
          at += ", " + format_exact(v.center[2]) + ", radius " + format_exact(v.radius);
        ctx.error("initial.w", "initial.w: a " + type + " start needs the same " + keys +
                                   " for v and w (initial.v has center " + at +
                                   " and wavelength " + format_exact(v.wavelength) + ")");
      }
    }
  }
  c.stimulus = read_stimuli(top, c.domain);
  c.tissue = read_tissue(top, c.domain, config_folder(c.source));
  c.anisotropy = read_anisotropy(top, c.domain);
  if (c.anisotropy.enabled) {
    // The tensor takes the place of D: model.diffusion is D_l (the resolved config leaves it out).
    if (ctx.given("model.diffusion"))
      ctx.error("model.diffusion", "model.diffusion: anisotropy gives the diffusion tensor "
                                   "(longitudinal, transverse); model.diffusion does not apply");
    c.model.diffusion = c.anisotropy.longitudinal;
  }
  c.fields = read_fields(top, c);
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
    c.output.probes_every = o.number("probes_every", c.output.every, positive());
    c.output.ecg = read_ecg(o, c.domain, c.output.every);
    c.output.phase = o.boolean("phase", c.output.phase);
    // Activation and tip levels default to the form's (a wave's loop encircles them).
    const NodeState levels = with_kinetics(c.model.kinetics, [](const auto& k) { return k.levels(); });
    {
      Section a = o.section("activation");
      ActivationSpec& spec = c.output.activation;
      spec.enabled = a.boolean("enabled", c.domain.dims >= 2 && c.output.vtk);
      spec.threshold = a.number("threshold", levels.v, any_number());
      spec.last = a.boolean("last", spec.last);
    }
    {
      Section r = o.section("restitution");
      RestitutionSpec& spec = c.output.restitution;
      spec.enabled = r.boolean("enabled", !c.output.probes.empty());
      spec.level = r.number("level", spec.level, {0.0, 1.0, true, true});
    }
    {
      Section t = o.section("tips");
      TipSpec& spec = c.output.tips;
      spec.enabled = t.boolean("enabled", c.domain.dims == 2);
      spec.v_iso = t.number("v", levels.v, any_number());
      spec.w_iso = t.number("w", levels.w, any_number());
      spec.breakup = t.integer("breakup", spec.breakup, 1, 1 << 20);
      spec.drift = t.number("drift", spec.drift, positive());
      spec.meander = t.number("meander", spec.meander, positive());
      spec.every = t.number("every", c.output.every, positive());
    }
    {
      Section f = o.section("filaments");
      FilamentSpec& spec = c.output.filaments;
      spec.enabled = f.boolean("enabled", c.domain.dims == 3);
      spec.v_iso = f.number("v", levels.v, any_number());
      spec.w_iso = f.number("w", levels.w, any_number());
      if (f.has("settle")) spec.settle = f.number("settle", 0.0, non_negative());
      spec.every = f.number("every", c.output.every, positive());
    }
  }
  if (ctx.ok()) check_consistency(c, top, build, fields);
  return c;
}

// Whether load() asks make_problem's refusals (check_problem, model/problem.hpp) as well: fhn run
// and fhn validate do, so that a run refuses its config before it writes anything; a sweep's
// members do not, a sweep turning a member whose problem cannot be built into a row of its own
// (sweep.csv, status setup_failure) while the others run.
enum class ProblemChecks { made, left_to_the_sweep };

// `checked`: the text has passed check_yaml_text (ConfigText).
Config load(const std::string& text, const std::string& source,
            const std::vector<Override>& overrides, const BuildCapabilities& build,
            bool checked, ProblemChecks problem) {
  YAML::Node root = checked ? parse_checked_yaml(text, source) : parse_yaml(text, source);
  Context ctx(source);
  std::vector<std::string> notes;
  for (const Override& o : overrides) apply_override(root, o, ctx, notes);
  Config config;
  ProblemFields fields;  // built once, for the physics checks and check_problem
  {
    config = read_config(root, ctx, source, build, fields);
  }  // the top-level Section reports unknown keys as it closes
  if (ctx.ok() && problem == ProblemChecks::made) {
    try {
      check_problem(config, fields.of(config));
    } catch (const ConfigError& e) {
      ctx.error(e.key(), e.what());  // "file:line:column: key: ..."
    }
  }
  ctx.throw_if_errors();
  config.notes = notes;
  config.locations = ctx.locations();
  return config;
}

}  // namespace

Config load_config_text(const std::string& text, const std::string& source,
                        const std::vector<std::string>& overrides, const BuildCapabilities& build) {
  return load(text, source, command_line(overrides), build, false, ProblemChecks::made);
}

std::vector<Override> command_line(const std::vector<std::string>& assignments) {
  std::vector<Override> out;
  for (const std::string& assignment : assignments) out.push_back({assignment, ""});
  return out;
}

std::string read_config_file(const std::string& path) { return read_text_file(path, "config file"); }

std::vector<std::string> input_files(const Config& c) {
  std::vector<std::string> files;
  auto add = [&files](const TissueRegion& r) {
    if (r.shape == TissueShape::image && !r.file.empty() &&
        std::find(files.begin(), files.end(), r.file) == files.end())
      files.push_back(r.file);
  };
  for (const TissueRegion& r : c.tissue) add(r);
  for (const FieldSpec& f : c.fields) add(f.region);
  return files;
}

ConfigText::ConfigText(std::string text, std::string source)
    : text_(std::move(text)), source_(std::move(source)) {
  parse_yaml(text_, source_);  // the limits and the syntax, once
}

Config ConfigText::load(const std::vector<Override>& overrides,
                        const BuildCapabilities& build) const {
  return fhn::load(text_, source_, overrides, build, true, ProblemChecks::left_to_the_sweep);
}

Config load_config(const std::string& path, const std::vector<std::string>& overrides,
                   const BuildCapabilities& build) {
  return load(read_config_file(path), path, command_line(overrides), build, false,
              ProblemChecks::made);
}

Config load_config(const std::string& path, const std::vector<Override>& overrides,
                   const BuildCapabilities& build) {
  return load(read_config_file(path), path, overrides, build, false, ProblemChecks::made);
}

}  // namespace fhn
