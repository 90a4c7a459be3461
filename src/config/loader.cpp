// YAML -> Config. yaml-cpp is included only here and in the other src/config/*.cpp files.
#include "config/loader.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <set>

#include "config/names.hpp"
#include "config/yaml_reader.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "model/stability.hpp"
#include "model/stimulus.hpp"

namespace fhn {
namespace {

using namespace config_detail;

constexpr index_t kMaxNodes = index_t{1} << 31;   // 16 GiB per state array: beyond any GPU
constexpr index_t kMaxSteps = index_t{1} << 53;   // n dt stays exact in a double
constexpr real kMultipleTolerance = 1e-9;         // relative slack for "a multiple of dt"

// ---------------------------------------------------------------------------------------------
// --set overrides

struct PathStep {
  std::string key;             // map key, or empty for a list index
  std::size_t index = 0;       // SIZE_MAX when the digits exceed it (no list is that long)
  std::string digits;          // the index as given, for messages
};

// "stimulus[0].amplitude" or "stimulus.0.amplitude" -> steps; `canonical` receives the first
// spelling, which is also how validation messages name keys.
std::vector<PathStep> parse_key_path(const std::string& key_text, const std::string& assignment,
                                     std::string& canonical) {
  auto fail = [&](const std::string& why) -> void {
    throw ConfigError("--set " + assignment + ": " + why + " in key path '" + key_text + "'");
  };
  auto is_index = [](const std::string& t) {
    return !t.empty() && std::all_of(t.begin(), t.end(), [](unsigned char c) { return std::isdigit(c); });
  };
  std::vector<PathStep> steps;
  // An index beyond std::size_t is kept as SIZE_MAX: it names no entry, and set_at reports it
  // with the list's size.
  auto push_index = [&](const std::string& digits) {
    std::size_t index = 0;
    const auto parsed = std::from_chars(digits.data(), digits.data() + digits.size(), index);
    if (parsed.ec != std::errc() || parsed.ptr != digits.data() + digits.size())
      index = std::numeric_limits<std::size_t>::max();
    steps.push_back({"", index, digits});
    canonical += "[" + digits + "]";
  };
  std::size_t begin = 0;
  while (begin <= key_text.size()) {
    std::size_t end = key_text.find('.', begin);
    if (end == std::string::npos) end = key_text.size();
    const std::string part = key_text.substr(begin, end - begin);
    const std::size_t bracket = part.find('[');
    const std::string name = part.substr(0, bracket);
    if (part.empty() || (name.empty() && steps.empty())) fail("empty key");
    if (is_index(name) && !steps.empty()) {
      push_index(name);
    } else if (!name.empty()) {
      steps.push_back({name, 0, ""});
      canonical += (canonical.empty() ? "" : ".") + name;
    }
    for (std::size_t open = bracket; open != std::string::npos;) {
      const std::size_t close = part.find(']', open);
      if (close == std::string::npos || !is_index(part.substr(open + 1, close - open - 1)))
        fail("malformed list index");
      push_index(part.substr(open + 1, close - open - 1));
      open = close + 1 == part.size() ? std::string::npos : close + 1;
      if (open != std::string::npos && part[open] != '[') fail("unexpected text after ']'");
    }
    begin = end + 1;
  }
  return steps;
}

// Stores `value` at steps[s..] below `node`, creating mappings on the way. A key created here
// that the schema does not know is reported by the validation that follows, with the --set
// option as its location. Nodes are passed by value: yaml-cpp nodes are references, and
// re-assigning one variable would overwrite the document instead of moving down it.
void set_at(YAML::Node node, const std::vector<PathStep>& steps, std::size_t s,
            const YAML::Node& value, const std::string& assignment, const std::string& above) {
  const PathStep& step = steps[s];
  const bool last = s + 1 == steps.size();
  const std::string here = step.key.empty() ? above + "[" + step.digits + "]"
                                            : (above.empty() ? "" : above + ".") + step.key;
  if (step.key.empty()) {
    if (!node.IsSequence() || step.index >= node.size()) {
      const std::string size = std::to_string(node.size());
      const std::string range =
          node.size() == 0 ? "'" + above + "' is empty"
                           : "'" + above + "' has " + size +
                                 (node.size() == 1 ? " entry" : " entries") + ": indices 0 to " +
                                 std::to_string(node.size() - 1);
      throw ConfigError("--set " + abbreviated(assignment) + ": " + quoted(here) +
                        " does not exist (" +
                        (node.IsSequence() ? range : "'" + above + "' is not a list") + ")");
    }
    if (last) {
      node[step.index] = value;
    } else {
      set_at(node[step.index], steps, s + 1, value, assignment, here);
    }
    return;
  }
  if (!node.IsMap())
    throw ConfigError("--set " + assignment + ": cannot set '" + here + "': '" + above + "' is " +
                      node_text(node) + ", not a section");
  if (last) {
    if (value.IsNull())
      node.remove(step.key);  // KEY=~ removes the key: back to its default
    else
      node[step.key] = value;
    return;
  }
  if (!node[step.key].IsDefined() || node[step.key].IsNull())
    node[step.key] = YAML::Node(YAML::NodeType::Map);
  set_at(node[step.key], steps, s + 1, value, assignment, here);
}

// Keys of which a config gives at most one. An override of one of them replaces the file's
// choice of the other (--set domain.nodes=41 on a file that gives dx); two in the same file, or
// two on the command line, stay an error (reported by the validation).
const std::vector<std::pair<std::string, std::string>>& exclusive_keys() {
  static const std::vector<std::pair<std::string, std::string>> pairs{{"domain.nodes", "domain.dx"}};
  return pairs;
}

// After `--set <canonical>=...`: removes the exclusive partner of `canonical` from the document
// when the file (not an earlier --set) gave it, and says so in `notes`.
void replace_exclusive_partner(YAML::Node& root, const std::string& canonical,
                               const std::string& assignment, const Context& ctx,
                               std::vector<std::string>& notes) {
  for (const auto& [first, second] : exclusive_keys()) {
    if (canonical != first && canonical != second) continue;
    const std::string& partner = canonical == first ? second : first;
    if (ctx.overridden(partner)) continue;
    const std::size_t dot = partner.find('.');
    const YAML::Node& document = root;  // const: looking a key up must not create it
    if (!document.IsMap()) continue;
    YAML::Node section = document[partner.substr(0, dot)];
    const std::string key = partner.substr(dot + 1);
    if (!section.IsMap() || !section[key].IsDefined()) continue;
    notes.push_back("--set " + assignment + " replaces " + partner + " = " +
                    (section[key].IsScalar() ? section[key].Scalar() : std::string("...")) +
                    " of the config file (the two are exclusive)");
    section.remove(key);
  }
}

void apply_override(YAML::Node& root, const std::string& assignment, Context& ctx,
                    std::vector<std::string>& notes) {
  const std::size_t eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ConfigError("--set " + assignment + ": expected KEY=VALUE, e.g. --set time.dt=0.05");
  const std::string key_text = assignment.substr(0, eq);
  const std::string value_text = assignment.substr(eq + 1);
  if (value_text.empty())
    throw ConfigError("--set " + assignment + ": no value after '=' for '" + key_text + "'");
  std::string canonical;
  const std::vector<PathStep> steps = parse_key_path(key_text, assignment, canonical);

  YAML::Node value;
  try {
    check_yaml_text(value_text, "--set " + abbreviated(assignment));
    value = YAML::Load(value_text);
  } catch (const YAML::Exception&) {
    value = YAML::Node(value_text);  // not valid YAML on its own: take it as plain text
  }

  set_at(root, steps, 0, value, assignment, "");
  replace_exclusive_partner(root, canonical, assignment, ctx, notes);
  ctx.add_override(canonical, assignment);
}

// ---------------------------------------------------------------------------------------------
// The schema

// Whether x is a whole multiple of `step` (to a relative kMultipleTolerance) with at most
// `limit` steps in it; `count` receives the nearest multiple unless there are too many.
enum class Multiple { whole, not_whole, too_many };
Multiple multiple_of(real x, real step, index_t limit, index_t& count) {
  const real ratio = x / step;
  if (!(ratio <= static_cast<real>(limit))) return Multiple::too_many;
  count = static_cast<index_t>(std::llround(ratio));
  const bool whole =
      count >= 1 && std::abs(static_cast<real>(count) * step - x) <= kMultipleTolerance * x;
  return whole ? Multiple::whole : Multiple::not_whole;
}

// The number of time steps in the value of `key` (time.end, output.every, ...) into `steps`.
// A value that is no whole number of steps is reported at `key` as "<key> = <value>" followed
// by `not_whole`; more than 2^53 steps (the most a double counts exactly) at `too_many_key`.
bool count_steps(Context& ctx, const std::string& key, real value, real dt,
                 const std::string& not_whole, const std::string& too_many_key, index_t& steps) {
  switch (multiple_of(value, dt, kMaxSteps, steps)) {
    case Multiple::whole:
      return true;
    case Multiple::not_whole:
      ctx.error(key, key + " = " + format_exact(value) + not_whole);
      return false;
    case Multiple::too_many:
      ctx.error(too_many_key, too_many_key + ": " + key + " / time.dt = " +
                                  format_exact(value / dt) + " steps; at most 2^53 = " +
                                  std::to_string(kMaxSteps) + " (the most a double counts exactly)");
      return false;
  }
  return false;
}

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
                          "' (one of: gaussian, constant, step, tanh_front, rectangle)");
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
      {ProfileType::rectangle, rectangle_keys}};
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
        s.forbid(name, "not a parameter of a '" + type_name + "' profile (its keys: type, " +
                           join(own) + ")");

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

