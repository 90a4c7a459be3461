#pragma once
// A study (fhn converge STUDY.yaml): a base run config, overrides, and what to vary. Three kinds:
//   convergence: refine time.dt or domain.dx by `ratio` over `levels`, compare with a reference
//                at given times, report errors and observed orders;
//   stability:   sweep dt/dx^2 for each tridiagonal solver, report where the solution stops
//                being bounded or oscillation-free;
//   newton:      iterations per step and ||du|| per iteration for each tridiagonal solver;
//   adaptive:    an adaptive_explicit config against the uniform run on its base grid, both
//                measured against a finer reference run, with the adaptive run's node count;
//   work_precision: each method (a scheme and backend, as overrides) over a range of dt, the
//                error of a measured quantity against a reference and the time the run took.
// configs/studies/README.md documents every key.
#include <optional>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "config/loader.hpp"

namespace fhn {

enum class StudyKind { convergence, stability, newton, adaptive, work_precision };
// What a work-precision study measures of each run.
enum class StudyQuantity { spiral_period, pulse_speed, field_rmse, activation_time };

// One line of a work-precision diagram: a label, the overrides that pick the scheme (and
// backend, solver...), and the time steps to run it at, each with its grid spacing where given.
struct WorkMethod {
  std::string label;
  std::vector<Override> overrides;  // its set:, each named by its place in the study file
  std::vector<real> dts;
  std::vector<real> dxs;  // empty: every run on the base's grid; else dxs[k] goes with dts[k]
  std::string where;      // "file:line:col" of the method (of its dx where given), for messages
  // "file:line:col (methods[i].dt)" and (.dx): where run k's time.dt and domain.dx come from.
  std::string dt_where, dx_where;
};
enum class ReferenceKind { finest, value, richardson };
enum class Norm { rmse, max };

struct StudyConfig {
  std::string name;
  std::string source;
  StudyKind kind = StudyKind::convergence;
  std::string base;                    // path of the base run config (resolved)
  std::vector<Override> overrides;     // set: "key=value", applied to the base config

  // convergence
  std::string refine = "time.dt";      // time.dt or domain.dx
  real start = 0.1;                    // the coarsest value of `refine`
  real ratio = 2.0;                    // each level divides the value by this
  index_t levels = 4;
  ReferenceKind reference = ReferenceKind::finest;
  real reference_value = 0.0;          // reference: {value: ...}
  std::vector<real> times;             // comparison times (default: the base config's end)
  Norm norm = Norm::rmse;

  // adaptive (and times, norm): the reference run's dx and dt are the base's divided by these
  index_t dx_divisor = 4;
  index_t dt_divisor = 16;
  std::vector<real> tolerances;        // scheme.adaptive.tolerance values (empty: the base's)

  // stability
  std::vector<real> ratios;            // dt / dx^2
  real end = 100.0;                    // simulated time per run
  real bound = 2.0;                    // |v| above this counts as unbounded
  real oscillation_tolerance = 1e-6;   // zig-zag amplitude above this counts as oscillation

  // stability and newton
  std::vector<solvers::TridiagonalBackend> solvers;  // empty: the base config's

  // newton
  index_t steps = 100;

  // work_precision
  StudyQuantity quantity = StudyQuantity::spiral_period;
  std::string quantity_where;                    // "file:line:col" of `quantity`, for messages
  std::vector<real> probe;                       // activation_time's point: x, [x, y], [x, y, z]
  std::string probe_where;                       // "file:line:col" of `probe`
  std::vector<WorkMethod> methods;
  std::optional<real> reference_exact;           // reference: {value: ...}
  std::vector<Override> reference_overrides;     // reference: {set: [...], dt: ...}, a fine run
  real reference_dt = 0.0;
  real reference_dx = 0.0;                       // the reference run's domain.dx; 0: the base's
  std::string reference_dt_where, reference_dx_where;  // as WorkMethod's dt_where, dx_where
  index_t repeats = 1;                           // each run's time is the least of this many
  std::vector<real> targets{1e-2, 1e-3, 1e-4};   // relative errors to recommend a method for
};

StudyConfig load_study(const std::string& path);
StudyConfig load_study_text(const std::string& text, const std::string& source);

}  // namespace fhn
