// YAML -> Config. The only translation unit (with emit.cpp) that includes yaml-cpp.
#include "config/loader.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "config/names.hpp"
#include "core/error.hpp"
#include "core/format.hpp"

namespace fhn {
namespace {

constexpr real kInf = std::numeric_limits<real>::infinity();
constexpr index_t kMaxNodes = index_t{1} << 31;   // 16 GiB per state array: beyond any GPU
constexpr index_t kMaxSteps = index_t{1} << 53;   // n dt stays exact in a double
constexpr real kMultipleTolerance = 1e-9;         // relative slack for "a multiple of dt"

// ---------------------------------------------------------------------------------------------
// Messages

// A closed, open or half-open interval of allowed values.
struct Range {
  real lo = -kInf;
  real hi = kInf;
  bool lo_open = false;
  bool hi_open = false;

  bool contains(real x) const {
    return (lo_open ? x > lo : x >= lo) && (hi_open ? x < hi : x <= hi);
  }
  std::string describe() const {
    if (lo == -kInf && hi == kInf) return "any finite number";
    if (hi == kInf) return std::string(lo_open ? "a number > " : "a number >= ") + format_exact(lo);
    if (lo == -kInf) return std::string(hi_open ? "a number < " : "a number <= ") + format_exact(hi);
    return std::string("a number in ") + (lo_open ? "(" : "[") + format_exact(lo) + ", " +
           format_exact(hi) + (hi_open ? ")" : "]");
  }
};
Range positive() { return {0.0, kInf, true, false}; }
Range non_negative() { return {0.0, kInf, false, false}; }
Range any_number() { return {}; }
Range closed(real lo, real hi) { return {lo, hi, false, false}; }

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitution = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
      diagonal = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, substitution});
    }
  }
  return row[b.size()];
}

// "; did you mean 'gamma'?" when a candidate is close enough to be a plausible typo.
std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates) {
  const std::string* best = nullptr;
  std::size_t best_distance = std::numeric_limits<std::size_t>::max();
  for (const auto& candidate : candidates) {
    const std::size_t d = edit_distance(word, candidate);
    if (d < best_distance) {
      best_distance = d;
      best = &candidate;
    }
  }
  const std::size_t limit = std::max<std::size_t>(2, word.size() / 3);
  if (best == nullptr || best_distance > limit) return "";
  return "; did you mean '" + *best + "'?";
}

std::string join(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& word : words) out += (out.empty() ? "" : ", ") + word;
  return out;
}

std::string node_text(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Scalar: return "'" + node.Scalar() + "'";
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Map: return "a mapping";
    default: return "nothing";
  }
}

// ---------------------------------------------------------------------------------------------
// Where values came from, and the errors found so far

class Context {
 public:
  explicit Context(std::string source) : source_(std::move(source)) {}

  // "file:line:column" of a value, or "--set key=value" when an override supplied it (the
  // value itself, a value inside it, or a section the override created on its way down).
  std::string where(const std::string& path, const YAML::Mark& mark) const {
    auto below = [](const std::string& inner, const std::string& outer) {
      return inner.rfind(outer + ".", 0) == 0 || inner.rfind(outer + "[", 0) == 0;
    };
    for (const auto& [key, text] : override_text_) {
      if (path == key || below(path, key) || (mark.is_null() && below(key, path)))
        return "--set " + text;
    }
    if (mark.is_null()) return source_;
    return source_ + ":" + std::to_string(mark.line + 1) + ":" + std::to_string(mark.column + 1);
  }
  std::string where(const std::string& path) const {
    const auto it = marks_.find(path);
    return where(path, it == marks_.end() ? YAML::Mark::null_mark() : it->second);
  }

  void error(const std::string& path, const YAML::Mark& mark, const std::string& message) {
    errors_.push_back(where(path, mark) + ": " + message);
  }
  void error(const std::string& path, const std::string& message) {
    errors_.push_back(where(path) + ": " + message);
  }

  void record(const std::string& path, const YAML::Mark& mark) { marks_[path] = mark; }
  bool given(const std::string& path) const { return marks_.count(path) != 0; }
  void add_override(const std::string& path, const std::string& text) {
    override_text_[path] = text;
  }

