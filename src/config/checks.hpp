#pragma once
// The cross-field checks of a run config (checks.cpp), run by loader.cpp once every key has been
// read on its own: the grid (domain.nodes or domain.dx), the explicit stability limit, whole
// numbers of steps, combinations of scheme, backend and outputs, probes and stimuli inside the
// domain and acting at a time the scheme samples, what the build can do. Only src/config/*.cpp
// includes this (and so yaml-cpp).
#include "config/config.hpp"
#include "config/loader.hpp"
#include "config/yaml_reader.hpp"

namespace fhn::config_detail {

// The fewest nodes per axis and the most nodes a domain may have: the range of domain.nodes
// (loader.cpp) and of the grid that domain.dx makes (resolve_grid).
constexpr index_t kMinNodes = 3;  // two cells: the second difference needs a node between the ends
constexpr index_t kMaxNodes = index_t{1} << 31;   // 16 GiB per state array: beyond any GPU

// Cross-field rules: run once every key parsed on its own. Resolves the grid (Domain::nodes and
// dx), counts the steps (TimeSpec::steps, OutputSpec::*_steps), defaults the tridiagonal solver
// to the backend, and adds to Config::warnings; every problem is reported to `top`'s context.
void check_consistency(Config& c, Section& top, const BuildCapabilities& build);

}  // namespace fhn::config_detail
