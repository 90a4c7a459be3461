#pragma once
// Editing the YAML document with --set assignments (overrides.cpp), before loader.cpp reads it:
// key paths such as "stimulus[0].amplitude", the value stored there, and the exclusive partner
// (domain.nodes / domain.dx) of an overridden key removed from the file's choice. Only
// src/config/*.cpp includes this (and so yaml-cpp).
#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "config/yaml_reader.hpp"

namespace fhn::config_detail {

// Applies one --set assignment ("a.b[2].c=value") to the document `root`: records it in `ctx`
// (messages about the key name the option as its location) and adds to `notes` when it replaces
// the file's value of an exclusive partner. A malformed assignment is a ConfigError.
void apply_override(YAML::Node& root, const std::string& assignment, Context& ctx,
                    std::vector<std::string>& notes);

}  // namespace fhn::config_detail