  bool ok() const { return errors_.empty(); }
  void throw_if_errors() const {
    if (errors_.empty()) return;
    std::string message = errors_.size() == 1 ? "invalid configuration:\n"
                                              : std::to_string(errors_.size()) +
                                                    " problems in the configuration:\n";
    for (const auto& e : errors_) message += "  " + e + "\n";
    message.pop_back();
    throw ConfigError(message);
  }

 private:
  std::string source_;
  std::map<std::string, YAML::Mark> marks_;  // key path -> mark of its value, for keys present
  std::map<std::string, std::string> override_text_;
  std::vector<std::string> errors_;
};

// ---------------------------------------------------------------------------------------------
// One mapping of the document. Each accessor declares a key as allowed and reads it with its
// default; when the Section goes out of scope every key present but never declared is reported.

class Section {
 public:
  Section(Context& ctx, YAML::Node node, std::string path)
      : ctx_(ctx), node_(std::move(node)), path_(std::move(path)) {
    if (node_.IsDefined() && !node_.IsNull() && !node_.IsMap()) {
      ctx_.error(path_, node_.Mark(),
                 (path_.empty() ? std::string("the document") : "'" + path_ + "'") +
                     " must be a mapping of keys to values, got " + node_text(node_));
      node_ = YAML::Node();
    }
  }
  Section(const Section&) = delete;
  Section& operator=(const Section&) = delete;
  ~Section() { report_unknown_keys(); }

  std::string path_of(const std::string& key) const {
    return path_.empty() ? key : path_ + "." + key;
  }
  bool has(const std::string& key) {
    allowed_.push_back(key);
    return find(key).IsDefined();
  }

  real number(const std::string& key, real fallback, Range range) {
    return optional_number(key, range).value_or(fallback);
  }

  std::optional<real> optional_number(const std::string& key, Range range) {
    const YAML::Node value = take(key);
    if (!value.IsDefined()) return std::nullopt;
    const auto x = parse_number(path_of(key), value, range);
    return x;
  }

  real required_number(const std::string& key, Range range) {
    const auto x = optional_number(key, range);
    if (!x && !find(key).IsDefined())
      ctx_.error(path_, node_.Mark(), "missing required key '" + path_of(key) + "' (" +
                                          range.describe() + ")");
    return x.value_or(0.0);
  }

  std::optional<index_t> optional_integer(const std::string& key, index_t lo, index_t hi) {
    const YAML::Node value = take(key);
    if (!value.IsDefined()) return std::nullopt;
    const std::string path = path_of(key);
    const std::string expected = "a whole number in [" + std::to_string(lo) + ", " +
                                 std::to_string(hi) + "]";
    real x = 0.0;
    if (!value.IsScalar() || !YAML::convert<real>::decode(value, x) || !std::isfinite(x) ||
        x != std::floor(x)) {
      ctx_.error(path, value.Mark(), path + ": expected " + expected + ", got " + node_text(value));
      return std::nullopt;
    }
    if (x < static_cast<real>(lo) || x > static_cast<real>(hi)) {
      ctx_.error(path, value.Mark(), path + ": value " + value.Scalar() + " is out of range; expected " +
                                         expected);
      return std::nullopt;
    }
    return static_cast<index_t>(x);
  }
  index_t integer(const std::string& key, index_t fallback, index_t lo, index_t hi) {
    return optional_integer(key, lo, hi).value_or(fallback);
  }

  bool boolean(const std::string& key, bool fallback) {
    const YAML::Node value = take(key);
    if (!value.IsDefined()) return fallback;
    bool b = fallback;
    if (!value.IsScalar() || !YAML::convert<bool>::decode(value, b)) {
      ctx_.error(path_of(key), value.Mark(),
                 path_of(key) + ": expected true or false, got " + node_text(value));
      return fallback;
    }
    return b;
  }

  std::string text(const std::string& key, const std::string& fallback) {
    const YAML::Node value = take(key);
    if (!value.IsDefined()) return fallback;
    if (!value.IsScalar()) {
      ctx_.error(path_of(key), value.Mark(),
                 path_of(key) + ": expected a text value, got " + node_text(value));
      return fallback;
    }
    return value.Scalar();
  }

