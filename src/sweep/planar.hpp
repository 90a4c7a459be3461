#pragma once
// Internal to src/sweep/: measure.planar, whether a planar pulse propagates in the medium of a
// sheet sweep's member. Winfree's portrait has two boundaries (Winfree 1991, Chaos 1, 303-334):
// beyond dP no planar pulse propagates; between dR and dP pulses propagate but a broken wave's
// free end retracts, so no spiral forms. The sheet alone sees neither a spiral nor a lasting
// wave on both sides of dP; the member's planar pulse tells them apart.
//
// The member's cable: the sheet's x axis (length L_x, the same dx, dt, scheme, kinetics,
// diffusion and x sides), at rest but for v kicked over x < W = max(5 dx, L_x / 20) to the level
// the form's excursion starts from, levels().v + (levels().v - rest.v) / 2 (model/excursion.hpp),
// w at rest: the kicked region fires and, where the medium carries pulses, sends one to the
// right. It runs to the sheet's time.end with v sampled every output.every at
// x_a = W + (L_x - W) / 4 and x_b = W + 3 (L_x - W) / 4 (sweep/measurements.hpp): the pulse
// propagates when it reaches x_b; its speed is (x_b - x_a) over the activations' interval, the
// activations interpolated between samples.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "config/config.hpp"

namespace fhn::sweep_detail {

// The planar pulse of one member: nullopt where its cable failed (not finite, Newton).
struct PlanarPulse {
  bool propagated = false;
  real speed = 0.0;  // NaN where it did not reach x_b
};

// The cable of sheet member `sheet` (above).
Config planar_cable(const Config& sheet);

// Runs the cables of `sheets` (planar_cable) as one member batch of the sheets' backend,
// `threads` CPU threads (0: all). `interrupted` is asked between steps: true stops the run and
// gives an empty vector. Otherwise one entry per member.
std::vector<std::optional<PlanarPulse>> run_planar_pulses(const std::vector<Config>& sheets,
                                                          int threads,
                                                          const std::function<bool()>& interrupted);

// A sheet member's class given its planar pulse: where the tip path's class is `retract` or
// `no_wave` (no spiral, no lasting wave), `retract` when the pulse propagated (dR < parameter <
// dP: waves travel, broken ones retract) and `no_propagation` when it did not (beyond dP);
// otherwise the tip path's class.
std::string planar_class(const std::string& kind, const std::optional<PlanarPulse>& planar);

}  // namespace fhn::sweep_detail
