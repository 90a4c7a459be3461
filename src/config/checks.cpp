// The cross-field checks of a run config: rules that involve more than one key, run by
// loader.cpp once every key has been read on its own (check_consistency and its helpers: grid,
// stability, time steps, scheme and outputs, probes, stimuli, build capabilities).
#include "config/checks.hpp"

#include <algorithm>
#include <cmath>

#include "config/capability_key.hpp"
#include "config/names.hpp"
#include "core/format.hpp"
#include "grid/interpolation.hpp"
#include "model/problem.hpp"
#include "model/stability.hpp"
#include "model/stimulus.hpp"
#include "model/tissue.hpp"

namespace fhn::config_detail {
namespace {

constexpr index_t kMaxSteps = index_t{1} << 53;   // n dt stays exact in a double
constexpr real kMultipleTolerance = 1e-9;         // relative slack for "a multiple of dt"

// Whether x is a whole multiple of `step` (to a relative kMultipleTolerance) with at most
// `limit` steps in it; `count` receives the nearest multiple unless there are too many.
enum class Multiple { whole, not_whole, too_many };
Multiple multiple_of(real x, real step, index_t limit, index_t& count) {
  const real ratio = x / step;
  if (!(ratio <= static_cast<real>(limit))) return Multiple::too_many;
  count = static_cast<index_t>(std::llround(ratio));
  const bool whole =
      count >= 1 && std::abs(static_cast<real>(count) * step - x) <= kMultipleTolerance * x;
  return whole ? Multiple::whole : Multiple::not_whole;
}

// The number of time steps in the value of `key` (time.end, output.every, ...) into `steps`.
// A value that is no whole number of steps is reported at `key` as "<key> = <value>" followed
// by `not_whole`; more than 2^53 steps (the most a double counts exactly) at `too_many_key`.
bool count_steps(Context& ctx, const std::string& key, real value, real dt,
                 const std::string& not_whole, const std::string& too_many_key, index_t& steps) {
  switch (multiple_of(value, dt, kMaxSteps, steps)) {
    case Multiple::whole:
      return true;
    case Multiple::not_whole:
      ctx.error(key, key + " = " + format_exact(value) + not_whole);
      return false;
    case Multiple::too_many:
      ctx.error(too_many_key, too_many_key + ": " + key + " / time.dt = " +
                                  format_exact(value / dt) + " steps; at most 2^53 = " +
                                  std::to_string(kMaxSteps) + " (the most a double counts exactly)");
      return false;
  }
  return false;
}

// domain.nodes and domain.dx are exclusive: with dx, N_a = L_a / dx + 1 must be whole on every
// axis; with nodes, dx = L_a / (N_a - 1) must be the same on every axis. False after an error.
bool resolve_grid(Domain& d, Context& ctx) {
  const bool has_nodes = ctx.given("domain.nodes");
  const bool has_dx = ctx.given("domain.dx");
  if (has_nodes && has_dx) {
    ctx.error("domain.dx", "domain.nodes and domain.dx are exclusive (nodes given at " +
                               ctx.where("domain.nodes") + "); keep one of them");
    return false;
  }
  const bool sheet = d.dims >= 2;
  if (has_dx || (sheet && !has_nodes)) {  // a sheet's default grid is dx = 0.5
    // Reported at the key that was given: dx, or the length that the default dx does not divide.
    const std::string at = has_dx ? "domain.dx" : "domain.length";
    const std::string dx_text = "domain.dx: " + format_exact(d.dx) + (has_dx ? "" : " (the default)");
    for (int a = 0; a < d.dims; ++a) {
      const std::string length_key =
          sheet ? "domain.length[" + std::to_string(a) + "]" : std::string("domain.length");
      index_t cells = 0;
      const Multiple grid = multiple_of(d.length[a], d.dx, kMaxNodes - 1, cells);
      if (grid == Multiple::too_many) {
        ctx.error(at, dx_text + " makes " + length_key + " / dx = " +
                          format_exact(d.length[a] / d.dx) + " cells; at most " +
                          std::to_string(kMaxNodes - 1) + " (" + std::to_string(kMaxNodes) +
                          " nodes) are allowed");
        return false;
      }
      if (grid == Multiple::not_whole) {
        const index_t nearest = std::max<index_t>(kMinNodes - 1, cells);
        ctx.error(at, dx_text + " does not divide " + length_key + " = " +
                          format_exact(d.length[a]) + " into whole cells; nearest: dx = " +
                          format_exact(d.length[a] / static_cast<real>(nearest)) + " (" +
                          std::to_string(nearest + 1) + " nodes)");
        return false;
      }
      // domain.nodes' range holds whichever key gives the nodes.
      if (cells + 1 < kMinNodes) {
        ctx.error(at, dx_text + " divides " + length_key + " = " + format_exact(d.length[a]) +
                          " into " + std::to_string(cells) + (cells == 1 ? " cell (" : " cells (") +
                          std::to_string(cells + 1) + " nodes); at least " +
                          std::to_string(kMinNodes) + " nodes per axis are needed (dx at most " +
                          format_exact(d.length[a] / static_cast<real>(kMinNodes - 1)) + ")");
        return false;
      }
      d.nodes[a] = cells + 1;
    }
  }
  d.dx = d.length[0] / static_cast<real>(d.nodes[0] - 1);
  for (int a = 1; a < d.dims; ++a) {
    const real along = d.length[a] / static_cast<real>(d.nodes[a] - 1);
    if (std::abs(along - d.dx) > 1e-12 * d.dx) {
      ctx.error("domain.nodes", "domain.nodes: [" + std::to_string(d.nodes[0]) + ", " +
                                    std::to_string(d.nodes[a]) + "] gives dx = " +
                                    format_exact(d.dx) + " along x but " + format_exact(along) +
                                    " along y; the spacing must be the same on both axes (give "
                                    "domain.dx instead)");
      return false;
    }
  }
  if (d.node_count() > kMaxNodes) {
    ctx.error(has_nodes ? "domain.nodes" : "domain.dx",
              "domain: " + std::to_string(d.node_count()) + " nodes; at most " +
                  std::to_string(kMaxNodes) + " are allowed");
    return false;
  }
  return true;
}

// Forward Euler's time step (explicit, adaptive_explicit; the adaptive grid's smallest spacing
// is the base dx): at most the limit of model/stability.hpp, or of diffusion alone where
// scheme.explicit_limit says so.
void check_explicit_limit(const Config& c, ProblemFields& fields, Context& ctx) {
  if (c.scheme.type != SchemeType::explicit_euler && c.scheme.type != SchemeType::adaptive_explicit)
    return;
  ExplicitLimit limit;
  try {
    // Uniform parameters and isotropic diffusion need no fields (none are built for them).
    limit = c.fields.empty() && !c.anisotropy.enabled
                ? explicit_limit(c.model, c.boundary, c.domain.dims, c.domain.dx)
                : explicit_limit(c.model, c.boundary, c.domain, fields.of(c));
  } catch (const ConfigError& e) {  // the anisotropic tensor (model/field_values.hpp)
    ctx.error(e.key(), e.what());
    return;
  }
  const bool reaction = c.scheme.explicit_limit == ExplicitLimitCheck::reaction;
  const real largest = reaction ? limit.dt : limit.diffusion_dt;
  if (c.time.dt <= largest * (1.0 + 1e-12)) return;
  const std::string head =
      "time.dt = " + format_exact(c.time.dt) + " exceeds the explicit stability limit";
  // With fields or anisotropy the diffusion's rate is the sheet's largest (model/stability.hpp).
  const bool varying = c.anisotropy.enabled || !c.fields.empty();
  const std::string grid =
      "dx = " + format_exact(c.domain.dx) +
      (varying ? std::string(", the largest diffusion of fields: and anisotropy:")
               : ", D = " + format_exact(c.model.diffusion));
  const std::string diffusion =
      varying ? "2/r_D"
              : "dx^2/(" + std::to_string(2 * c.domain.dims) + " D)";
  if (reaction)
    ctx.error("time.dt", head + ": " + limit.explain() + " (" + grid + ", " +
                             kinetics_parameters_text(c.model.kinetics) +
                             "); the largest stable dt is " +
                             format_exact(largest) +
                             " (scheme.explicit_limit: diffusion would allow " + diffusion +
                             " = " + format_exact(limit.diffusion_dt) +
                             ", where that mode grows wherever v stays in the excited state)");
  else
    ctx.error("time.dt", head + " " + diffusion + " = " + format_exact(largest) +
                             " of diffusion alone (" + grid +
                             "; scheme.explicit_limit: diffusion); the largest stable dt is " +
                             format_exact(largest));
}

// A stimulus must act at one of the times or in one of the windows its scheme evaluates the
// stimuli at or over (t_j = j h below, span as stimulus_mean's; explicit_cpu.cpp,
// crank_nicolson_cpu.cpp, adi_cpu.cpp and their CUDA twins), else it does not act: one whose
// every window falls between two times is refused; one that acts only after the last of them is
// a warning (Config::warnings). Reported at stimulus[i].start.
void check_stimulus_times(Config& c, const Stimulus& s, const std::string& path,
                          Context& ctx) {
  const real dt = c.time.dt;
  const index_t n = c.time.steps;
  real h = dt, span = 0.0;
  index_t samples = n;  // forward Euler: the start of each step, t = n dt
  std::string when = "at the start of each step, t = n dt";
  if (c.scheme.type == SchemeType::crank_nicolson) {
    if (c.scheme.crank_nicolson.formulation == Formulation::adi) {
      h = span = 0.5 * dt;
      samples = 2 * n;
      when = "as their means over each half step, [n dt/2, (n + 1) dt/2]";
    } else {
      span = dt;
      when = "as their means over each step, [n dt, (n + 1) dt]";
    }
  }
  if (first_sample_on(s, h, span, samples, dt) >= 0) return;
  const std::string scheme = name_of(scheme_type_names(), c.scheme.type) + " evaluates stimuli " +
                             when + " (time.dt = " + format_exact(dt) + ")";
  const real last = static_cast<real>(samples - 1) * h + span;  // the end of the last window
  const std::string key = path + ".start";
  // A stimulus that acts only after this run's end acts in the run continued past it (--restart
  // with a larger time.end may continue a run; a run shortened with --set time.end meets it): a
  // warning. One whose windows fall between the sampling times acts in no run: an error.
  const real windows_end = s.start + static_cast<real>(s.count - 1) * s.period + s.duration;
  const real ever = std::ceil(windows_end / h) + 2.0;
  const bool acts_later =
      ever >= 0x1p62 || first_sample_on(s, h, span, static_cast<index_t>(ever), dt) >= 0;
  if (acts_later) {
    c.warnings.push_back(
        ctx.where(key) + ": " + key + " = " + format_exact(s.start) +
        (s.start >= c.time.end ? " is not before time.end = " + format_exact(c.time.end)
                               : " is after the last time the scheme applies a stimulus, t = " +
                                     format_exact(last) + " (" + scheme + ")") +
        ": the stimulus does not act in this run, only in one continued past its end");
    return;
  }
  if (s.start > last + stimulus_tolerance(dt))
    ctx.error(key, key + " = " + format_exact(s.start) +
                       " is after the last time the scheme applies a stimulus, t = " +
                       format_exact(last) + " (" + scheme + "): the stimulus would never act");
  else
    ctx.error(key, path + ": no time the scheme applies stimuli falls in its window [" +
                       format_exact(s.start) + ", " + format_exact(s.start + s.duration) + ")" +
                       (s.count > 1 ? " nor in any of its " + std::to_string(s.count - 1) +
                                          " repetitions"
                                    : "") +
                       " (" + scheme + "): the stimulus would never act; start it on a step or "
                       "make its duration at least " + format_exact(h));
}

// What reads or acts on the medium must find some (model/tissue.hpp): the mask must leave a
// tissue node; a probe must lie in the tissue with a tissue node of its cell carrying weight
// (it reads those alone, FrameView::at); a stimulus must cover a tissue node (an outside node
// takes no current); a Dirichlet side with no tissue node on it holds nothing (a warning). Probes
// and stimuli off the domain or covering no node are reported before, and skipped here.
void check_tissue(Config& c, ProblemFields& fields, Context& ctx) {
  if (c.tissue.empty()) return;
  const Domain& d = c.domain;
  std::vector<std::uint8_t> built;
  const std::vector<std::uint8_t>* fields_mask = nullptr;
  try {
    fields_mask = &fields.of(c).node_type;
  } catch (const ConfigError&) {
    // The tensor refused (reported by the stability limit or check_problem): the mask alone.
    built = tissue_mask(c.tissue, d);
  }
  const std::vector<std::uint8_t>& mask = fields_mask ? *fields_mask : built;
  const auto tissue = [&](index_t node) {
    return mask.empty() || mask[static_cast<std::size_t>(node)] == 0;
  };
  const std::string rule = " (a node is tissue when it is a corner of a grid cell whose four "
                           "corners lie in the tissue; dx = " + format_exact(d.dx) + ")";
  const bool none = !mask.empty() && std::none_of(mask.begin(), mask.end(),
                                                  [](std::uint8_t type) { return type == 0; });
  if (none) {
    ctx.error("tissue", "tissue: the regions leave no node in the tissue" + rule +
                            ": the run would have no medium; add tissue (op: add) where it "
                            "should be, or refine domain.dx");
    return;
  }
  const std::uint8_t* outside = mask.empty() ? nullptr : mask.data();
  for (std::size_t i = 0; i < c.output.probes.size(); ++i) {
    const Point& p = c.output.probes[i];
    if (!(p[0] >= 0.0 && p[0] <= d.length[0] && p[1] >= 0.0 && p[1] <= d.length[1])) continue;
    const std::string at = "output.probes[" + std::to_string(i) + "]: (" + format_exact(p[0]) +
                           ", " + format_exact(p[1]) + ")";
    if (!in_tissue(c.tissue, p))
      ctx.error("output.probes", at + " lies outside the tissue (tissue:); a probe reads tissue");
    else if (tissue_weight(d, p, outside) == 0.0)
      ctx.error("output.probes", at + " lies in the tissue but no node of the grid cell around "
                                      "it that it reads is tissue" + rule +
                                      "; move it into the medium or refine domain.dx");
  }
  for (std::size_t i = 0; i < c.stimulus.size(); ++i) {
    const NodeStimulus nodes = stimulus_nodes(c.stimulus[i], d);
    if (c.stimulus[i].amplitude == 0.0 || nodes.empty()) continue;
    bool acts = false;
    for (index_t j = nodes.first_y; j <= nodes.last_y && !acts; ++j)
      for (index_t k = nodes.first; k <= nodes.last && !acts; ++k)
        acts = tissue(k + d.nodes[0] * j);
    const std::string path = "stimulus[" + std::to_string(i) + "]";
    if (!acts)
      ctx.error(path + ".x_min", path + ": every node the region [" +
                                     format_exact(c.stimulus[i].x_min) + ", " +
                                     format_exact(c.stimulus[i].x_max) + "] x [" +
                                     format_exact(c.stimulus[i].y_min) + ", " +
                                     format_exact(c.stimulus[i].y_max) +
                                     "] covers is outside the tissue" + rule +
                                     ": the stimulus would never act; move it into the medium");
  }
  const char* names[2][2] = {{"left", "right"}, {"bottom", "top"}};
  for (int axis = 0; axis < 2; ++axis)
    for (int end = 0; end < 2; ++end) {
      if (c.boundary.side(axis, end == 1).type != BoundaryType::dirichlet) continue;
      const index_t across = d.nodes[1 - axis];
      const index_t at = end == 0 ? 0 : d.nodes[axis] - 1;
      bool held = false;
      for (index_t k = 0; k < across && !held; ++k)
        held = tissue(axis == 0 ? at + d.nodes[0] * k : k + d.nodes[0] * at);
      const std::string key = std::string("boundary.") + names[axis][end];
      if (!held)
        c.warnings.push_back(ctx.where(key) + ": " + key + ": a Dirichlet side with no tissue node "
                             "on it (" + (axis == 0 ? "x = " : "y = ") +
                             format_exact(end == 0 ? 0.0 : d.length[axis]) +
                             "): it holds nothing and has no effect; the tissue's edge is no-flux");
    }
}

// output.ecg's electrodes off the grid's nodes: the potential weighs each node by 1/r, infinite
// at r = 0 (study/pseudo_ecg.hpp). An electrode closer to a node than 1e-9 dx (round-off of a
// coordinate typed as the node's) is on it.
void check_electrodes(const Config& c, Context& ctx) {
  const Domain& d = c.domain;
  for (std::size_t i = 0; i < c.output.ecg.electrodes.size(); ++i) {
    const Point& p = c.output.ecg.electrodes[i];
    real r2 = 0.0;  // the squared distance to the nearest node
    std::string node, point;
    for (int a = 0; a < 3; ++a) {
      real nearest = 0.0;  // off the domain's axes, the tissue lies at 0
      if (a < d.dims) {
        const real index =
            std::clamp(std::round(p[a] / d.dx), 0.0, static_cast<real>(d.nodes[a] - 1));
        nearest = d.coordinate(a, static_cast<index_t>(index));
        node += std::string(a > 0 ? ", " : "") + axis_name(a) + " = " + format_exact(nearest);
      }
      r2 += (p[a] - nearest) * (p[a] - nearest);
      if (a < EcgSpec::coordinates(d.dims))
        point += std::string(a > 0 ? ", " : "") + format_exact(p[a]);
    }
    if (std::sqrt(r2) <= 1e-9 * d.dx) {
      const std::string key = "output.ecg.electrodes[" + std::to_string(i) + "]";
      ctx.error(key, key + ": [" + point + "] is on the node " + node +
                         " (r = 0, where the potential's 1/r is infinite); move it off the "
                         "nodes, e.g. " +
                         (d.dims == 3   ? "between two nodes or outside the box"
                          : d.dims == 2 ? "to a height z > 0 above the sheet"
                                        : "to a distance y > 0 from the cable"));
    }
  }
}

}  // namespace

const ParameterFields& ProblemFields::of(const Config& c) {
  if (!fields_ && !error_) {
    try {
      fields_ = build_parameter_fields(c);
    } catch (const ConfigError& e) {
      error_ = e;
    }
  }
  if (error_) throw *error_;
  return *fields_;
}

// Cross-field rules: run once every key parsed on its own.
void check_consistency(Config& c, Section& top, const BuildCapabilities& build,
                       ProblemFields& fields) {
  Context& ctx = top.context();

  // Grid: exactly one of nodes and dx; dx must divide every length.
  if (!resolve_grid(c.domain, ctx)) return;

  // The rates of the equations first: a value that overflows them is reported at its key (not
  // as an explicit limit of dt = 0). The explicit stability limit needs only the grid, the model
  // and dt: it is reported beside any problem with the number of steps.
  bool finite_rates = true;
  try {
    check_rates(c);
  } catch (const ConfigError& e) {
    ctx.error(e.key(), e.what());
    finite_rates = false;
  }
  if (finite_rates) check_explicit_limit(c, fields, ctx);

  // Time: a whole number of steps, frames on step boundaries. What counts steps of time.end
  // (the stimuli's windows) is checked only when there is a whole number of them.
  const std::string of_dt = " time.dt = " + format_exact(c.time.dt);
  bool whole_steps = false;
  if (c.time.dt > c.time.end)
    ctx.error("time.dt", "time.dt = " + format_exact(c.time.dt) + " is longer than time.end = " +
                             format_exact(c.time.end));
  else
    whole_steps = count_steps(ctx, "time.end", c.time.end, c.time.dt,
                              " is not a whole number of steps of" + of_dt, "time.dt",
                              c.time.steps);
  count_steps(ctx, "output.every", c.output.every, c.time.dt, " must be a whole multiple of" + of_dt,
              "output.every", c.output.every_steps);
  // The measurements at their own cadence (fhn run: probes.csv, tips.csv, filaments.csv; a
  // sweep's members take their tips from their frames) default to output.every, whose error is
  // its own.
  auto own_cadence = [&](const char* key, real every, index_t& steps) {
    if (ctx.given(key))
      count_steps(ctx, key, every, c.time.dt, " must be a whole multiple of" + of_dt, key, steps);
    else
      steps = c.output.every_steps;
  };
  own_cadence("output.probes_every", c.output.probes_every, c.output.probes_every_steps);
  own_cadence("output.tips.every", c.output.tips.every, c.output.tips.every_steps);
  own_cadence("output.filaments.every", c.output.filaments.every, c.output.filaments.every_steps);
  if (c.output.restitution.enabled && c.output.probes.empty())
    ctx.error("output.restitution.enabled",
              "output.restitution.enabled: true needs probes (output.probes is empty): restitution "
              "is measured at the probes");
  if (c.output.checkpoint_every > 0.0)
    count_steps(ctx, "output.checkpoint_every", c.output.checkpoint_every, c.time.dt,
                " must be a whole multiple of" + of_dt + " (or 0 for none)",
                "output.checkpoint_every", c.output.checkpoint_every_steps);

  if (c.output.ecg.enabled())
    count_steps(ctx, "output.ecg.every", c.output.ecg.every, c.time.dt,
                " must be a whole multiple of" + of_dt, "output.ecg.every",
                c.output.ecg.every_steps);

  const bool sheet = c.domain.dims >= 2;  // a sheet or a box
  const bool box = c.domain.dims == 3;
  // The pseudo-ECG's electrodes, on the uniform grid; the phase, a point array of the frames.
  check_electrodes(c, ctx);
  if (c.output.ecg.enabled() && c.scheme.type == SchemeType::adaptive_explicit)
    ctx.error("output.ecg", "output.ecg: the pseudo-ECG is computed on the uniform grid; the "
                            "adaptive grid's frames hold a subset of its nodes (use scheme.type: "
                            "explicit, or remove output.ecg)");
  if (c.output.phase && !sheet)
    ctx.error("output.phase", "output.phase: the phase map is drawn on sheets and boxes only "
                              "(domain.length: [Lx, Ly] or [Lx, Ly, Lz]); this domain is a cable");
  else if (c.output.phase && !c.output.vtk)
    ctx.error("output.phase", "output.phase: the phase is a point array of the frames; it needs "
                              "output.vtk: true");
  // What runs where (config/capabilities.hpp): the scheme on this domain and backend.
  for (const capability::Refusal& refused :
       capability::refusals(capability_key(c, capability::Mode::one_process)))
    ctx.error(refused.key, refused.key + ": " + refused.message);
  const CrankNicolsonSpec& cn = c.scheme.crank_nicolson;
  if (c.scheme.type == SchemeType::crank_nicolson && cn.formulation == Formulation::adi) {
    if (cn.w_update == WUpdate::leapfrog)
      ctx.error("scheme.crank_nicolson.w_update",
                "scheme.crank_nicolson.w_update: leapfrog needs the coupled Newton formulation; "
                "formulation: adi advances w with v by the trapezoidal rule (w_update: trapezoidal)");
    if (c.boundary.no_flux_order == 1)
      ctx.error("boundary.no_flux_order", "boundary.no_flux_order: 1 needs scheme.crank_nicolson."
                                          "formulation: newton; adi uses the mirrored ghost nodes (2)");
    if (!solvers::has_batched_form(cn.tridiagonal))
      ctx.error("scheme.crank_nicolson.tridiagonal",
                "scheme.crank_nicolson.tridiagonal: '" +
                    std::string(solvers::backend_name(cn.tridiagonal)) +
                    "' has no batched form; formulation: adi solves batches of lines with thomas "
                    "(cpu), partitioned or cusparse (cuda)");
  }
  if (c.scheme.type == SchemeType::adaptive_explicit && c.output.stride > 1)
    ctx.error("output.stride", "output.stride: frames of the adaptive grid keep all of its nodes; "
                               "remove output.stride (or set it to 1)");
  if (sheet && c.output.spacetime)
    ctx.error("output.spacetime", "output.spacetime: the x-t kymograph is drawn for cables only; "
                                  "a sheet or a box writes its frames instead");
  if (!sheet && c.output.activation.enabled)
    ctx.error("output.activation.enabled",
              "output.activation.enabled: activation maps are computed on sheets and boxes only "
              "(domain.length: [Lx, Ly] or [Lx, Ly, Lz]); a cable writes spacetime.vti");
  if (c.domain.dims != 2 && c.output.tips.enabled)
    ctx.error("output.tips.enabled",
              "output.tips.enabled: spiral tips are found on sheets only (domain.length: [Lx, Ly])" +
                  std::string(box ? "; a box has filaments (output.filaments)" : ""));

  if (!box && c.output.filaments.enabled)
    ctx.error("output.filaments.enabled", "output.filaments.enabled: filaments are found in "
                                          "boxes only (domain.length: [Lx, Ly, Lz]); " +
                                              std::string(sheet ? "a sheet has spiral tips "
                                                                  "(output.tips)"
                                                                : "this domain is a cable"));
  if (!box && ctx.given("output.filaments.settle"))
    ctx.error("output.filaments.settle",
              "output.filaments.settle: the settling time of a scroll ring's rate applies to "
              "boxes only (domain.length: [Lx, Ly, Lz])");
  // The cadences of what a domain does not measure.
  if (!box && ctx.given("output.filaments.every"))
    ctx.error("output.filaments.every",
              "output.filaments.every: the filaments' cadence applies to boxes only "
              "(domain.length: [Lx, Ly, Lz])");
  if (c.domain.dims != 2 && ctx.given("output.tips.every"))
    ctx.error("output.tips.every",
              "output.tips.every: the tips' cadence applies to sheets only (domain.length: "
              "[Lx, Ly])");

  // The tridiagonal solver works where the scheme keeps its state; its default follows the
  // backend.
  solvers::TridiagonalBackend& solver = c.scheme.crank_nicolson.tridiagonal;
  const bool on_device = c.scheme.backend == Backend::cuda;
  if (!ctx.given("scheme.crank_nicolson.tridiagonal") && on_device)
    solver = solvers::TridiagonalBackend::partitioned;
  if (c.scheme.type == SchemeType::crank_nicolson && solvers::runs_on_device(solver) != on_device) {
    const std::string name(solvers::backend_name(solver));
    ctx.error("scheme.crank_nicolson.tridiagonal",
              on_device ? "scheme.crank_nicolson.tridiagonal: '" + name +
                              "' runs on the CPU; with scheme.backend: cuda use partitioned, "
                              "cyclic_reduction, cusparse or cusparse_pivot"
                        : "scheme.crank_nicolson.tridiagonal: '" + name +
                              "' solves on the GPU and needs scheme.backend: cuda; with "
                              "scheme.backend: cpu use 'thomas' or 'thomas_partitioned'");
  }
  if (c.output.newton_log && c.scheme.type != SchemeType::crank_nicolson)
    ctx.error("output.newton_log", "output.newton_log: Newton iterations exist only with "
                                   "scheme.type: crank_nicolson");

  auto inside = [&](const Point& p) {
    for (int a = 0; a < c.domain.dims; ++a)
      if (p[a] < 0.0 || p[a] > c.domain.length[a]) return false;
    return true;
  };
  auto extent = [&] {
    std::string text;
    for (int a = 0; a < c.domain.dims; ++a)
      text += std::string(a > 0 ? " x " : "") + "[0, " + format_exact(c.domain.length[a]) + "]";
    return text;
  };
  for (std::size_t i = 0; i < c.output.probes.size(); ++i) {
    const Point& p = c.output.probes[i];
    std::string at = format_exact(p[0]);
    for (int a = 1; a < c.domain.dims; ++a) at += ", " + format_exact(p[a]);
    if (!inside(p))
      ctx.error("output.probes", "output.probes[" + std::to_string(i) + "] = " +
                                     (sheet ? "[" + at + "]" : at) + " is outside the domain " +
                                     extent());
  }
  for (std::size_t i = 0; i < c.stimulus.size(); ++i) {
    const Stimulus& s = c.stimulus[i];
    const std::string path = "stimulus[" + std::to_string(i) + "]";
    const bool outside = s.x_max < 0.0 || s.x_min > c.domain.length[0] ||
                         (sheet && (s.y_max < 0.0 || s.y_min > c.domain.length[1])) ||
                         (box && (s.z_max < 0.0 || s.z_min > c.domain.length[2]));
    const std::string region =
        "[" + format_exact(s.x_min) + ", " + format_exact(s.x_max) + "]" +
        (sheet ? " x [" + format_exact(s.y_min) + ", " + format_exact(s.y_max) + "]" : "") +
        (box ? " x [" + format_exact(s.z_min) + ", " + format_exact(s.z_max) + "]" : "");
    // Amplitude 0 is a stimulus switched off (one a sweep axis switches on, e.g. an S2): where and
    // when it would act does not matter.
    const bool off = s.amplitude == 0.0;
    if (outside)
      ctx.error(path + ".x_min",
                path + ": the region " + region + " lies outside the domain " + extent());
    else if (!off && stimulus_nodes(s, c.domain).empty() && s.coverage == Coverage::nodes)
      ctx.error(path + ".x_min", path + ": the region " + region +
                                     " holds no grid node (the nodes lie at multiples of dx = " +
                                     format_exact(c.domain.dx) +
                                     "): the stimulus would never act; widen it to take a node");
    else if (!off && stimulus_nodes(s, c.domain).empty())
      ctx.error(path + ".x_min", path + ": the region " + region +
                                     " has no width along an axis, so no node's cell overlaps it "
                                     "(coverage: overlap; a node takes the part of its cell, its "
                                     "position +- dx/2 with dx = " + format_exact(c.domain.dx) +
                                     ", inside the region): the stimulus would never act; widen "
                                     "it, or take the nodes on it with coverage: nodes");
    if (whole_steps && !off) check_stimulus_times(c, s, path, ctx);
  }

  check_tissue(c, fields, ctx);

  if (!build.vtk) {
    for (const char* key : {"output.vtk", "output.spacetime", "output.activation.enabled"}) {
      const std::string k = key;
      const bool on = k == "output.vtk"         ? c.output.vtk
                      : k == "output.spacetime" ? c.output.spacetime
                                                : c.output.activation.enabled;
      // The activation map follows output.vtk by default: one message (about output.vtk) is enough.
      const bool implied = k == "output.activation.enabled" && !ctx.given(key) && c.output.vtk;
      if (on && !implied)
        ctx.error(key, std::string(key) + ": this build has no VTK (configured with "
                                          "-DFHN_WITH_VTK=OFF); set " + key +
                           ": false (or --set " + key + "=false), or rebuild with VTK" +
                           (ctx.given(key) ? "" : " (true is the default)"));
    }
  }
}

}  // namespace fhn::config_detail
