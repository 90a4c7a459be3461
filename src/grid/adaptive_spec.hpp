#pragma once
// What the adaptive grid is asked for (scheme.adaptive in the config; configs/README.md documents
// each key): the grid's own description, so that grid/ needs nothing of config/.
#include "core/types.hpp"

namespace fhn {

// The adaptive-grid explicit scheme: nodes are a subset of the uniform base grid (domain.dx).
// The grid follows an error estimate (tolerance); the other keys are limits on the spacing.
struct AdaptiveSpec {
  // v units: largest error of linear interpolation across a gap (select_nodes tightens it to
  // the base grid's own at the sharpest point, down to a tenth of it). 3e-4: the largest of
  // 1e-3, 3e-4, 1e-4 that keeps the adaptive studies' error within 1.2x of the uniform base
  // grid's (docs/history/verification-2026-11.md, "The default: 3e-4").
  real tolerance = 3e-4;
  index_t coarse_stride = 16;      // widest spacing (base nodes); its multiples are always kept
  index_t gradient_stride = 0;     // widest spacing where |v_x| > gradient_threshold (0: no limit)
  index_t rate_stride = 0;         // widest spacing where |v_t| > rate_threshold (0: no limit)
  real gradient_threshold = 0.01;  // |v_x|, v units per space unit
  real rate_threshold = 0.001;     // |v_t|, v units per time unit
  real inflection_radius = 0.0;    // every base node within this distance of a front's v_xx = 0
  index_t regrid_every = 10;       // steps between regrids
};

}  // namespace fhn
