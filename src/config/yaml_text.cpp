// Reading YAML text that may be hostile: config and study files, --set values, fuzzer input.
// Everything that no config is gets refused before yaml-cpp builds a document, with a
// ConfigError that names the place: huge files, binary data, several documents, deep nesting
// (yaml-cpp's parser recurses once per level) and alias bombs (yaml-cpp shares aliased nodes,
// but every reader that walks the document visits them once per alias).
#include "config/yaml_text.hpp"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <unordered_map>
#include <vector>

#include "core/error.hpp"
#include "core/regular_file.hpp"

namespace fhn::config_detail {
namespace {

// A config is a few kilobytes and nests four levels; the limits leave ample room for long
// stimulus lists and probes while keeping the work, and the messages, small.
constexpr std::size_t kMaxBytes = std::size_t{1} << 20;
constexpr std::size_t kMaxDepth = 64;
constexpr std::size_t kMaxValues = 100000;

[[noreturn]] void refuse_size(const std::string& source) {
  throw ConfigError(source + ": larger than 1 MiB (" + std::to_string(kMaxBytes) +
                    " bytes), the limit for YAML input; a config is a few kilobytes (is this the "
                    "right file?)");
}

// Length of the UTF-8 sequence starting at text[i], or 0 when it is malformed: a stray
// continuation byte, a truncated sequence, an overlong form, a surrogate or a code point above
// U+10FFFF (the well-formed byte sequences of the Unicode standard, table 3-7).
std::size_t utf8_length(const std::string& text, std::size_t i) {
  const auto lead = static_cast<unsigned char>(text[i]);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) lo = 0xA0;  // no overlong forms
    if (lead == 0xED) hi = 0x9F;  // no surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) lo = 0x90;  // no overlong forms
    if (lead == 0xF4) hi = 0x8F;  // nothing above U+10FFFF
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    const auto byte = static_cast<unsigned char>(text[i + k]);
    if (byte < (k == 1 ? lo : 0x80) || byte > (k == 1 ? hi : 0xBF)) return 0;
  }
  return length;
}

// Refuses anything but UTF-8 text: malformed UTF-8 (binary data, Latin-1, UTF-16) and control
// characters other than tab, line feed and carriage return (NUL, escape codes, DEL), which YAML
// does not allow either.
void check_utf8_text(const std::string& text, const std::string& source) {
  std::size_t line = 1, column = 1;
  auto refuse = [&](const std::string& what, unsigned char byte) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02x", byte);
    throw ConfigError(source + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " +
                      what + " " + hex + "; YAML input must be UTF-8 text (is this a binary file?)");
  };
  for (std::size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    const std::size_t length = utf8_length(text, i);
    if (length == 0) refuse("byte", byte);
    if ((byte < 0x20 && byte != '\t' && byte != '\n' && byte != '\r') || byte == 0x7F)
      refuse("control character", byte);
    if (byte == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
    i += length;
  }
}

// Follows yaml-cpp's parse events and stops the parse, before any node is built, once the
// document is nested too deeply or holds too many values. Both are measured with every alias
// replaced by the node it names, as a reader walking the document sees it: an alias adds the
// size of its anchored node, and its height below the alias.
class LimitChecker : public YAML::EventHandler {
 public:
  explicit LimitChecker(const std::string& source) : source_(source) {}

