#pragma once
// Running studies (fhn converge): convergence, stability and Newton studies on top of the
// ordinary run configs. Each prints a table and writes a CSV into the output folder.
#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include "config/loader.hpp"
#include "config/study_config.hpp"
#include "grid/grid_stats.hpp"
#include "grid/snapshot.hpp"

namespace fhn {

class StudyRuns;  // study/study_runs.hpp

// ---- convergence ------------------------------------------------------------------------------
struct ConvergenceRow {
  real time = 0.0;
  index_t level = 0;
  real value = 0.0;      // dt or dx of this level
  index_t nodes = 0;
  real error = 0.0;      // distance to the reference at `time`
  real order = 0.0;      // observed order against the previous level (NaN for the first)
};

// Errors of `levels` (coarse to fine, each refined by `ratio`) against `reference` at each
// time; the study runner's core, separate from running so it can be tested on known errors.
// levels[l][t] is level l's state at times[t]; reference[t] likewise.
std::vector<ConvergenceRow> convergence_table(const std::vector<std::vector<Snapshot>>& levels,
                                              const std::vector<real>& values,
                                              const std::vector<Snapshot>& reference,
                                              const std::vector<real>& times, real ratio, Norm norm);

// Richardson extrapolation from the two finest levels with order p, on the coarser one's nodes:
//   u_R = u_fine + (u_fine - u_coarse) / (ratio^p - 1).
Snapshot richardson(const Snapshot& coarse, const Snapshot& fine, real ratio, real order);

// States of a run config at each of `times` (each a whole number of steps). With `grid` given,
// it receives the node-count statistics of a scheme whose grid changes (adaptive_explicit).
// With `runs` (fhn converge), a signal stops the run between steps (InterruptedError), and the
// run is kept in the study's folder as it finishes, or taken from there when kept before (not
// one whose `grid` is asked for: the statistics are not kept).
std::vector<Snapshot> states_at(const Config& config, const std::vector<real>& times,
                                GridStats* grid = nullptr, StudyRuns* runs = nullptr);

// ---- stability --------------------------------------------------------------------------------
// Strength of odd-even (grid-scale) oscillation: the largest min(|d_i|, |d_{i+1}|, |d_{i+2}|)
// over runs of three consecutive differences d_i = v_{i+1} - v_i of alternating sign, each
// above `floor`. A resolved profile has isolated extrema, so such runs come only from
// grid-scale zig-zags; an odd-even mode of amplitude A on a flat background gives 2A. 0 when
// there is none.
real zigzag_amplitude(const std::vector<real>& v, real floor = 1e-12);
// The same over every line of a cable or of a sheet (its rows along x and columns along y).
real zigzag_amplitude(const Snapshot& s, real floor = 1e-12);

struct StabilityRow {
  std::string solver;
  real ratio = 0.0;  // dt / dx^2
  real dt = 0.0;
  std::string status;  // ok, oscillating, unbounded, refused, failed
  real max_abs_v = 0.0;
  real oscillation = 0.0;
  std::string detail;
};

// ---- adaptive accuracy --------------------------------------------------------------------------
// The base config (an adaptive_explicit run) to the last of `times`: on its adaptive grid, on the
// uniform base grid it picks its nodes from (scheme.type explicit), and as the reference,
// explicit with dx / dx_divisor and dt / dt_divisor. The error of a run at time t is
//   e = || I(v_run) - v_ref ||  over the base-grid nodes x_j = j dx,
// I the linear interpolation from the run's nodes onto the base grid (the identity for the
// uniform run), rmse or max norm: the same measure for both, so ratio = e_adaptive / e_uniform
// is what the adaptive grid adds to the base grid's own discretisation error.
// The adaptive and the uniform run are also made with the reference's dt (and regrid_every
// times dt_divisor, so the grid is rebuilt at the same times): then their error is the spatial
// discretisation's alone, and space_ratio shows what the grid adds to that smaller error.
// The ratio can fall below 1 where the grid's own error has the opposite sign to the base
// grid's; the distance between the two runs, d = || I(v_adaptive) - v_uniform ||, is what the
// grid changes whatever its sign, and grid_ratio = d / e_uniform tends to 0 as the tolerance
// falls (the adaptive grid becomes the base grid).
struct AdaptiveAccuracyRow {
  real time = 0.0;
  index_t adaptive_nodes = 0;  // the adaptive grid's node count at `time`
  real uniform_error = 0.0;
  real adaptive_error = 0.0;
  real uniform_space_error = 0.0;   // both runs with dt / dt_divisor
  real adaptive_space_error = 0.0;
  real grid_distance = 0.0;         // || I(v_adaptive) - v_uniform ||, at the config's dt
  real grid_space_distance = 0.0;   // the same with dt / dt_divisor
  real ratio() const { return adaptive_error / uniform_error; }
  real space_ratio() const { return adaptive_space_error / uniform_space_error; }
  real grid_ratio() const { return grid_distance / uniform_error; }
  real grid_space_ratio() const { return grid_space_distance / uniform_space_error; }
};

struct AdaptiveAccuracy {
  real tolerance = 0.0;   // scheme.adaptive.tolerance of the adaptive runs
  index_t base_nodes = 0;
  real mean_nodes = 0.0;  // adaptive node count averaged over the time steps (GridStats)
  real mean_ratio() const { return mean_nodes / static_cast<real>(base_nodes); }
  std::vector<AdaptiveAccuracyRow> rows;  // one per comparison time, ascending
};

// The runs of an adaptive study (in parallel): the uniform run, the reference and the uniform
// run at the reference's dt once, the two adaptive runs for each of the study's tolerances (the
// base config's when it lists none). One result per tolerance, in the study's order; the times
// default to the base's time.end.
std::vector<AdaptiveAccuracy> adaptive_accuracy(const StudyConfig& study,
                                                const BuildCapabilities& build = {},
                                                StudyRuns* runs = nullptr);

// ---- running ------------------------------------------------------------------------------------
struct StudyOptions {
  std::filesystem::path output_dir;  // empty: output/<study name>
  BuildCapabilities build;
};

// Runs the study, prints its table to `out`, writes the CSV; returns the output folder.
std::filesystem::path run_study(const StudyConfig& study, const StudyOptions& options,
                                std::ostream& out);

}  // namespace fhn