// domain.nodes and domain.dx are exclusive: with dx, N_a = L_a / dx + 1 must be whole on every
// axis; with nodes, dx = L_a / (N_a - 1) must be the same on every axis. False after an error.
bool resolve_grid(Domain& d, Context& ctx) {
  const bool has_nodes = ctx.given("domain.nodes");
  const bool has_dx = ctx.given("domain.dx");
  if (has_nodes && has_dx) {
    ctx.error("domain.dx", "domain.nodes and domain.dx are exclusive (nodes given at " +
                               ctx.where("domain.nodes") + "); keep one of them");
    return false;
  }
  const bool sheet = d.dims >= 2;
  if (has_dx || (sheet && !has_nodes)) {  // a sheet's default grid is dx = 0.5
    // Reported at the key that was given: dx, or the length that the default dx does not divide.
    const std::string at = has_dx ? "domain.dx" : "domain.length";
    const std::string dx_text = "domain.dx: " + format_exact(d.dx) + (has_dx ? "" : " (the default)");
    for (int a = 0; a < d.dims; ++a) {
      const std::string length_key =
          sheet ? "domain.length[" + std::to_string(a) + "]" : std::string("domain.length");
      index_t cells = 0;
      const Multiple grid = multiple_of(d.length[a], d.dx, kMaxNodes - 1, cells);
      if (grid == Multiple::too_many) {
        ctx.error(at, dx_text + " makes " + length_key + " / dx = " +
                          format_exact(d.length[a] / d.dx) + " cells; at most " +
                          std::to_string(kMaxNodes - 1) + " (" + std::to_string(kMaxNodes) +
                          " nodes) are allowed");
        return false;
      }
      if (grid == Multiple::not_whole) {
        const index_t nearest = std::max<index_t>(1, cells);
        ctx.error(at, dx_text + " does not divide " + length_key + " = " +
                          format_exact(d.length[a]) + " into whole cells; nearest: dx = " +
                          format_exact(d.length[a] / static_cast<real>(nearest)) + " (" +
                          std::to_string(nearest + 1) + " nodes)");
        return false;
      }
      d.nodes[a] = cells + 1;
    }
  }
  d.dx = d.length[0] / static_cast<real>(d.nodes[0] - 1);
  for (int a = 1; a < d.dims; ++a) {
    const real along = d.length[a] / static_cast<real>(d.nodes[a] - 1);
    if (std::abs(along - d.dx) > 1e-12 * d.dx) {
      ctx.error("domain.nodes", "domain.nodes: [" + std::to_string(d.nodes[0]) + ", " +
                                    std::to_string(d.nodes[a]) + "] gives dx = " +
                                    format_exact(d.dx) + " along x but " + format_exact(along) +
                                    " along y; the spacing must be the same on both axes (give "
                                    "domain.dx instead)");
      return false;
    }
  }
  if (d.node_count() > kMaxNodes) {
    ctx.error(has_nodes ? "domain.nodes" : "domain.dx",
              "domain: " + std::to_string(d.node_count()) + " nodes; at most " +
                  std::to_string(kMaxNodes) + " are allowed");
    return false;
  }
  return true;
}

