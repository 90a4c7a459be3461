#pragma once
// The capability table's key (config/capabilities.hpp), built here so that the table itself knows
// no Config: from a scheme's own settings, the domain's dimension and the medium (what the
// factories below the door hold: make_scheme, make_member_batch), or, at the door, from a run
// config (the loader's checks, check_problem, make_slab_scheme and the sweep's plan).
#include "config/capabilities.hpp"
#include "config/config.hpp"

namespace fhn {

// The medium the config's keys give: tissue: a mask, fields: per-node values, anisotropy: the
// tensor.
capability::Medium config_medium(const Config& c);

// The combination `scheme` asks for (its type and formulation, its backend) on a domain of
// `dims` axes (1, 2 or 3), made as `mode` says, on `medium`.
capability::Key capability_key(const SchemeSpec& scheme, int dims, capability::Mode mode,
                               const capability::Medium& medium = {});

// The same for a run config: its scheme on domain.length's axes.
capability::Key capability_key(const Config& c, capability::Mode mode,
                               const capability::Medium& medium = {});

}  // namespace fhn
