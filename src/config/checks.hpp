#pragma once
// The cross-field checks of a run config (checks.cpp), run by loader.cpp once every key has been
// read on its own: the grid (domain.nodes or domain.dx), the explicit stability limit, whole
// numbers of steps, combinations of scheme, backend and outputs, probes and stimuli inside the
// domain and acting at a time the scheme samples, what the build can do. Only src/config/*.cpp
// includes this (and so yaml-cpp).
#include <optional>

#include "config/config.hpp"
#include "config/loader.hpp"
#include "config/yaml_reader.hpp"
#include "core/error.hpp"
#include "model/parameter_fields.hpp"

namespace fhn::config_detail {

// The fewest nodes per axis and the most nodes a domain may have: the range of domain.nodes
// (loader.cpp) and of the grid that domain.dx makes (resolve_grid).
constexpr index_t kMinNodes = 3;  // two cells: the second difference needs a node between the ends
constexpr index_t kMaxNodes = index_t{1} << 31;   // 16 GiB per state array: beyond any GPU

// The run's parameter fields (build_parameter_fields, model/problem.hpp), built at most once per
// load, when a check first reads them (the stability limit of fields: and anisotropy:, the
// tissue checks, check_problem), so that a config without them builds no per-node array here
// (a sweep's members) and one with them builds each once. Asked before the grid is resolved
// (resolve_grid) it would build them on the wrong nodes.
class ProblemFields {
 public:
  // The fields of `c`; throws, each time it is asked, the ConfigError their build gave.
  const ParameterFields& of(const Config& c);

 private:
  std::optional<ParameterFields> fields_;
  std::optional<ConfigError> error_;
};

// Cross-field rules: run once every key parsed on its own. Resolves the grid (Domain::nodes and
// dx), counts the steps (TimeSpec::steps, OutputSpec::*_steps), defaults the tridiagonal solver
// to the backend, and adds to Config::warnings; every problem is reported to `top`'s context.
// The physics checks (the explicit stability limit, what reads the tissue) read `fields`.
void check_consistency(Config& c, Section& top, const BuildCapabilities& build,
                       ProblemFields& fields);

}  // namespace fhn::config_detail