  // One of a fixed set of names, e.g. scheme.type.
  template <class E>
  E choice(const std::string& key, E fallback, const NameTable<E>& options) {
    const YAML::Node value = take(key);
    if (!value.IsDefined()) return fallback;
    std::vector<std::string> names;
    for (const auto& option : options) names.push_back(option.first);
    if (value.IsScalar()) {
      for (const auto& option : options)
        if (option.first == value.Scalar()) return option.second;
    }
    const std::string word = value.IsScalar() ? value.Scalar() : "";
    ctx_.error(path_of(key), value.Mark(),
               path_of(key) + ": " + node_text(value) + " is not allowed; expected one of: " +
                   join(names) + did_you_mean(word, names));
    return fallback;
  }

  // A nested mapping; absent means "all defaults".
  Section section(const std::string& key) { return Section(ctx_, take(key), path_of(key)); }

  // A value read by the caller itself (lists); declares the key and records its location.
  YAML::Node raw(const std::string& key) { return take(key); }

  Context& context() { return ctx_; }
  const YAML::Node& node() const { return node_; }
  const std::string& path() const { return path_; }

  // Reports a key that is valid in general but not in this combination (e.g. 'width2' for a
  // constant profile); it is then not reported again as unknown.
  void forbid(const std::string& key, const std::string& why) {
    const YAML::Node value = find(key);
    allowed_.push_back(key);
    if (value.IsDefined())
      ctx_.error(path_of(key), value.Mark(), path_of(key) + ": " + why);
  }

 private:
  YAML::Node find(const std::string& key) const {
    if (!node_.IsMap()) return YAML::Node(YAML::NodeType::Undefined);
    for (const auto& entry : node_)
      if (entry.first.IsScalar() && entry.first.Scalar() == key) return entry.second;
    return YAML::Node(YAML::NodeType::Undefined);
  }

  YAML::Node take(const std::string& key) {
    allowed_.push_back(key);
    YAML::Node value = find(key);
    if (value.IsDefined()) {
      ctx_.record(path_of(key), value.Mark());
      if (value.IsNull()) {
        ctx_.error(path_of(key), value.Mark(),
                   path_of(key) + ": has no value (remove the key to use the default)");
        return YAML::Node(YAML::NodeType::Undefined);
      }
    }
    return value;
  }

  std::optional<real> parse_number(const std::string& path, const YAML::Node& value, Range range) {
    real x = 0.0;
    if (!value.IsScalar() || !YAML::convert<real>::decode(value, x)) {
      ctx_.error(path, value.Mark(),
                 path + ": expected " + range.describe() + ", got " + node_text(value));
      return std::nullopt;
    }
    if (!std::isfinite(x)) {
      ctx_.error(path, value.Mark(),
                 path + ": expected a finite number, got " + node_text(value));
      return std::nullopt;
    }
    if (!range.contains(x)) {
      ctx_.error(path, value.Mark(), path + ": value " + value.Scalar() +
                                         " is out of range; expected " + range.describe());
      return std::nullopt;
    }
    return x;
  }

  void report_unknown_keys() {
    if (!node_.IsMap()) return;
    std::set<std::string> seen;
    for (const auto& entry : node_) {
      const YAML::Node& key = entry.first;
      if (!key.IsScalar()) {
        ctx_.error(path_, key.Mark(), "keys must be plain names, got " + node_text(key));
        continue;
      }
      const std::string path = path_of(key.Scalar());
      if (!seen.insert(key.Scalar()).second) {
        ctx_.error(path, key.Mark(), "duplicate key '" + path + "'");
        continue;
      }
      if (std::find(allowed_.begin(), allowed_.end(), key.Scalar()) != allowed_.end()) continue;
      std::vector<std::string> allowed(allowed_.begin(), allowed_.end());
      std::sort(allowed.begin(), allowed.end());
      allowed.erase(std::unique(allowed.begin(), allowed.end()), allowed.end());
      ctx_.error(path, key.Mark(),
                 "unknown key '" + path + "'" + did_you_mean(key.Scalar(), allowed) +
                     " (allowed " + (path_.empty() ? "at the top level" : "in '" + path_ + "'") +
                     ": " + join(allowed) + ")");
    }
  }

