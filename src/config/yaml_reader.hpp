#pragma once
// Strict reading of YAML mappings, shared by the run-config and the study-config loaders:
// where each value came from (file:line:column or --set), the errors found so far, and a
// Section that declares the keys it accepts and reports every other key as unknown, with a
// did-you-mean. Only src/config/*.cpp includes this (and so yaml-cpp).
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "config/loader.hpp"
#include "config/names.hpp"
#include "config/yaml_text.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "core/interval.hpp"

namespace fhn::config_detail {

// ---------------------------------------------------------------------------------------------
// Messages (the interval a key accepts: core/interval.hpp; did_you_mean: core/format.hpp)

inline std::string join(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& word : words) out += (out.empty() ? "" : ", ") + word;
  return out;
}

// `text` for a message; beyond 60 bytes shortened to its start and its length, so that a
// hostile megabyte-long key or value does not end up whole in a message.
inline std::string abbreviated(const std::string& text) {
  constexpr std::size_t kShown = 60;
  if (text.size() <= kShown) return text;
  std::size_t cut = kShown;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // UTF-8 boundary
  return text.substr(0, cut) + "... (" + std::to_string(text.size()) + " bytes)";
}
inline std::string quoted(const std::string& text) { return "'" + abbreviated(text) + "'"; }

