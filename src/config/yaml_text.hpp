#pragma once
// Reading YAML text that may be hostile (yaml_text.cpp), below the strict readers of
// yaml_reader.hpp, which build on it. Only src/config/*.cpp includes this (and so yaml-cpp).
#include <yaml-cpp/yaml.h>

#include <string>

namespace fhn::config_detail {

// "file:line:column" of a position in a YAML text.
inline std::string location(const std::string& source, const YAML::Mark& mark) {
  return source + ":" + std::to_string(mark.line + 1) + ":" + std::to_string(mark.column + 1);
}

// parse_yaml and check_yaml_text refuse, with a ConfigError naming the place, what no config
// is: more than 1 MiB, not UTF-8 text, more than one document, lists and mappings nested more
// than 64 deep, or more than 100000 values once aliases are expanded (a "billion laughs" alias
// bomb); none of it reaches yaml-cpp's document builder or the readers of yaml_reader.hpp.

// Parses YAML text into a document; an empty document becomes an empty mapping. A syntax
// error becomes a ConfigError at source:line:column.
YAML::Node parse_yaml(const std::string& text, const std::string& source);

// The same for a text check_yaml_text has passed already (one text parsed many times).
YAML::Node parse_checked_yaml(const std::string& text, const std::string& source);

// Applies the limits above to `text`; a syntax error escapes as YAML::ParserException (--set
// values that are not YAML are taken as plain text).
void check_yaml_text(const std::string& text, const std::string& source);

// The whole file as text; `what` names it in the errors ("config file", "study file"). Refuses
// a directory, a file larger than 1 MiB (without reading it all) and an empty file.
std::string read_text_file(const std::string& path, const std::string& what);

}  // namespace fhn::config_detail
