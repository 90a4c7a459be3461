#pragma once
// What a spiral's tip path says about its dynamics: the rotation, the drift, the meander and a
// classification (rigid, meander, drift, retract, breakup, no_wave, none, unclassified,
// anchored), from the principal tip's path over the last part of a run (spiral_tips.hpp follows
// the tip).
//
// Window: the latest path's samples with t >= (t_first + t_last) / 2 (the first half is the
// spiral's formation), at most the last 1024, N of them, dt apart (a path is a run of
// consecutive frames).
//
// 1. Turns. The direction of motion between successive samples, phi_k = arg(z_{k+1} - z_k)
//    (z = x + i y), unwrapped sample to sample (less than half a turn between frames); the tip
//    has made |phi_last - phi_first| / (2 pi) turns. The direction turns once per rotation
//    whether or not the centre drifts (slower than the tip moves), unlike the angle about a
//    fixed point.
// 2. Trend and spectrum. With Hann weights h_k = sin^2(pi k / (N - 1)), the weighted least-squares
//    line z ~ a + b (t - t_mean) gives the drift velocity b; of the rest r_k the spectrum
//      Z(omega) = sum_k h_k r_k exp(-i omega t_k) / sum_k h_k,
//    whose largest peak is the rotation, omega_1 (signed: positive counterclockwise) with
//    amplitude A_1 = |Z(omega_1)| (the radius of a circular path), and whose largest peak
//    farther than 3 bins from omega_1 (a bin 2 pi / (N dt): Hann's main lobe is 2 bins wide on
//    each side, its first side lobe, 2.7% of the peak, at 2.5 bins) is the meander, omega_2
//    with A_2 (an epicycloid z = A_1 e^{i omega_1 t} + A_2 e^{i omega_2 t} gives both); the
//    further side lobes are below 0.9% of a peak. Peaks are found on a grid 8 times finer than
//    the bins over |omega| <= pi / dt and refined by a parabola through log |Z| at the grid's
//    maximum and its neighbours.
//    Period T = 2 pi / |omega_1|; drift per turn D = |b| T.
// 3. Class, in this order (the thresholds are keys of output.tips):
//    - breakup:  more than `breakup` tips in the last frame;
//    - anchored: no tip in the last frame, the medium has an obstacle (a tissue mask or a scar
//      of D = 0), and the wave circulates: the last 4 upward crossings of v_iso at a watched
//      point (the run's probes) come at intervals within 5% of their mean, the last within 1.5
//      of them of the last frame; the period is that mean (circulation_period);
//    - none:     no frame had a tip (planar and target waves);
//    - no tip in the last frame: drift when the latest path turned at least once (its
//      direction of motion, as in 1.) and ran from inside the sheet to within two cells of a
//      side (a spiral that drifted out of the tissue); retract when the last frame is still
//      excited (a wave without a free end) or the excitation ever spread beyond the first
//      frame's (waves propagated, but their free ends shrank back or ran off); no_wave
//      otherwise (the start's excitation only shrank: waves cannot propagate, or there never
//      was a tip);
//    - fewer than 2 turns in the window (or fewer than 4 samples, or no rotation the spectrum
//      sees): drift when the tip moved on (net displacement over the window at least half its
//      path length), unclassified otherwise (too few turns to tell: run longer);
//    - drift:    D > `drift` A_1 (the centre moves more than that fraction of the radius per turn);
//    - meander:  A_2 > `meander` A_1;
//    - rigid:    otherwise.
#include <optional>
#include <string>
#include <vector>

#include "core/types.hpp"

namespace fhn {

// The classes, in the order summaries count them; no_propagation only in a sweep with
// measure.planar (in place of retract or no_wave where the member's planar pulse does not
// propagate, and no_wave is retract where it does: src/sweep/planar.hpp).
inline constexpr const char* kTipPathKinds[] = {
    "rigid", "meander", "drift", "retract", "breakup", "no_wave", "no_propagation", "none",
    "unclassified", "anchored"};

struct TipPathLimits {
  index_t breakup = 4;   // more tips than this in the last frame: breakup
  real drift = 0.1;      // drift per turn over radius above this: drift
  real meander = 0.05;   // second amplitude over the first above this: meander
};

// What the run gives the classification besides the path.
struct TipPathContext {
  index_t tips_at_end = 0;     // tips in the last frame
  bool excited_at_end = false;  // some node of the last frame at or above the tips' v level
  // Some frame had more nodes at or above the level than the first: the waves propagated.
  bool excitation_spread = false;
  bool ever_tips = false;       // some frame had a tip
  real x_max = 0.0, y_max = 0.0;  // the sheet: [0, x_max] x [0, y_max]
  bool obstacles = false;         // the medium has a hole (a tissue mask, a scar of D = 0)
  std::optional<real> circulation;  // circulation_period of the watched points' crossings
  real dx = 0.0;                  // its spacing (a cell)
};

// The period of a wave circulating past watched points, from each point's upward crossings of
// v_iso (times increasing; `last_t` the last frame's time): for every point with 4 crossings or
// more, the mean m of the last 3 intervals when each is within 5% of m and the last crossing
// within 1.5 m of last_t; of those, the point with the most crossings. nullopt without one.
std::optional<real> circulation_period(const std::vector<std::vector<real>>& crossings,
                                       real last_t);

struct TipPathAnalysis {
  std::string kind;               // one of kTipPathKinds
  real turns = 0.0;               // in the window (1.)
  std::optional<real> period;     // T, with 2 turns or more
  std::optional<real> radius;     // A_1
  std::optional<real> drift_speed;      // |b|
  std::optional<real> meander_frequency;  // omega_2 / (2 pi), signed
  std::optional<real> meander_ratio;      // A_2 / A_1
  real t_from = 0.0, t_to = 0.0;  // the window
};

// The analysis of the latest path (t increasing, uniformly spaced) in its context.
TipPathAnalysis analyse_tip_path(const std::vector<real>& t, const std::vector<real>& x,
                                 const std::vector<real>& y, const TipPathContext& context,
                                 const TipPathLimits& limits);

}  // namespace fhn
