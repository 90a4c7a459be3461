#pragma once
// Editing the YAML document with --set assignments (overrides.cpp), before loader.cpp reads it:
// key paths such as "stimulus[0].amplitude", the value stored there, and the exclusive partner
// (domain.nodes / domain.dx) of an overridden key removed from the file's choice. Only
// src/config/*.cpp includes this (and so yaml-cpp).
#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "config/loader.hpp"
#include "config/yaml_reader.hpp"

namespace fhn::config_detail {

// Applies one override ("a.b[2].c=value", from --set or a study's or sweep's key) to the
// document `root`: records it in `ctx` (messages about the key name where it was given) and
// adds to `notes` when it replaces the file's value of an exclusive partner. A malformed
// assignment is a ConfigError.
void apply_override(YAML::Node& root, const Override& given, Context& ctx,
                    std::vector<std::string>& notes);

}  // namespace fhn::config_detail