// Forward Euler's time step (explicit, adaptive_explicit; the adaptive grid's smallest spacing
// is the base dx): at most the limit of model/stability.hpp, or of diffusion alone where
// scheme.explicit_limit says so.
void check_explicit_limit(const Config& c, Context& ctx) {
  if (c.scheme.type != SchemeType::explicit_euler && c.scheme.type != SchemeType::adaptive_explicit)
    return;
  const ExplicitLimit limit = explicit_limit(c.model, c.boundary, c.domain.dims, c.domain.dx);
  const bool reaction = c.scheme.explicit_limit == ExplicitLimitCheck::reaction;
  const real largest = reaction ? limit.dt : limit.diffusion_dt;
  if (c.time.dt <= largest * (1.0 + 1e-12)) return;
  const std::string head =
      "time.dt = " + format_exact(c.time.dt) + " exceeds the explicit stability limit";
  const std::string grid =
      "dx = " + format_exact(c.domain.dx) + ", D = " + format_exact(c.model.diffusion);
  const std::string diffusion = c.domain.dims >= 2 ? "dx^2/(4 D)" : "dx^2/(2 D)";
  if (reaction)
    ctx.error("time.dt", head + ": " + limit.explain() + " (" + grid + ", a = " +
                             format_exact(c.model.a) + "); the largest stable dt is " +
                             format_exact(largest) +
                             " (scheme.explicit_limit: diffusion would allow " + diffusion +
                             " = " + format_exact(limit.diffusion_dt) +
                             ", where that mode grows wherever v stays near 1)");
  else
    ctx.error("time.dt", head + " " + diffusion + " = " + format_exact(largest) +
                             " of diffusion alone (" + grid +
                             "; scheme.explicit_limit: diffusion); the largest stable dt is " +
                             format_exact(largest));
}