  void OnDocumentStart(const YAML::Mark& mark) override {
    if (++documents_ > 1)
      throw ConfigError(location(source_, mark) +
                        ": a second YAML document starts here; a config is a single document");
  }
  void OnDocumentEnd() override {}

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override { leaf(mark, anchor); }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                const std::string&) override {
    leaf(mark, anchor);
  }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    const auto it = anchored_.find(anchor);
    if (it == anchored_.end())  // the anchor is still open: the alias lies inside its own node
      throw ConfigError(location(source_, mark) +
                        ": an alias inside the node it refers to (a cycle); YAML aliases in a "
                        "config must refer to a complete node");
    add(mark, it->second);
  }

  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    open(mark, anchor);
  }
  void OnSequenceEnd() override { close(); }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    open(mark, anchor);
  }
  void OnMapEnd() override { close(); }

 private:
  // A node with everything below it: how many values, and how many levels of lists and
  // mappings (a scalar has none).
  struct Extent {
    std::size_t values = 0;
    std::size_t height = 0;
  };
  // A list or mapping being read.
  struct Open {
    YAML::anchor_t anchor;
    std::size_t values_before;      // values_ before the collection itself was counted
    std::size_t child_height = 0;   // the highest child so far
  };

  void leaf(const YAML::Mark& mark, YAML::anchor_t anchor) {
    const Extent scalar{1, 0};
    if (anchor != YAML::NullAnchor) anchored_[anchor] = scalar;
    add(mark, scalar);
  }

  void open(const YAML::Mark& mark, YAML::anchor_t anchor) {
    add(mark, {1, 1});
    open_.push_back({anchor, values_ - 1});
  }

  void close() {
    const Open done = open_.back();
    open_.pop_back();
    const Extent extent{values_ - done.values_before, done.child_height + 1};
    if (done.anchor != YAML::NullAnchor) anchored_[done.anchor] = extent;
    if (!open_.empty()) open_.back().child_height = std::max(open_.back().child_height, extent.height);
  }

  // A node of `extent` at the current level: counts its values and checks the limits.
  void add(const YAML::Mark& mark, const Extent& extent) {
    values_ += extent.values;
    if (values_ > kMaxValues)
      throw ConfigError(location(source_, mark) + ": the document holds more than " +
                        std::to_string(kMaxValues) +
                        " values (an alias counts as all the values it repeats); a config has a "
                        "few dozen");
    if (open_.size() + extent.height > kMaxDepth)
      throw ConfigError(location(source_, mark) + ": lists and mappings nested more than " +
                        std::to_string(kMaxDepth) +
                        " levels deep (counting what aliases repeat); a config needs 4");
    if (!open_.empty()) open_.back().child_height = std::max(open_.back().child_height, extent.height);
  }

  const std::string& source_;
  int documents_ = 0;
  std::size_t values_ = 0;
  std::vector<Open> open_;
  std::unordered_map<YAML::anchor_t, Extent> anchored_;
};

}  // namespace

void check_yaml_text(const std::string& text, const std::string& source) {
  if (text.size() > kMaxBytes) refuse_size(source);
  check_utf8_text(text, source);
  std::istringstream in(text);
  YAML::Parser parser(in);
  LimitChecker checker(source);
  while (parser.HandleNextDocument(checker)) {
  }
}

YAML::Node parse_yaml(const std::string& text, const std::string& source) {
  try {
    check_yaml_text(text, source);
  } catch (const YAML::ParserException& e) {
    throw ConfigError(location(source, e.mark) + ": YAML syntax error: " + e.msg);
  }
  return parse_checked_yaml(text, source);
}

YAML::Node parse_checked_yaml(const std::string& text, const std::string& source) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    throw ConfigError(location(source, e.mark) + ": YAML syntax error: " + e.msg);
  }
  if (!root.IsDefined() || root.IsNull()) root = YAML::Node(YAML::NodeType::Map);
  return root;
}

std::string read_text_file(const std::string& path, const std::string& what) {
  // At most one byte past the limit: a huge file is refused without reading it all. Only a
  // regular file is read: a FIFO would block, a device such as /dev/zero never ends.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw ConfigError(path + ": is a directory, expected a YAML " + what);
  const std::vector<unsigned char> bytes = read_regular_file(path, what, kMaxBytes);
  const std::string text(bytes.begin(), bytes.end());
  if (text.size() > kMaxBytes) refuse_size(path);
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw ConfigError(path + ": the " + what + " is empty; expected a YAML mapping of keys to values");
  return text;
}

}  // namespace fhn::config_detail