  Context& ctx_;
  YAML::Node node_;
  std::string path_;
  std::vector<std::string> allowed_;
};

// ---------------------------------------------------------------------------------------------
// --set overrides

struct PathStep {
  std::string key;             // map key, or empty for a list index
  std::size_t index = 0;
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
  auto push_index = [&](const std::string& digits) {
    steps.push_back({"", static_cast<std::size_t>(std::stoull(digits))});
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
      steps.push_back({name, 0});
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
  const std::string here = step.key.empty() ? above + "[" + std::to_string(step.index) + "]"
                                            : (above.empty() ? "" : above + ".") + step.key;
  if (step.key.empty()) {
    if (!node.IsSequence() || step.index >= node.size())
      throw ConfigError("--set " + assignment + ": '" + here + "' does not exist (" +
                        (node.IsSequence() ? "'" + above + "' has " + std::to_string(node.size()) +
                                                 " entries"
                                           : "'" + above + "' is not a list") +
                        ")");
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
    node[step.key] = value;
    return;
  }
  if (!node[step.key].IsDefined() || node[step.key].IsNull())
    node[step.key] = YAML::Node(YAML::NodeType::Map);
  set_at(node[step.key], steps, s + 1, value, assignment, here);
}

void apply_override(YAML::Node& root, const std::string& assignment, Context& ctx) {
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
    value = YAML::Load(value_text);
  } catch (const YAML::Exception&) {
    value = YAML::Node(value_text);  // not valid YAML on its own: take it as plain text
  }

  set_at(root, steps, 0, value, assignment, "");
  ctx.add_override(canonical, assignment);
}

// ---------------------------------------------------------------------------------------------
// The schema

// Relative test "x is a whole multiple of step"; sets `count` to the nearest multiple.
bool is_multiple(real x, real step, index_t& count) {
  const real ratio = x / step;
  if (ratio > static_cast<real>(kMaxSteps)) return false;
  count = static_cast<index_t>(std::llround(ratio));
  return count >= 1 && std::abs(static_cast<real>(count) * step - x) <= kMultipleTolerance * x;
}

Profile read_profile(Section& parent, const std::string& key, const Profile& fallback,
                     real length) {
  Section s = parent.section(key);
  Profile p = fallback;
  const bool given = s.node().IsMap();
  p.type = s.choice("type", given ? ProfileType::constant : fallback.type, profile_type_names());
  if (given && !s.has("type"))
    s.context().error(s.path(), s.node().Mark(),
                      "missing required key '" + s.path_of("type") +
                          "' (one of: gaussian, constant, step, tanh_front)");
  // Keys of each profile type; keys of the other types are reported as not applicable.
  const std::vector<std::pair<ProfileType, std::vector<std::string>>> keys{
      {ProfileType::gaussian, {"center", "width2", "amplitude", "background"}},
      {ProfileType::constant, {"value"}},
      {ProfileType::step, {"position", "left", "right"}},
      {ProfileType::tanh_front, {"position", "width", "left", "right"}}};
  std::vector<std::string> own;
  for (const auto& [type, names] : keys)
    if (type == p.type) own = names;
  const std::string& type_name = name_of(profile_type_names(), p.type);
  for (const auto& [type, names] : keys)
    for (const auto& name : names)
      if (std::find(own.begin(), own.end(), name) == own.end())
        s.forbid(name, "not a parameter of a '" + type_name + "' profile (its keys: type, " +
                           join(own) + ")");

  switch (p.type) {
    case ProfileType::gaussian:
      p.center = s.number("center", given ? 0.5 * length : fallback.center, any_number());
      p.width2 = s.number("width2", given ? 10.0 : fallback.width2, positive());
      p.amplitude = s.number("amplitude", given ? 1.0 : fallback.amplitude, any_number());
      p.background = s.number("background", given ? 0.0 : fallback.background, any_number());
      break;
    case ProfileType::constant:
      p.value = s.number("value", given ? 0.0 : fallback.value, any_number());
      break;
    case ProfileType::step:
      p.position = s.number("position", 0.5 * length, any_number());
      p.left = s.number("left", 1.0, any_number());
      p.right = s.number("right", 0.0, any_number());
      break;
    case ProfileType::tanh_front:
      p.position = s.number("position", 0.5 * length, any_number());
      p.width = s.number("width", 1.0, positive());
      p.left = s.number("left", 1.0, any_number());
      p.right = s.number("right", 0.0, any_number());
      break;
  }
  return p;
}