// A stimulus must be on at one of the times its scheme evaluates the stimuli (t_j = j h below;
// explicit_cpu.cpp, crank_nicolson_cpu.cpp, adi_cpu.cpp and their CUDA twins), else it does not
// act: one whose every window falls between two of them is refused; one that acts only after
// the last of them is a warning (Config::warnings). Reported at stimulus[i].start.
void check_stimulus_times(Config& c, const Stimulus& s, const std::string& path,
                          Context& ctx) {
  const real dt = c.time.dt;
  const index_t n = c.time.steps;
  real h = dt;
  index_t samples = n;  // forward Euler: the start of each step, t = n dt
  std::string when = "at the start of each step, t = n dt";
  if (c.scheme.type == SchemeType::crank_nicolson) {
    if (c.scheme.crank_nicolson.formulation == Formulation::adi) {
      h = 0.5 * dt;
      samples = 2 * n + 1;
      when = "at the start, middle and end of each step, t = n dt/2";
    } else {
      samples = n + 1;
      when = "at both ends of each step, t = n dt";
    }
  }
  if (first_sample_on(s, h, samples, dt) >= 0) return;
  const std::string scheme = name_of(scheme_type_names(), c.scheme.type) + " evaluates stimuli " +
                             when + " (time.dt = " + format_exact(dt) + ")";
  const real last = static_cast<real>(samples - 1) * h;
  const std::string key = path + ".start";
  // A stimulus that acts only after this run's end acts in the run continued past it (--restart
  // with a larger time.end may continue a run; a run shortened with --set time.end meets it): a
  // warning. One whose windows fall between the sampling times acts in no run: an error.
  const real windows_end = s.start + static_cast<real>(s.count - 1) * s.period + s.duration;
  const real ever = std::ceil(windows_end / h) + 2.0;
  const bool acts_later =
      ever >= 0x1p62 || first_sample_on(s, h, static_cast<index_t>(ever), dt) >= 0;
  if (acts_later) {
    c.warnings.push_back(
        ctx.where(key) + ": " + key + " = " + format_exact(s.start) +
        (s.start >= c.time.end ? " is not before time.end = " + format_exact(c.time.end)
                               : " is after the last time the scheme applies a stimulus, t = " +
                                     format_exact(last) + " (" + scheme + ")") +
        ": the stimulus does not act in this run, only in one continued past its end");
    return;
  }
  if (s.start > last + stimulus_tolerance(dt))
    ctx.error(key, key + " = " + format_exact(s.start) +
                       " is after the last time the scheme applies a stimulus, t = " +
                       format_exact(last) + " (" + scheme + "): the stimulus would never act");
  else
    ctx.error(key, path + ": no time the scheme applies stimuli falls in its window [" +
                       format_exact(s.start) + ", " + format_exact(s.start + s.duration) + ")" +
                       (s.count > 1 ? " nor in any of its " + std::to_string(s.count - 1) +
                                          " repetitions"
                                    : "") +
                       " (" + scheme + "): the stimulus would never act; start it on a step or "
                       "make its duration at least " + format_exact(h));
}

