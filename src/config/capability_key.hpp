#pragma once
// The capability table's key of a run config (config/capabilities.hpp), built at the door: the
// loader's checks, the scheme factories and the sweep's plan turn their Config into it here, so
// that the table itself knows no Config.
#include "config/capabilities.hpp"
#include "config/config.hpp"

namespace fhn {

// The medium the config's keys give: tissue: a mask, fields: per-node values, anisotropy: the
// tensor.
capability::Medium config_medium(const Config& c);

// The combination `c` asks for (scheme.type and formulation, domain.length's axes,
// scheme.backend), made as `mode` says, on `medium`.
capability::Key capability_key(const Config& c, capability::Mode mode,
                               const capability::Medium& medium = {});

}  // namespace fhn
