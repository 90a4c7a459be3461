// fhn converge, work-precision studies: each method (a scheme, backend and solver, as
// overrides) at each of its time steps, the error of a measured quantity against a reference
// and the time the run took (work_precision.csv), and for each target accuracy the fastest run
// that reaches it (work_precision_choice.csv).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <optional>
#include <ostream>

#include "core/error.hpp"
#include "core/format.hpp"
#include "grid/interpolation.hpp"
#include "io/atomic_file.hpp"
#include "model/problem.hpp"
#include "schemes/scheme.hpp"
#include "model/tissue.hpp"
#include "study/activation.hpp"
#include "study/convergence.hpp"
#include "study/front_tracker.hpp"
#include "study/spiral_tips.hpp"
#include "study/study.hpp"
#include "study/study_detail.hpp"

namespace fhn {
namespace study_detail {
namespace {

const char* quantity_name(StudyQuantity q) {
  switch (q) {
    case StudyQuantity::spiral_period: return "spiral_period";
    case StudyQuantity::pulse_speed: return "pulse_speed";
    case StudyQuantity::field_rmse: return "field_rmse";
    case StudyQuantity::activation_time: return "activation_time";
  }
  return "";
}

// One run: `config` from its start to time.end, frames every output.every handed to the
// quantity's sink (a TipTracker writing `tips_file`, a FrontTracker, or a PointActivation at
// `probe`; field_rmse keeps the last frame). Its time is that of the stepping and of fetching
// the frames (Scheme::advance and snapshot, what the scheme costs on its backend), not of the
// sink's analysis.
struct Measured {
  std::optional<real> value;  // nullopt: the run did not show the quantity (e.g. < 2 turns)
  double seconds = 0.0;
  index_t steps = 0;
  Snapshot last;  // the state at time.end (field_rmse)
};
Measured measure(const Config& config, StudyQuantity quantity, const Point& probe,
                 const std::filesystem::path& tips_file, const StudyRuns& runs) {
  const Problem problem = make_problem(config);
  std::unique_ptr<Scheme> scheme = make_scheme(config, problem);
  std::unique_ptr<TipTracker> tips;
  std::unique_ptr<FrontTracker> front;
  std::unique_ptr<PointActivation> activation;
  FrameSink* sink = nullptr;
  if (quantity == StudyQuantity::spiral_period) {
    tips = std::make_unique<TipTracker>(tips_file, config.output.tips.v_iso, config.output.tips.w_iso,
                                        false, cut_off_nodes(problem.fields));
    sink = tips.get();
  } else if (quantity == StudyQuantity::pulse_speed) {
    front = std::make_unique<FrontTracker>(config.domain.length[0], config.output.activation.threshold);
    sink = front.get();
  } else if (quantity == StudyQuantity::activation_time) {
    activation = std::make_unique<PointActivation>(probe, config.output.activation.threshold);
    sink = activation.get();
  }
  using Clock = std::chrono::steady_clock;
  Measured m;
  Snapshot snap;
  index_t frame = 0;
  const std::uint8_t* outside = problem.fields.outside_mask();
  for (index_t step = 0;; step = std::min(step + config.output.every_steps, config.time.steps)) {
    if (runs.interrupted()) {
      // Stopped: the run's tips file, written so far, is removed (it would look like a
      // finished run's); the run is made again when the study continues.
      tips.reset();
      if (!tips_file.empty()) std::filesystem::remove(tips_file);
      runs.stop_if_interrupted();
    }
    const auto t0 = Clock::now();
    scheme->advance(step - scheme->steps_done());
    scheme->snapshot(snap);
    m.seconds += std::chrono::duration<double>(Clock::now() - t0).count();
    if (sink) {
      FrameView view = frame_view(snap, frame++);
      view.outside = outside;
      sink->write(view);
    }
    if (step == config.time.steps) break;
  }
  if (sink) sink->finish();
  m.steps = config.time.steps;
  if (quantity == StudyQuantity::field_rmse) {
    // The run's value: v's RMS value at time.end, RMS(v) = sqrt(sum v_i^2 / N).
    real sum = 0.0;
    for (const real v : snap.v) sum += v * v;
    m.value = std::sqrt(sum / static_cast<real>(snap.v.size()));
    m.last = std::move(snap);
  }
  if (tips) m.value = tips->period();
  if (front)
    if (const std::optional<FrontSpeed> speed = front->speed()) m.value = speed->speed;
  if (activation) m.value = activation->time();
  return m;
}

// `config` measured `repeats` times: the value of the first run, the least of the times. Kept
// in `runs` as it finishes (its value, time, steps and, for field_rmse, the last state), and
// taken from there when a study into the same folder kept it before.
Measured measure_repeated(const Config& config, const StudyConfig& st, const Point& probe,
                          const std::filesystem::path& tips_file, StudyRuns& runs,
                          index_t repeats) {
  std::string what = std::string("work_precision ") + quantity_name(st.quantity) + ", best of " +
                     std::to_string(repeats) + ", probe";
  for (const real x : st.probe) what += " " + format_exact(x);
  if (std::optional<StoredRun> found = runs.find(config, what)) {
    Measured m;
    if (found->numbers.at(0) != 0.0) m.value = found->numbers.at(1);
    m.seconds = found->numbers.at(2);
    m.steps = static_cast<index_t>(found->numbers.at(3));
    if (!found->states.empty()) m.last = std::move(found->states.front());
    return m;
  }
  Measured best = measure(config, st.quantity, probe, tips_file, runs);
  for (index_t r = 1; r < repeats; ++r)
    best.seconds =
        std::min(best.seconds, measure(config, st.quantity, probe, tips_file, runs).seconds);
  StoredRun kept{{best.value ? 1.0 : 0.0, best.value.value_or(0.0), best.seconds,
                  static_cast<real>(best.steps)},
                 {}};
  if (!best.last.v.empty()) kept.states.push_back(best.last);
  runs.keep(config, what, kept);
  return best;
}

// activation_time's point: one coordinate per axis of `domain`, inside it.
Point study_probe(const StudyConfig& st, const Domain& domain) {
  Point p{0.0, 0.0, 0.0};
  if (st.quantity != StudyQuantity::activation_time) return p;
  const auto dims = static_cast<std::size_t>(domain.dims);
  const char* form = dims == 1 ? "x" : dims == 2 ? "[x, y]" : "[x, y, z]";
  if (st.probe.size() != dims)
    throw ConfigError(st.probe_where + ": probe: " + std::to_string(st.probe.size()) +
                      (st.probe.size() == 1 ? " coordinate" : " coordinates") +
                      "; the base config's domain has " + std::to_string(dims) +
                      (dims == 1 ? " axis" : " axes") + " (expected " + form + ")");
  for (std::size_t a = 0; a < dims; ++a) {
    if (!(st.probe[a] >= 0.0 && st.probe[a] <= domain.length[a]))
      throw ConfigError(st.probe_where + ": probe: " + format_exact(st.probe[a]) +
                        " lies outside the domain's [0, " + format_exact(domain.length[a]) +
                        "] along " + axis_name(static_cast<int>(a)));
    p[a] = st.probe[a];
  }
  return p;
}

// field_rmse compares a run with the reference at the run's nodes: each must be a node of the
// reference's grid (the same lengths, the reference's cells a whole division of the run's).
void check_on_reference_grid(const WorkMethod& method, const Domain& run,
                             const Domain& reference) {
  bool nested = run.dims == reference.dims;
  for (int a = 0; nested && a < run.dims; ++a)
    nested = run.length[a] == reference.length[a] &&
             (reference.nodes[a] - 1) % (run.nodes[a] - 1) == 0;
  if (!nested)
    throw ConfigError(method.where + ": work_precision: method '" + method.label + "' runs on " +
                      run.summary() +
                      ", the reference on " + reference.summary() +
                      "; field_rmse compares each run with the reference at the run's nodes, "
                      "which must be nodes of the reference's grid (the same lengths, the "
                      "reference's dx the run's divided by a whole number)");
}

std::string joined(const std::vector<Override>& items) {
  std::string text;
  for (const Override& item : items) text += (text.empty() ? "" : ", ") + item.assignment;
  return text;
}

}  // namespace

std::filesystem::path run_work_precision(const StudyConfig& st, const StudyOptions& options,
                                         const std::filesystem::path& dir, std::ostream& out,
                                         StudyRuns& runs) {
  const std::string quantity = quantity_name(st.quantity);
  const bool field = st.quantity == StudyQuantity::field_rmse;
  // Every run's config first (the reference run's too), so that a dt or dx the config refuses,
  // or a run whose nodes are not the reference's where field_rmse compares them node by node,
  // stops the study before it runs.
  std::optional<Config> reference_run;
  if (!st.reference_exact) {
    std::vector<Override> extra = st.reference_overrides;
    extra.push_back({assign("time.dt", st.reference_dt), st.reference_dt_where});
    if (st.reference_dx > 0.0)
      extra.push_back({assign("domain.dx", st.reference_dx), st.reference_dx_where});
    reference_run = study_run(st, extra, options.build);
  }
  std::vector<Config> configs;
  for (const WorkMethod& method : st.methods)
    for (std::size_t k = 0; k < method.dts.size(); ++k) {
      // Run k's dt and dx are the method's dt[k] and dx[k]: messages name them there.
      std::vector<Override> extra = method.overrides;
      extra.push_back({assign("time.dt", method.dts[k]), method.dt_where});
      if (!method.dxs.empty()) extra.push_back({assign("domain.dx", method.dxs[k]), method.dx_where});
      configs.push_back(study_run(st, extra, options.build));
      if (field && reference_run)
        check_on_reference_grid(method, configs.back().domain, reference_run->domain);
    }
  const int dims = configs.front().domain.dims;
  const std::string base_is = " (the base config, " + st.base + ", is a " +
                              configs.front().domain.kind() +
                              "; field_rmse and activation_time measure any domain)";
  if (st.quantity == StudyQuantity::spiral_period && dims != 2)
    throw ConfigError(st.quantity_where + ": quantity: spiral_period needs a sheet with a spiral" +
                      base_is);
  if (st.quantity == StudyQuantity::pulse_speed && dims != 1)
    throw ConfigError(st.quantity_where + ": quantity: pulse_speed needs a cable" + base_is);
  const Point probe = study_probe(st, configs.front().domain);
  // On a sheet with tissue the probe reads the tissue nodes of its cell alone (FrameView::at):
  // every run's grid must give it some, as output.probes' check asks of a run's probes.
  for (const Config& run : configs) {
    if (st.quantity != StudyQuantity::activation_time || run.tissue.empty()) continue;
    const std::vector<std::uint8_t> mask = tissue_mask(run.tissue, run.domain);
    if (!in_tissue(run.tissue, probe) ||
        tissue_weight(run.domain, probe, mask.empty() ? nullptr : mask.data()) == 0.0)
      throw ConfigError(st.probe_where + ": probe: (" + format_exact(probe[0]) + ", " +
                        format_exact(probe[1]) + ") reads no tissue on the grid of dx = " +
                        format_exact(run.domain.dx) + " (it lies outside the tissue, or no "
                        "node of its grid cell that carries weight is tissue); move it into "
                        "the medium");
  }
  if (st.quantity == StudyQuantity::spiral_period) std::filesystem::create_directories(dir / "tips");
  // The reference: the value given, or a fine run measured the same way. field_rmse: the run's
  // v at time.end; a run's value is then its RMSE from it over the run's nodes (an adaptive
  // run's v interpolated linearly onto its base grid: distance_on_common_nodes), and the
  // relative error that over the reference's RMS value (`reference`).
  Snapshot reference_state;
  real reference = 0.0;
  std::string reference_text;
  if (st.reference_exact) {
    reference = *st.reference_exact;
    reference_text = "the value " + format_exact(reference);
  } else {
    Measured m =
        measure_repeated(*reference_run, st, probe, dir / "tips" / "reference.csv", runs, 1);
    FHN_VERIFY(m.value.has_value(), NumericalError,
               "work_precision: the reference run (dt = " + format_exact(st.reference_dt) +
                   ") shows no " + quantity + "; run it longer or check the base config");
    reference = *m.value;
    reference_text = "a run with dt = " + format_exact(st.reference_dt) +
                     (st.reference_dx > 0.0 ? ", dx = " + format_exact(st.reference_dx) : "") +
                     " (" +
                     (st.reference_overrides.empty() ? std::string("the base config's scheme")
                                                      : joined(st.reference_overrides)) +
                     "): " + (field ? "v at t = " + format_exact(m.last.t) + ", RMS " : "") +
                     format_exact(reference) + ", " + number(m.seconds, 3) + " s";
    reference_state = std::move(m.last);
  }

  struct Row {
    std::string method;
    real dt = 0.0;
    real dx = 0.0;
    Measured m;
    real error = kNaN;     // |value - reference| (NaN: no value)
    real relative = kNaN;  // error / |reference|
  };
  std::vector<Row> rows;
  // One run at a time, so that each has the machine (or the GPU) to itself.
  std::size_t run = 0;
  for (const WorkMethod& method : st.methods)
    for (std::size_t k = 0; k < method.dts.size(); ++k) {
      Row row{method.label, method.dts[k], configs[run].domain.dx, {}};
      row.m = measure_repeated(configs[run++], st, probe,
                               dir / "tips" / (method.label + "_" + std::to_string(k) + ".csv"),
                               runs, st.repeats);
      if (field) {
        row.m.value = distance_on_common_nodes(row.m.last, reference_state, Norm::rmse);
        row.error = *row.m.value;
      } else if (row.m.value) {
        row.error = std::abs(*row.m.value - reference);
      }
      if (row.m.value) row.relative = row.error / std::abs(reference);
      rows.push_back(row);
    }

  // The table names each run's dx where some run leaves the base's grid; the CSVs always do.
  const bool grids = st.reference_dx > 0.0 ||
                     std::any_of(st.methods.begin(), st.methods.end(),
                                 [](const WorkMethod& m) { return !m.dxs.empty(); });
  out << "work-precision study '" << st.name << "': " << quantity << " against " << reference_text
      << "; time: stepping and fetching the frames, the least of " << st.repeats
      << (st.repeats == 1 ? " run" : " runs") << "\n\n  " << pad("method", 20) << pad("dt", 12)
      << (grids ? pad("dx", 10) : "") << pad(quantity, 16) << pad("error", 12)
      << pad("relative", 12) << "seconds\n";
  std::string csv = "method,dt," + quantity + ",error,relative_error,seconds,steps,dx\n";
  for (const Row& r : rows) {
    const real error = r.error, relative = r.relative;
    out << "  " << pad(r.method, 20) << pad(number(r.dt, 6), 12)
        << (grids ? pad(number(r.dx, 6), 10) : "")
        << pad(r.m.value ? number(*r.m.value, 8) : "-", 16) << pad(number(error, 3), 12)
        << pad(number(relative, 3), 12) << number(r.m.seconds, 4) << "\n";
    csv += r.method + "," + format_exact(r.dt) + "," + (r.m.value ? format_exact(*r.m.value) : "") +
           "," + (std::isnan(error) ? "" : format_exact(error)) + "," +
           (std::isnan(relative) ? "" : format_exact(relative)) + "," + format_exact(r.m.seconds) +
           "," + std::to_string(r.m.steps) + "," + format_exact(r.dx) + "\n";
  }
  write_file_atomically(dir / "work_precision.csv", csv);

  // For each target, the fastest run whose relative error is at most the target.
  out << "\n  the fastest run within each target (relative error):\n";
  std::string choice = "target,method,dt,relative_error,seconds,dx\n";
  for (const real target : st.targets) {
    const Row* best = nullptr;
    for (const Row& r : rows)
      if (r.relative <= target && (!best || r.m.seconds < best->m.seconds))
        best = &r;
    out << "  " << pad(number(target, 3), 10)
        << (best ? best->method + " at dt = " + format_exact(best->dt) +
                       (grids ? ", dx = " + format_exact(best->dx) : std::string()) + ", " +
                       number(best->m.seconds, 4) + " s"
                 : std::string("no run reaches it"))
        << "\n";
    choice += format_exact(target) + "," +
              (best ? best->method + "," + format_exact(best->dt) + "," +
                          format_exact(best->relative) + "," +
                          format_exact(best->m.seconds) + "," + format_exact(best->dx)
                    : std::string(",,,,")) +
              "\n";
  }
  write_file_atomically(dir / "work_precision_choice.csv", choice);
  return dir / "work_precision.csv";
}

}  // namespace study_detail
}  // namespace fhn
