// --set overrides: parsing a key path ("key[3].sub=value"), storing the value in the YAML
// document, and replacing the file's exclusive partner of an overridden key. The document is
// read into a Config by loader.cpp afterwards, which reports unknown keys and bad values.
#include "config/overrides.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>

#include "core/error.hpp"

namespace fhn::config_detail {
namespace {

struct PathStep {
  std::string key;             // map key, or empty for a list index
  std::size_t index = 0;       // SIZE_MAX when the digits exceed it (no list is that long)
  std::string digits;          // the index as given, for messages
};

// "stimulus[0].amplitude" or "stimulus.0.amplitude" -> steps; `canonical` receives the first
// spelling, which is also how validation messages name keys.
std::vector<PathStep> parse_key_path(const std::string& key_text, const std::string& origin,
                                     std::string& canonical) {
  auto fail = [&](const std::string& why) -> void {
    throw ConfigError(origin + ": " + why + " in key path '" + key_text + "'");
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
// that the schema does not know is reported by the validation that follows, with the override's
// `origin` as its location. Nodes are passed by value: yaml-cpp nodes are references, and
// re-assigning one variable would overwrite the document instead of moving down it.
void set_at(YAML::Node node, const std::vector<PathStep>& steps, std::size_t s,
            const YAML::Node& value, const std::string& origin, const std::string& above) {
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
      throw ConfigError(origin + ": " + quoted(here) +
                        " does not exist (" +
                        (node.IsSequence() ? range : "'" + above + "' is not a list") + ")");
    }
    if (last) {
      node[step.index] = value;
    } else {
      set_at(node[step.index], steps, s + 1, value, origin, here);
    }
    return;
  }
  if (!node.IsMap())
    throw ConfigError(origin + ": cannot set '" + here + "': '" + above + "' is " +
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
  set_at(node[step.key], steps, s + 1, value, origin, here);
}

// Keys of which a config gives at most one. An override of one of them replaces the file's
// choice of the other (--set domain.nodes=41 on a file that gives dx); two in the same file, or
// two on the command line, stay an error (reported by the validation).
const std::vector<std::pair<std::string, std::string>>& exclusive_keys() {
  static const std::vector<std::pair<std::string, std::string>> pairs{{"domain.nodes", "domain.dx"}};
  return pairs;
}

// After an override of `canonical` (given at `origin`): removes the exclusive partner of
// `canonical` from the document when the file (not an earlier override) gave it, and says so in
// `notes`.
void replace_exclusive_partner(YAML::Node& root, const std::string& canonical,
                               const std::string& origin, const Context& ctx,
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
    notes.push_back(origin + " replaces " + partner + " = " +
                    (section[key].IsScalar() ? section[key].Scalar() : std::string("...")) +
                    " of the config file (the two are exclusive)");
    section.remove(key);
  }
}

}  // namespace

void apply_override(YAML::Node& root, const Override& given, Context& ctx,
                    std::vector<std::string>& notes) {
  const std::string& assignment = given.assignment;
  const std::string origin =
      given.where.empty() ? "--set " + abbreviated(assignment) : given.where;
  const std::size_t eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ConfigError(origin + ": expected KEY=VALUE, e.g. --set time.dt=0.05");
  const std::string key_text = assignment.substr(0, eq);
  const std::string value_text = assignment.substr(eq + 1);
  if (value_text.empty())
    throw ConfigError(origin + ": no value after '=' for '" + key_text + "'");
  std::string canonical;
  const std::vector<PathStep> steps = parse_key_path(key_text, origin, canonical);

  YAML::Node value;
  try {
    check_yaml_text(value_text, origin);
    value = YAML::Load(value_text);
  } catch (const YAML::Exception&) {
    value = YAML::Node(value_text);  // not valid YAML on its own: take it as plain text
  }

  set_at(root, steps, 0, value, origin, "");
  replace_exclusive_partner(root, canonical, origin, ctx, notes);
  ctx.add_override(canonical, origin);
}

}  // namespace fhn::config_detail