inline std::string node_text(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Scalar: return quoted(node.Scalar());
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

  // "file:line:column" of a value, or where an override that supplied it was given ("--set
  // key=value", or a study's or sweep's key: Override::where) when one did (the value itself,
  // a value inside it, or a section the override created on its way down).
  std::string where(const std::string& path, const YAML::Mark& mark) const {
    auto below = [](const std::string& inner, const std::string& outer) {
      return inner.rfind(outer + ".", 0) == 0 || inner.rfind(outer + "[", 0) == 0;
    };
    for (const auto& [key, origin] : override_origin_) {
      if (path == key || below(path, key) || (mark.is_null() && below(key, path)))
        return origin;
    }
    if (mark.is_null()) return source_;
    return location(source_, mark);
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
  // where() of every key present.
  std::map<std::string, std::string> locations() const {
    std::map<std::string, std::string> out;
    for (const auto& entry : marks_) out.emplace(entry.first, where(entry.first, entry.second));
    return out;
  }
  bool given(const std::string& path) const { return marks_.count(path) != 0; }
  bool overridden(const std::string& path) const { return override_origin_.count(path) != 0; }
  // `origin`: where the override was given ("--set key=value", or a study's or sweep's key).
  void add_override(const std::string& path, const std::string& origin) {
    override_origin_[path] = origin;
  }

  bool ok() const { return errors_.empty(); }
  // Lists the first 20 problems: a document of thousands of wrong keys gets a readable message.
  void throw_if_errors() const {
    if (errors_.empty()) return;
    constexpr std::size_t kListed = 20;
    std::string message = errors_.size() == 1 ? "invalid configuration:\n"
                                              : std::to_string(errors_.size()) +
                                                    " problems in the configuration:\n";
    for (std::size_t i = 0; i < std::min(errors_.size(), kListed); ++i)
      message += "  " + errors_[i] + "\n";
    if (errors_.size() > kListed)
      message += "  ... and " + std::to_string(errors_.size() - kListed) + " more\n";
    message.pop_back();
    throw ConfigError(message);
  }

 private:
  std::string source_;
  std::map<std::string, YAML::Mark> marks_;  // key path -> mark of its value, for keys present
  std::map<std::string, std::string> override_origin_;
  std::vector<std::string> errors_;
};

// The number `value` holds, or nullopt after reporting at `path` why it holds none: not a number
// (`expected` says what was), beyond the range of a double (1e400, which yaml-cpp refuses like
// text), or .nan/.inf/-.inf. Used by Section and by readers of list entries (points).
inline std::optional<real> parse_finite(Context& ctx, const std::string& path,
                                        const YAML::Node& value, const std::string& expected) {
  real x = 0.0;
  if (value.IsScalar() && YAML::convert<real>::decode(value, x)) {
    if (std::isfinite(x)) return x;
    ctx.error(path, value.Mark(), path + ": expected a finite number, got " + node_text(value));
    return std::nullopt;
  }
  if (value.IsScalar()) {
    const std::string& text = value.Scalar();
    char* end = nullptr;
    errno = 0;
    const real parsed = std::strtod(text.c_str(), &end);
    if (end == text.c_str() + text.size() && !text.empty() && errno == ERANGE &&
        std::isinf(parsed)) {
      ctx.error(path, value.Mark(), path + ": " + node_text(value) +
                                        " is beyond the range of a double (about 1.8e308)");
      return std::nullopt;
    }
  }
  ctx.error(path, value.Mark(), path + ": expected " + expected + ", got " + node_text(value));
  return std::nullopt;
}

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
  // Whether `key` is present, without declaring it allowed.
  bool present(const std::string& key) const { return find(key).IsDefined(); }

  real number(const std::string& key, real fallback, Interval range) {
    return optional_number(key, range).value_or(fallback);
  }

  std::optional<real> optional_number(const std::string& key, Interval range) {
    const YAML::Node value = take(key);
    if (!value.IsDefined()) return std::nullopt;
    const auto x = parse_number(path_of(key), value, range);
    return x;
  }

  real required_number(const std::string& key, Interval range) {
    const auto x = optional_number(key, range);
    if (!x && !find(key).IsDefined())
      ctx_.error(path_, node_.Mark(), "missing required key '" + path_of(key) + "' (" +
                                          range.describe() + ")");
    return x.value_or(0.0);
  }

  std::optional<index_t> optional_integer(const std::string& key, index_t lo, index_t hi) {
    const YAML::Node value = take(key);
    if (!value.IsDefined()) return std::nullopt;
    return parse_integer(path_of(key), value, lo, hi);
  }
  index_t integer(const std::string& key, index_t fallback, index_t lo, index_t hi) {
    return optional_integer(key, lo, hi).value_or(fallback);
  }
  // A whole number, or a list of 1..max_entries of them, in [lo, hi] (domain.nodes: 401 or
  // [401, 201]); absent gives nullopt, a plain number a list of one.
  std::optional<std::vector<index_t>> integer_or_list(const std::string& key, index_t lo,
                                                      index_t hi, std::size_t max_entries) {
    const YAML::Node value = find(key);
    if (!value.IsDefined() || !value.IsSequence()) {
      const std::optional<index_t> n = optional_integer(key, lo, hi);
      if (!n) return std::nullopt;
      return std::vector<index_t>{*n};
    }
    take(key);
    const std::string path = path_of(key);
    if (value.size() == 0 || value.size() > max_entries) {
      ctx_.error(path, value.Mark(), path + ": expected 1 to " + std::to_string(max_entries) +
                                         " whole numbers (one per axis), got " + node_text(value));
      return std::nullopt;
    }
    std::vector<index_t> values;
    for (std::size_t i = 0; i < value.size(); ++i) {
      const auto n = parse_integer(path + "[" + std::to_string(i) + "]", value[i], lo, hi);
      if (!n) return std::nullopt;
      values.push_back(*n);
    }
    return values;
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
    const std::vector<std::string> names = names_of(options);
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

  // A list of numbers in `range`; absent gives nullopt. `example` shows the expected form.
  std::optional<std::vector<real>> numbers(const std::string& key, Interval range, bool allow_empty,
                                           const std::string& example) {
    const YAML::Node list = take(key);
    if (!list.IsDefined()) return std::nullopt;
    const std::string path = path_of(key);
    std::vector<real> values;
    if (!list.IsSequence() || (!allow_empty && list.size() == 0)) {
      ctx_.error(path, list.Mark(),
                 path + ": expected a " + (allow_empty ? "" : "non-empty ") + "list of numbers, e.g. " +
                     example + ", got " + node_text(list));
      return values;
    }
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string entry = path + "[" + std::to_string(i) + "]";
      const std::optional<real> x = finite_number(entry, list[i], range.describe());
      if (x && !range.contains(*x))
        ctx_.error(path, list[i].Mark(), entry + ": expected " + range.describe() + ", got " +
                                             node_text(list[i]));
      else if (x)
        values.push_back(*x);
    }
    return values;
  }

  // A number, or a list of 1..max_entries numbers, in `range` (domain.length: 200 or [200, 100]);
  // absent gives nullopt, a plain number a list of one. `example` shows the list form.
  std::optional<std::vector<real>> number_or_list(const std::string& key, Interval range,
                                                  std::size_t max_entries,
                                                  const std::string& example) {
    const YAML::Node value = find(key);
    if (value.IsDefined() && value.IsSequence()) {
      auto values = numbers(key, range, false, example);
      if (values && value.size() > max_entries)
        ctx_.error(path_of(key), value.Mark(),
                   path_of(key) + ": expected at most " + std::to_string(max_entries) +
                       " entries (one per axis), got " + std::to_string(value.size()));
      return values;
    }
    const std::optional<real> x = optional_number(key, range);
    if (!x) return std::nullopt;
    return std::vector<real>{*x};
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

  std::optional<real> finite_number(const std::string& path, const YAML::Node& value,
                                    const std::string& expected) {
    return parse_finite(ctx_, path, value, expected);
  }

  std::optional<index_t> parse_integer(const std::string& path, const YAML::Node& value,
                                       index_t lo, index_t hi) {
    const std::string expected = "a whole number in [" + std::to_string(lo) + ", " +
                                 std::to_string(hi) + "]";
    const std::optional<real> x = finite_number(path, value, expected);
    if (!x) return std::nullopt;
    if (*x != std::floor(*x)) {
      ctx_.error(path, value.Mark(), path + ": expected " + expected + ", got " + node_text(value));
      return std::nullopt;
    }
    if (*x < static_cast<real>(lo) || *x > static_cast<real>(hi)) {
      ctx_.error(path, value.Mark(), path + ": value " + abbreviated(value.Scalar()) +
                                         " is out of range; expected " + expected);
      return std::nullopt;
    }
    return static_cast<index_t>(*x);
  }

  std::optional<real> parse_number(const std::string& path, const YAML::Node& value, Interval range) {
    const std::optional<real> x = finite_number(path, value, range.describe());
    if (x && !range.contains(*x)) {
      ctx_.error(path, value.Mark(), path + ": value " + abbreviated(value.Scalar()) +
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
        ctx_.error(path, key.Mark(), "duplicate key " + quoted(path));
        continue;
      }
      if (std::find(allowed_.begin(), allowed_.end(), key.Scalar()) != allowed_.end()) continue;
      std::vector<std::string> allowed(allowed_.begin(), allowed_.end());
      std::sort(allowed.begin(), allowed.end());
      allowed.erase(std::unique(allowed.begin(), allowed.end()), allowed.end());
      ctx_.error(path, key.Mark(),
                 "unknown key " + quoted(path) + did_you_mean(key.Scalar(), allowed) +
                     " (allowed " + (path_.empty() ? "at the top level" : "in '" + path_ + "'") +
                     ": " + join(allowed) + ")");
    }
  }

  Context& ctx_;
  YAML::Node node_;
  std::string path_;
  std::vector<std::string> allowed_;
};

// The `name` of a run or study: it names the output folder and the files in it, so it must be
// a plain file name of at most 100 characters.
inline void check_output_name(Context& ctx, const std::string& name) {
  constexpr std::size_t kMaxLength = 100;
  const bool plain =
      !name.empty() && name != "." && name != ".." &&
      std::all_of(name.begin(), name.end(), [](unsigned char ch) {
        return std::isalnum(ch) || ch == '_' || ch == '-' || ch == '.';
      });
  if (!plain)
    ctx.error("name", "name: " + quoted(name) +
                          " must be a file name made of letters, digits, '_', '-' and '.'");
  else if (name.size() > kMaxLength)
    ctx.error("name", "name: " + quoted(name) + " is longer than " + std::to_string(kMaxLength) +
                          " characters (it names the output folder and files)");
}

// A study's or sweep's `set: {key: value, ...}` as "key=value" overrides of its base config
// (the value in YAML flow form, as --set takes it), each named by its place ("file:line:col
// (set.time.end)"); problems reported at `path`.
inline std::vector<Override> set_assignments(Context& ctx, const YAML::Node& set,
                                             const std::string& path) {
  std::vector<Override> out;
  if (!set.IsDefined()) return out;
  if (!set.IsMap()) {
    ctx.error(path, set.Mark(), path + ": expected a mapping of config keys to values, e.g. {time.end: 1}");
    return out;
  }
  for (const auto& entry : set) {
    if (!entry.first.IsScalar()) {
      ctx.error(path, entry.first.Mark(),
                path + ": keys must be config keys such as time.dt, got " + node_text(entry.first));
      continue;
    }
    YAML::Emitter value;
    value << YAML::Flow << entry.second;
    const std::string key = path + "." + entry.first.Scalar();
    out.push_back({entry.first.Scalar() + "=" + value.c_str(),
                   ctx.where(key, entry.second.Mark()) + " (" + abbreviated(key) + ")"});
  }
  return out;
}

// A whole document read by `read` (read(root, ctx) -> T), every problem found reported together
// in one ConfigError; the top-level Section inside `read` reports unknown keys as it closes.
template <class Read>
auto read_document(const std::string& text, const std::string& source, Read read) {
  const YAML::Node root = parse_yaml(text, source);
  Context ctx(source);
  auto result = read(root, ctx);
  ctx.throw_if_errors();
  return result;
}

}  // namespace fhn::config_detail