// Cross-field rules: run once every key parsed on its own.
void check_consistency(Config& c, Section& top, const BuildCapabilities& build) {
  Context& ctx = top.context();

  // Grid: exactly one of nodes and dx; dx must divide every length.
  if (!resolve_grid(c.domain, ctx)) return;

  // The explicit stability limit needs only the grid, the model and dt: it is reported beside
  // any problem with the number of steps.
  check_explicit_limit(c, ctx);

  // Time: a whole number of steps, frames on step boundaries. What counts steps of time.end
  // (the stimuli's windows) is checked only when there is a whole number of them.
  const std::string of_dt = " time.dt = " + format_exact(c.time.dt);
  bool whole_steps = false;
  if (c.time.dt > c.time.end)
    ctx.error("time.dt", "time.dt = " + format_exact(c.time.dt) + " is longer than time.end = " +
                             format_exact(c.time.end));
  else
    whole_steps = count_steps(ctx, "time.end", c.time.end, c.time.dt,
                              " is not a whole number of steps of" + of_dt, "time.dt",
                              c.time.steps);
  count_steps(ctx, "output.every", c.output.every, c.time.dt, " must be a whole multiple of" + of_dt,
              "output.every", c.output.every_steps);
  if (c.output.checkpoint_every > 0.0)
    count_steps(ctx, "output.checkpoint_every", c.output.checkpoint_every, c.time.dt,
                " must be a whole multiple of" + of_dt + " (or 0 for none)",
                "output.checkpoint_every", c.output.checkpoint_every_steps);

  const bool sheet = c.domain.dims >= 2;
  if (sheet && c.scheme.type == SchemeType::adaptive_explicit)
    ctx.error("scheme.type", "scheme.type: adaptive_explicit works on cables only (domain.length "
                             "with one entry); on a sheet use explicit");
  const CrankNicolsonSpec& cn = c.scheme.crank_nicolson;
  if (c.scheme.type == SchemeType::crank_nicolson && cn.formulation == Formulation::adi) {
    if (cn.w_update == WUpdate::leapfrog)
      ctx.error("scheme.crank_nicolson.w_update",
                "scheme.crank_nicolson.w_update: leapfrog needs the coupled Newton formulation; "
                "formulation: adi advances w with v by the trapezoidal rule (w_update: trapezoidal)");
    if (c.boundary.no_flux_order == 1)
      ctx.error("boundary.no_flux_order", "boundary.no_flux_order: 1 needs scheme.crank_nicolson."
                                          "formulation: newton; adi uses the mirrored ghost nodes (2)");
    if (!solvers::has_batched_form(cn.tridiagonal))
      ctx.error("scheme.crank_nicolson.tridiagonal",
                "scheme.crank_nicolson.tridiagonal: '" +
                    std::string(solvers::backend_name(cn.tridiagonal)) +
                    "' has no batched form; formulation: adi solves batches of lines with thomas "
                    "(cpu), partitioned or cusparse (cuda)");
  }
  if (sheet && c.scheme.type == SchemeType::crank_nicolson && cn.formulation == Formulation::newton)
    ctx.error("scheme.crank_nicolson.formulation",
              "scheme.crank_nicolson.formulation: newton (the coupled system of a step) is for "
              "cables; on a sheet use adi (the default there)");
  if (c.scheme.type == SchemeType::adaptive_explicit && c.output.stride > 1)
    ctx.error("output.stride", "output.stride: frames of the adaptive grid keep all of its nodes; "
                               "remove output.stride (or set it to 1)");
  if (sheet && c.output.spacetime)
    ctx.error("output.spacetime", "output.spacetime: the x-t kymograph is drawn for cables only; "
                                  "a sheet writes its frames (and activation.vti) instead");
  if (!sheet)
    for (const char* key : {"output.activation.enabled", "output.tips.enabled"}) {
      const bool on = std::string(key) == "output.tips.enabled" ? c.output.tips.enabled
                                                                : c.output.activation.enabled;
      if (on)
        ctx.error(key, std::string(key) + ": activation maps and spiral tips are computed on "
                                          "sheets only (domain.length: [Lx, Ly])");
    }

  if (c.scheme.type == SchemeType::adaptive_explicit && c.scheme.backend != Backend::cpu)
    ctx.error("scheme.backend", "scheme.backend: the adaptive_explicit scheme runs on the cpu "
                                "backend only");
  // The tridiagonal solver works where the scheme keeps its state; its default follows the
  // backend.
  solvers::TridiagonalBackend& solver = c.scheme.crank_nicolson.tridiagonal;
  const bool on_device = c.scheme.backend == Backend::cuda;
  if (!ctx.given("scheme.crank_nicolson.tridiagonal") && on_device)
    solver = solvers::TridiagonalBackend::partitioned;
  if (c.scheme.type == SchemeType::crank_nicolson && solvers::runs_on_device(solver) != on_device) {
    const std::string name(solvers::backend_name(solver));
    ctx.error("scheme.crank_nicolson.tridiagonal",
              on_device ? "scheme.crank_nicolson.tridiagonal: '" + name +
                              "' runs on the CPU; with scheme.backend: cuda use partitioned, "
                              "cyclic_reduction, cusparse or cusparse_pivot"
                        : "scheme.crank_nicolson.tridiagonal: '" + name +
                              "' solves on the GPU and needs scheme.backend: cuda; with "
                              "scheme.backend: cpu use 'thomas' or 'thomas_partitioned'");
  }
  if (c.output.newton_log && c.scheme.type != SchemeType::crank_nicolson)
    ctx.error("output.newton_log", "output.newton_log: Newton iterations exist only with "
                                   "scheme.type: crank_nicolson");

  auto inside = [&](const Point& p) {
    for (int a = 0; a < c.domain.dims; ++a)
      if (p[a] < 0.0 || p[a] > c.domain.length[a]) return false;
    return true;
  };
  auto extent = [&] {
    if (!sheet) return "[0, " + format_exact(c.domain.length[0]) + "]";
    return "[0, " + format_exact(c.domain.length[0]) + "] x [0, " + format_exact(c.domain.length[1]) + "]";
  };
  for (std::size_t i = 0; i < c.output.probes.size(); ++i) {
    const Point& p = c.output.probes[i];
    if (!inside(p))
      ctx.error("output.probes", "output.probes[" + std::to_string(i) + "] = " +
                                     (sheet ? "[" + format_exact(p[0]) + ", " + format_exact(p[1]) + "]"
                                            : format_exact(p[0])) +
                                     " is outside the domain " + extent());
  }
  for (std::size_t i = 0; i < c.stimulus.size(); ++i) {
    const Stimulus& s = c.stimulus[i];
    const std::string path = "stimulus[" + std::to_string(i) + "]";
    const bool outside = s.x_max < 0.0 || s.x_min > c.domain.length[0] ||
                         (sheet && (s.y_max < 0.0 || s.y_min > c.domain.length[1]));
    const std::string region =
        "[" + format_exact(s.x_min) + ", " + format_exact(s.x_max) + "]" +
        (sheet ? " x [" + format_exact(s.y_min) + ", " + format_exact(s.y_max) + "]" : "");
    // Amplitude 0 is a stimulus switched off (a placeholder a sweep axis may switch on): where and
    // when it would act does not matter.
    const bool off = s.amplitude == 0.0;
    if (outside)
      ctx.error(path + ".x_min",
                path + ": the region " + region + " lies outside the domain " + extent());
    else if (!off && stimulus_nodes(s, c.domain).empty())
      ctx.error(path + ".x_min", path + ": the region " + region +
                                     " holds no grid node (the nodes lie at multiples of dx = " +
                                     format_exact(c.domain.dx) +
                                     "): the stimulus would never act; widen it to take a node");
    if (whole_steps && !off) check_stimulus_times(c, s, path, ctx);
  }

  if (!build.vtk) {
    for (const char* key : {"output.vtk", "output.spacetime", "output.activation.enabled"}) {
      const std::string k = key;
      const bool on = k == "output.vtk"         ? c.output.vtk
                      : k == "output.spacetime" ? c.output.spacetime
                                                : c.output.activation.enabled;
      // The activation map follows output.vtk by default: one message (about output.vtk) is enough.
      const bool implied = k == "output.activation.enabled" && !ctx.given(key) && c.output.vtk;
      if (on && !implied)
        ctx.error(key, std::string(key) + ": this build has no VTK (configured with "
                                          "-DFHN_WITH_VTK=OFF); set " + key +
                           ": false (or --set " + key + "=false), or rebuild with VTK" +
                           (ctx.given(key) ? "" : " (true is the default)"));
    }
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
    c.model.a = m.number("a", c.model.a, closed(0.0, 1.0));
    c.model.epsilon = m.number("epsilon", c.model.epsilon, non_negative());
    c.model.gamma = m.number("gamma", c.model.gamma, non_negative());
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
  }
  c.stimulus = read_stimuli(top, c.domain);
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
    {
      Section a = o.section("activation");
      ActivationSpec& spec = c.output.activation;
      spec.enabled = a.boolean("enabled", sheet && c.output.vtk);
      spec.threshold = a.number("threshold", spec.threshold, any_number());
      spec.last = a.boolean("last", spec.last);
    }
    {
      Section t = o.section("tips");
      TipSpec& spec = c.output.tips;
      spec.enabled = t.boolean("enabled", sheet);
      spec.v_iso = t.number("v", spec.v_iso, any_number());
      spec.w_iso = t.number("w", spec.w_iso, any_number());
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