BoundarySide read_side(Section& parent, const std::string& key) {
  Section s = parent.section(key);
  BoundarySide side;
  side.type = s.choice("type", BoundaryType::no_flux, boundary_type_names());
  if (side.type == BoundaryType::dirichlet)
    side.value = s.required_number("value", any_number());
  else
    s.forbid("value", "applies only to type: dirichlet (this end is no_flux)");
  return side;
}

std::vector<Stimulus> read_stimuli(Section& top) {
  std::vector<Stimulus> stimuli;
  const YAML::Node list = top.raw("stimulus");
  if (!list.IsDefined()) return stimuli;
  Context& ctx = top.context();
  if (!list.IsSequence()) {
    ctx.error("stimulus", list.Mark(),
              "stimulus: expected a list of {x_min, x_max, start, duration, amplitude[, period, "
              "count]}, got " + node_text(list));
    return stimuli;
  }
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string path = "stimulus[" + std::to_string(i) + "]";
    Section s(ctx, list[i], path);
    Stimulus st;
    st.x_min = s.required_number("x_min", any_number());
    st.x_max = s.required_number("x_max", any_number());
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

std::string default_name(const std::string& source) {
  const std::string stem = std::filesystem::path(source).stem().string();
  return stem.empty() ? "fhn" : stem;
}

// Cross-field rules: run once every key parsed on its own.
void check_consistency(Config& c, Section& top, const BuildCapabilities& build) {
  Context& ctx = top.context();

  // Grid: exactly one of nodes and dx; dx must divide the length.
  const bool has_nodes = ctx.given("domain.nodes");
  const bool has_dx = ctx.given("domain.dx");
  if (has_nodes && has_dx) {
    ctx.error("domain.dx", "domain.nodes and domain.dx are exclusive (nodes given at " +
                               ctx.where("domain.nodes") + "); keep one of them");
    return;
  }
  if (has_dx) {
    index_t cells = 0;
    if (!is_multiple(c.domain.length, c.domain.dx, cells) || cells + 1 > kMaxNodes) {
      const index_t nearest = std::max<index_t>(1, std::llround(c.domain.length / c.domain.dx));
      ctx.error("domain.dx", "domain.dx: " + format_exact(c.domain.dx) +
                                 " does not divide domain.length = " +
                                 format_exact(c.domain.length) + " into whole cells; nearest: dx = " +
                                 format_exact(c.domain.length / static_cast<real>(nearest)) + " (" +
                                 std::to_string(nearest + 1) + " nodes)");
      return;
    }
    c.domain.nodes = cells + 1;
  }
  c.domain.dx = c.domain.length / static_cast<real>(c.domain.nodes - 1);

  // Time: a whole number of steps, frames on step boundaries.
  if (c.time.dt > c.time.end) {
    ctx.error("time.dt", "time.dt = " + format_exact(c.time.dt) + " is longer than time.end = " +
                             format_exact(c.time.end));
    return;
  }
  if (!is_multiple(c.time.end, c.time.dt, c.time.steps)) {
    ctx.error("time.end", "time.end = " + format_exact(c.time.end) +
                              " is not a whole number of steps of time.dt = " +
                              format_exact(c.time.dt));
    return;
  }
  if (!is_multiple(c.output.every, c.time.dt, c.output.every_steps)) {
    ctx.error("output.every", "output.every = " + format_exact(c.output.every) +
                                  " must be a whole multiple of time.dt = " +
                                  format_exact(c.time.dt));
  }

  // Forward Euler on D v_xx is stable for dt <= dx^2 / (2 D).
  const real dx = c.domain.dx;
  if (c.scheme.type == SchemeType::explicit_euler) {
    const real limit = dx * dx / (2.0 * c.model.diffusion);
    if (c.time.dt > limit * (1.0 + 1e-12)) {
      ctx.error("time.dt", "time.dt = " + format_exact(c.time.dt) +
                               " exceeds the explicit stability limit dx^2/(2 D) = " +
                               format_exact(limit) + " (dx = " + format_exact(dx) +
                               ", D = " + format_exact(c.model.diffusion) +
                               "); the largest stable dt is " + format_exact(limit));
    }
  }

  // The tridiagonal solver works where the scheme keeps its state; its default follows the
  // backend.
  solvers::TridiagonalBackend& solver = c.scheme.crank_nicolson.tridiagonal;
  const bool on_device = c.scheme.backend == Backend::cuda;
  if (!ctx.given("scheme.crank_nicolson.tridiagonal") && on_device)
    solver = solvers::TridiagonalBackend::cyclic_reduction;
  if (c.scheme.type == SchemeType::crank_nicolson && solvers::runs_on_device(solver) != on_device) {
    const std::string name(solvers::backend_name(solver));
    ctx.error("scheme.crank_nicolson.tridiagonal",
              on_device ? "scheme.crank_nicolson.tridiagonal: 'thomas' runs on the CPU; with "
                          "scheme.backend: cuda use cyclic_reduction, cusparse or cusparse_pivot"
                        : "scheme.crank_nicolson.tridiagonal: '" + name +
                              "' solves on the GPU and needs scheme.backend: cuda; with "
                              "scheme.backend: cpu use 'thomas'");
  }
  if (c.output.newton_log && c.scheme.type != SchemeType::crank_nicolson)
    ctx.error("output.newton_log", "output.newton_log: Newton iterations exist only with "
                                   "scheme.type: crank_nicolson");

  for (std::size_t i = 0; i < c.output.probes.size(); ++i) {
    const real p = c.output.probes[i];
    if (p < 0.0 || p > c.domain.length)
      ctx.error("output.probes", "output.probes[" + std::to_string(i) + "] = " + format_exact(p) +
                                     " is outside the domain [0, " +
                                     format_exact(c.domain.length) + "]");
  }
  for (std::size_t i = 0; i < c.stimulus.size(); ++i) {
    const Stimulus& s = c.stimulus[i];
    const std::string path = "stimulus[" + std::to_string(i) + "]";
    if (s.x_max < 0.0 || s.x_min > c.domain.length)
      ctx.error(path + ".x_min", path + ": the region [" + format_exact(s.x_min) + ", " +
                                     format_exact(s.x_max) + "] lies outside the domain [0, " +
                                     format_exact(c.domain.length) + "]");
  }

  if (!build.vtk) {
    for (const char* key : {"output.vtk", "output.spacetime"}) {
      const bool on = std::string(key) == "output.vtk" ? c.output.vtk : c.output.spacetime;
      if (on)
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
  const bool safe_name =
      !c.name.empty() && c.name != "." && c.name != ".." &&
      std::all_of(c.name.begin(), c.name.end(),
                  [](unsigned char ch) { return std::isalnum(ch) || ch == '_' || ch == '-' || ch == '.'; });
  if (!safe_name)
    ctx.error("name", "name: '" + c.name +
                          "' must be a file name made of letters, digits, '_', '-' and '.'");

  {
    Section m = top.section("model");
    c.model.a = m.number("a", c.model.a, closed(0.0, 1.0));
    c.model.epsilon = m.number("epsilon", c.model.epsilon, non_negative());
    c.model.gamma = m.number("gamma", c.model.gamma, non_negative());
    c.model.diffusion = m.number("diffusion", c.model.diffusion, positive());
  }
  {
    Section d = top.section("domain");
    c.domain.length = d.number("length", c.domain.length, positive());
    c.domain.nodes = d.integer("nodes", c.domain.nodes, 3, kMaxNodes);
    c.domain.dx = d.number("dx", c.domain.dx, positive());
  }
  {
    Section b = top.section("boundary");
    c.boundary.left = read_side(b, "left");
    c.boundary.right = read_side(b, "right");
    c.boundary.no_flux_order = static_cast<int>(b.integer("no_flux_order", 2, 1, 2));
  }
  {
    Section init = top.section("initial");
    Profile v0;
    v0.type = ProfileType::gaussian;
    v0.center = 0.5 * c.domain.length;
    v0.width2 = 10.0;
    c.initial.v = read_profile(init, "v", v0, c.domain.length);
    c.initial.w = read_profile(init, "w", Profile{}, c.domain.length);
  }
  c.stimulus = read_stimuli(top);
  {
    Section t = top.section("time");
    c.time.end = t.number("end", c.time.end, positive());
    c.time.dt = t.number("dt", c.time.dt, positive());
  }
  {
    Section s = top.section("scheme");
    c.scheme.type = s.choice("type", c.scheme.type, scheme_type_names());
    c.scheme.backend = s.choice("backend", c.scheme.backend, backend_names());
    Section cn = s.section("crank_nicolson");
    CrankNicolsonSpec& spec = c.scheme.crank_nicolson;
    spec.w_update = cn.choice("w_update", spec.w_update, w_update_names());
    spec.tridiagonal = cn.choice("tridiagonal", spec.tridiagonal, tridiagonal_names());
    Section newton = cn.section("newton");
    spec.newton.tolerance = newton.number("tolerance", spec.newton.tolerance, {0.0, 1.0, true, false});
    spec.newton.max_iterations = newton.integer("max_iterations", spec.newton.max_iterations, 1, 1000);
  }
  {
    Section o = top.section("output");
    c.output.every = o.number("every", c.output.every, positive());
    c.output.precision = o.choice("precision", c.output.precision, precision_names());
    c.output.vtk = o.boolean("vtk", c.output.vtk);
    c.output.spacetime = o.boolean("spacetime", c.output.spacetime);
    c.output.newton_log = o.boolean("newton_log", c.output.newton_log);
    const YAML::Node probes = o.raw("probes");
    c.output.probes = {0.0, 0.5 * c.domain.length, c.domain.length};
    if (probes.IsDefined()) {
      c.output.probes.clear();
      if (!probes.IsSequence()) {
        ctx.error("output.probes", probes.Mark(),
                  "output.probes: expected a list of positions, e.g. [0.0, 100.0], got " +
                      node_text(probes));
      }
      for (std::size_t i = 0; probes.IsSequence() && i < probes.size(); ++i) {
        real x = 0.0;
        if (!probes[i].IsScalar() || !YAML::convert<real>::decode(probes[i], x) || !std::isfinite(x))
          ctx.error("output.probes", probes[i].Mark(),
                    "output.probes[" + std::to_string(i) + "]: expected a position (a number), got " +
                        node_text(probes[i]));
        else
          c.output.probes.push_back(x);
      }
    }
  }
  if (ctx.ok()) check_consistency(c, top, build);
  return c;
}

Config load(const std::string& text, const std::string& source,
            const std::vector<std::string>& overrides, const BuildCapabilities& build) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    throw ConfigError(source + ":" + std::to_string(e.mark.line + 1) + ":" +
                      std::to_string(e.mark.column + 1) + ": YAML syntax error: " + e.msg);
  }
  Context ctx(source);
  if (root.IsNull() || !root.IsDefined()) root = YAML::Node(YAML::NodeType::Map);
  for (const auto& assignment : overrides) apply_override(root, assignment, ctx);
  Config config;
  {
    config = read_config(root, ctx, source, build);
  }  // the top-level Section reports unknown keys as it closes
  ctx.throw_if_errors();
  return config;
}

}  // namespace

Config load_config_text(const std::string& text, const std::string& source,
                        const std::vector<std::string>& overrides, const BuildCapabilities& build) {
  return load(text, source, overrides, build);
}

Config load_config(const std::string& path, const std::vector<std::string>& overrides,
                   const BuildCapabilities& build) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw ConfigError(path + ": is a directory, expected a YAML config file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(path + ": cannot open config file (" + std::strerror(errno) + ")");
  std::ostringstream text;
  text << in.rdbuf();
  return load(text.str(), path, overrides, build);
}

}  // namespace fhn
