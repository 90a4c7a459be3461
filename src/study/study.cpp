#include "study/study.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <limits>
#include <ostream>
#include <thread>

#include "config/names.hpp"
#include "core/error.hpp"
#include "core/first_error.hpp"
#include "core/format.hpp"
#include "io/atomic_file.hpp"
#include "io/output_folder.hpp"
#include "grid/adaptive_grid.hpp"
#include "model/problem.hpp"
#include "study/convergence.hpp"

namespace fhn {
namespace {

constexpr real kNaN = std::numeric_limits<real>::quiet_NaN();

// Runs body(0..count-1) on up to hardware_concurrency threads (one when `serial`, e.g. for the
// GPU); the exception of the lowest i is rethrown once every thread has stopped.
template <class Body>
void parallel_for(std::size_t count, bool serial, Body body) {
  const std::size_t threads =
      serial ? 1 : std::max<std::size_t>(1, std::min<std::size_t>(count, std::thread::hardware_concurrency()));
  std::atomic<std::size_t> next{0};
  FirstError failed;
  auto worker = [&] {
    for (std::size_t i = next++; i < count; i = next++)
      failed.guard(static_cast<index_t>(i), [&] { body(i); });
  };
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& thread : pool) thread.join();
  failed.rethrow();
}

// A run config of the study: the base config, the study's overrides, then `extra`. Frames are
// not written by studies.
Config study_run(const StudyConfig& st, std::vector<std::string> extra, const BuildCapabilities& build) {
  std::vector<std::string> overrides = st.overrides;
  overrides.insert(overrides.end(), extra.begin(), extra.end());
  overrides.insert(overrides.end(), {"output.vtk=false", "output.spacetime=false", "output.newton_log=false"});
  return load_config(st.base, overrides, build);
}

std::string assign(const std::string& key, real value) { return key + "=" + format_exact(value); }

// Overrides that set the refined parameter; dx replaces a base config's node count.
std::vector<std::string> refine_to(const StudyConfig& st, real value) {
  if (st.refine == "domain.dx") return {"domain.nodes=~", assign("domain.dx", value)};
  return {assign(st.refine, value)};
}

// Overrides that make a run end at the last comparison time, with frames only there.
std::vector<std::string> end_at(real end) {
  return {assign("time.end", end), assign("output.every", end)};
}

std::string number(real x, int digits = 4) {
  if (std::isnan(x)) return "-";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.*g", digits, x);
  return buffer;
}

std::string pad(const std::string& text, std::size_t width) {
  return text.size() >= width ? text + " " : text + std::string(width - text.size(), ' ');
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

bool uses_device(const Config& c) { return c.scheme.backend == Backend::cuda; }

// ---- convergence ------------------------------------------------------------------------------

std::filesystem::path run_convergence(const StudyConfig& st, const StudyOptions& options,
                                      const std::filesystem::path& dir, std::ostream& out) {
  const Config base = study_run(st, {}, options.build);
  std::vector<real> times = st.times.empty() ? std::vector<real>{base.time.end} : st.times;
  std::sort(times.begin(), times.end());
  std::vector<real> values(static_cast<std::size_t>(st.levels));
  for (std::size_t l = 0; l < values.size(); ++l)
    values[l] = st.start / std::pow(st.ratio, static_cast<real>(l));

  auto level_states = [&](real value) {
    std::vector<std::string> extra = refine_to(st, value);
    const std::vector<std::string> end = end_at(times.back());
    extra.insert(extra.end(), end.begin(), end.end());
    return states_at(study_run(st, extra, options.build), times);
  };
  // Every run, the explicit reference included, in parallel on the CPU.
  const bool extra_reference = st.reference == ReferenceKind::value;
  std::vector<std::vector<Snapshot>> runs(values.size() + (extra_reference ? 1 : 0));
  parallel_for(runs.size(), uses_device(base), [&](std::size_t i) {
    runs[i] = level_states(i < values.size() ? values[i] : st.reference_value);
  });

  std::vector<Snapshot> reference;
  std::string reference_text;
  std::vector<std::vector<Snapshot>> levels(runs.begin(), runs.begin() + static_cast<std::ptrdiff_t>(values.size()));
  std::vector<real> level_values = values;
  switch (st.reference) {
    case ReferenceKind::finest:
      reference = levels.back();
      levels.pop_back();
      level_values.pop_back();
      reference_text = "the finest level (" + st.refine + " = " + format_exact(values.back()) + ")";
      break;
    case ReferenceKind::value:
      reference = runs.back();
      reference_text = "a run with " + st.refine + " = " + format_exact(st.reference_value);
      break;
    case ReferenceKind::richardson: {
      const std::size_t n = levels.size();
      reference_text = "Richardson extrapolation of the two finest levels, order p from the three finest:";
      for (std::size_t t = 0; t < times.size(); ++t) {
        const real order = successive_orders({levels[n - 3][t], levels[n - 2][t], levels[n - 1][t]},
                                             st.norm, st.ratio)
                               .front();
        reference.push_back(richardson(levels[n - 2][t], levels[n - 1][t], st.ratio, order));
        reference_text += " p = " + number(order) + " at t = " + format_exact(times[t]) + ";";
      }
      reference_text.pop_back();
      break;
    }
  }

  const std::vector<ConvergenceRow> rows =
      convergence_table(levels, level_values, reference, times, st.ratio, st.norm);
  out << "convergence study '" << st.name << "': " << st.refine << " from " << format_exact(st.start)
      << " divided by " << format_exact(st.ratio) << " over " << st.levels << " levels, "
      << (st.norm == Norm::rmse ? "RMSE" : "max norm") << " against " << reference_text << "\n";
  std::string csv = "time,level," + st.refine + ",nodes,error,order\n";
  for (std::size_t t = 0; t < times.size(); ++t) {
    out << "\n  t = " << format_exact(times[t]) << "\n  " << pad("level", 7) << pad(st.refine, 14)
        << pad("nodes", 10) << pad("error", 13) << "order\n";
    for (const ConvergenceRow& r : rows) {
      if (r.time != times[t]) continue;
      out << "  " << pad(std::to_string(r.level), 7) << pad(number(r.value, 6), 14)
          << pad(std::to_string(r.nodes), 10) << pad(number(r.error), 13) << number(r.order, 3) << "\n";
    }
  }
  for (const ConvergenceRow& r : rows)
    csv += format_exact(r.time) + "," + std::to_string(r.level) + "," + format_exact(r.value) + "," +
           std::to_string(r.nodes) + "," + format_exact(r.error) + "," +
           (std::isnan(r.order) ? std::string() : format_exact(r.order)) + "\n";
  write_file_atomically(dir / "convergence.csv", csv);
  return dir / "convergence.csv";
}

// ---- stability --------------------------------------------------------------------------------

std::filesystem::path run_stability(const StudyConfig& st, const StudyOptions& options,
                                    const std::filesystem::path& dir, std::ostream& out) {
  const Config base = study_run(st, {}, options.build);
  const bool implicit = base.scheme.type == SchemeType::crank_nicolson;
  std::vector<solvers::TridiagonalBackend> solver_list = st.solvers;
  if (solver_list.empty()) solver_list.push_back(base.scheme.crank_nicolson.tridiagonal);
  if (!implicit) solver_list.resize(1);  // the explicit scheme solves nothing

  struct Job {
    solvers::TridiagonalBackend solver;
    real ratio;
  };
  std::vector<Job> jobs;
  for (const auto solver : solver_list)
    for (const real ratio : st.ratios) jobs.push_back({solver, ratio});
  std::vector<StabilityRow> rows(jobs.size());
  bool any_device = false;
  for (const Job& job : jobs) any_device = any_device || solvers::runs_on_device(job.solver);

  const real dx = base.domain.dx;
  parallel_for(jobs.size(), any_device || uses_device(base), [&](std::size_t i) {
    StabilityRow& row = rows[i];
    const Job& job = jobs[i];
    row.solver = implicit ? std::string(solvers::backend_name(job.solver)) : "-";
    row.ratio = job.ratio;
    row.dt = job.ratio * dx * dx;
    const real end = row.dt * std::ceil(st.end / row.dt - 1e-9);
    std::vector<std::string> extra{assign("time.dt", row.dt), assign("time.end", end),
                                   assign("output.every", end)};
    if (implicit) {
      extra.push_back("scheme.crank_nicolson.tridiagonal=" + row.solver);
      if (solvers::runs_on_device(job.solver)) extra.push_back("scheme.backend=cuda");
    }
    Snapshot final;
    try {
      final = final_state(study_run(st, extra, options.build));
    } catch (const ConfigError& e) {
      row.status = "refused";
      const std::string message = e.what();  // "invalid configuration:\n  <the problem>"
      const std::string problem = first_line(message.substr(message.find('\n') + 1));
      row.detail = problem.substr(problem.find_first_not_of(' '));
      return;
    } catch (const Error& e) {
      row.status = "failed";
      row.detail = first_line(e.what());
      return;
    }
    bool finite = true;
    for (std::size_t j = 0; j < final.v.size(); ++j) {
      finite = finite && std::isfinite(final.v[j]);
      row.max_abs_v = std::max(row.max_abs_v, std::abs(final.v[j]));
    }
    if (!finite) row.max_abs_v = std::numeric_limits<real>::infinity();
    row.oscillation = finite ? zigzag_amplitude(final) : kNaN;
    if (!finite || row.max_abs_v > st.bound)
      row.status = "unbounded";
    else if (row.oscillation > st.oscillation_tolerance)
      row.status = "oscillating";
    else
      row.status = "ok";
  });

  out << "stability study '" << st.name << "': " << name_of(scheme_type_names(), base.scheme.type)
      << ", dx = " << format_exact(dx) << ", to t = " << format_exact(st.end) << "; bounded means |v| <= "
      << format_exact(st.bound) << ", oscillation-free means zig-zags below "
      << format_exact(st.oscillation_tolerance) << "\n\n  " << pad("solver", 18) << pad("dt/dx^2", 10)
      << pad("dt", 11) << pad("status", 13) << pad("max|v|", 11) << "zig-zag\n";
  std::string csv = "solver,ratio,dt,status,max_abs_v,oscillation,detail\n";
  for (const StabilityRow& r : rows) {
    out << "  " << pad(r.solver, 18) << pad(number(r.ratio), 10) << pad(number(r.dt), 11)
        << pad(r.status, 13) << pad(r.status == "refused" || r.status == "failed" ? "-" : number(r.max_abs_v), 11)
        << (r.detail.empty() ? number(r.oscillation, 3) : r.detail) << "\n";
    std::string detail = r.detail;
    std::replace(detail.begin(), detail.end(), ',', ';');
    csv += r.solver + "," + format_exact(r.ratio) + "," + format_exact(r.dt) + "," + r.status + "," +
           format_exact(r.max_abs_v) + "," + (std::isnan(r.oscillation) ? "" : format_exact(r.oscillation)) +
           "," + detail + "\n";
  }
  // Per solver: the largest ratio up to which every run was fine.
  out << "\n";
  for (const auto solver : solver_list) {
    const std::string name = implicit ? std::string(solvers::backend_name(solver)) : "-";
    real good = kNaN;
    std::string first_bad;
    for (const StabilityRow& r : rows) {
      if (r.solver != name) continue;
      if (r.status != "ok") {
        first_bad = r.status + " at dt/dx^2 = " + number(r.ratio);
        break;
      }
      good = r.ratio;
    }
    out << "  " << (implicit ? name : std::string("explicit")) << ": bounded and oscillation-free up to dt/dx^2 = "
        << number(good) << (first_bad.empty() ? " (all tested)" : "; " + first_bad) << "\n";
  }
  write_file_atomically(dir / "stability.csv", csv);
  return dir / "stability.csv";
}

// ---- newton -----------------------------------------------------------------------------------

class RecordingLog final : public NewtonLog {
 public:
  void record(const NewtonIteration& it) override { iterations.push_back(it); }
  std::vector<NewtonIteration> iterations;
};

std::filesystem::path run_newton(const StudyConfig& st, const StudyOptions& options,
                                 const std::filesystem::path& dir, std::ostream& out) {
  const Config base = study_run(st, {}, options.build);
  FHN_VERIFY(base.scheme.type == SchemeType::crank_nicolson, ConfigError,
             st.source + ": a newton study needs a base config with scheme.type: crank_nicolson");
  std::vector<solvers::TridiagonalBackend> solver_list = st.solvers;
  if (solver_list.empty()) solver_list.push_back(base.scheme.crank_nicolson.tridiagonal);

  out << "newton study '" << st.name << "': " << st.steps << " steps of dt = " << format_exact(base.time.dt)
      << ", dx = " << format_exact(base.domain.dx) << ", tolerance "
      << format_exact(base.scheme.crank_nicolson.newton.tolerance) << "\n\n  " << pad("solver", 18)
      << pad("mean it.", 10) << pad("max it.", 9) << pad("q-order", 9) << "max ||du_k+1||/||du_k||^2\n";
  std::string csv = "solver,step,iteration,du_inf,residual_inf\n";
  for (const auto solver : solver_list) {
    const std::string name(solvers::backend_name(solver));
    std::vector<std::string> extra{"scheme.crank_nicolson.tridiagonal=" + name,
                                   assign("time.end", base.time.dt * static_cast<real>(st.steps)),
                                   assign("output.every", base.time.dt)};
    if (solvers::runs_on_device(solver)) extra.push_back("scheme.backend=cuda");
    RecordingLog log;
    std::unique_ptr<Scheme> scheme;
    try {
      const Config c = study_run(st, extra, options.build);
      const Problem problem = make_problem(c);
      scheme = make_scheme(c, problem, &log);
      scheme->advance(st.steps);
    } catch (const DeviceError& e) {
      out << "  " << pad(name, 18) << "skipped: " << first_line(e.what()) << "\n";
      continue;
    }
    real constant = 0.0;
    for (std::size_t i = 0; i < log.iterations.size(); ++i) {
      const NewtonIteration& it = log.iterations[i];
      csv += name + "," + std::to_string(it.step) + "," + std::to_string(it.iteration) + "," +
             format_exact(it.du_inf) + "," + format_exact(it.residual_inf) + "\n";
      if (i > 0 && log.iterations[i - 1].step == it.step && it.du_inf > 1e-13)
        constant = std::max(constant, it.du_inf / (log.iterations[i - 1].du_inf * log.iterations[i - 1].du_inf));
    }
    const NewtonStats& stats = *scheme->newton_stats();
    out << "  " << pad(name, 18) << pad(number(stats.mean_iterations(), 3), 10)
        << pad(std::to_string(stats.max_iterations()), 9)
        << pad(stats.order_samples() > 0 ? number(stats.convergence_order(), 3) : "-", 9) << number(constant, 3)
        << "\n";
  }
  write_file_atomically(dir / "newton.csv", csv);
  return dir / "newton.csv";
}

// ---- adaptive accuracy --------------------------------------------------------------------------

std::filesystem::path run_adaptive(const StudyConfig& st, const StudyOptions& options,
                                   const std::filesystem::path& dir, std::ostream& out) {
  const std::vector<AdaptiveAccuracy> results = adaptive_accuracy(st, options.build);
  out << "adaptive study '" << st.name << "': adaptive_explicit against explicit on the base grid of "
      << results.front().base_nodes << " nodes, both against a reference with dx / "
      << st.dx_divisor << ", dt / " << st.dt_divisor << "; error: "
      << (st.norm == Norm::rmse ? "RMSE" : "max norm")
      << " of v on the base grid (adaptive v interpolated linearly); 'space': both runs with the "
         "reference's dt; 'a - u': the distance between the adaptive and the uniform run over "
         "the uniform run's error\n";
  std::string csv =
      "time,base_nodes,adaptive_nodes,mean_nodes,uniform_error,adaptive_error,ratio,"
      "uniform_space_error,adaptive_space_error,space_ratio,tolerance,grid_distance,grid_ratio,"
      "grid_space_distance,grid_space_ratio\n";
  for (const AdaptiveAccuracy& a : results) {
    out << "\n  tolerance " << number(a.tolerance) << ": adaptive nodes averaged over the time "
        << "steps " << number(a.mean_nodes) << " (ratio " << number(a.mean_ratio(), 3) << ")\n  "
        << pad("t", 9) << pad("nodes", 7) << pad("uniform", 11) << pad("adaptive", 11)
        << pad("ratio", 7) << pad("a - u", 9) << pad("uniform space", 15)
        << pad("adaptive space", 16) << pad("ratio", 7) << "a - u\n";
    for (const AdaptiveAccuracyRow& r : a.rows) {
      out << "  " << pad(number(r.time), 9) << pad(std::to_string(r.adaptive_nodes), 7)
          << pad(number(r.uniform_error), 11) << pad(number(r.adaptive_error), 11)
          << pad(number(r.ratio(), 3), 7) << pad(number(r.grid_ratio(), 3), 9)
          << pad(number(r.uniform_space_error), 15) << pad(number(r.adaptive_space_error), 16)
          << pad(number(r.space_ratio(), 3), 7) << number(r.grid_space_ratio(), 3) << "\n";
      csv += format_exact(r.time) + "," + std::to_string(a.base_nodes) + "," +
             std::to_string(r.adaptive_nodes) + "," + format_exact(a.mean_nodes) + "," +
             format_exact(r.uniform_error) + "," + format_exact(r.adaptive_error) + "," +
             format_exact(r.ratio()) + "," + format_exact(r.uniform_space_error) + "," +
             format_exact(r.adaptive_space_error) + "," + format_exact(r.space_ratio()) + "," +
             format_exact(a.tolerance) + "," + format_exact(r.grid_distance) + "," +
             format_exact(r.grid_ratio()) + "," + format_exact(r.grid_space_distance) + "," +
             format_exact(r.grid_space_ratio()) + "\n";
    }
  }
  write_file_atomically(dir / "adaptive.csv", csv);
  return dir / "adaptive.csv";
}

}  // namespace

std::vector<AdaptiveAccuracy> adaptive_accuracy(const StudyConfig& st,
                                                const BuildCapabilities& build) {
  const Config base = study_run(st, {"scheme.type=adaptive_explicit"}, build);
  std::vector<real> times = st.times.empty() ? std::vector<real>{base.time.end} : st.times;
  std::sort(times.begin(), times.end());
  const std::vector<real> tolerances =
      st.tolerances.empty() ? std::vector<real>{base.scheme.adaptive.tolerance} : st.tolerances;
  const std::vector<std::string> end = end_at(times.back());
  auto run = [&](std::vector<std::string> extra) {
    extra.insert(extra.end(), end.begin(), end.end());
    return study_run(st, extra, build);
  };
  const std::string dx = assign("domain.dx", base.domain.dx / static_cast<real>(st.dx_divisor));
  const std::string dt = assign("time.dt", base.time.dt / static_cast<real>(st.dt_divisor));
  const std::string regrid = "scheme.adaptive.regrid_every=" +
                             std::to_string(base.scheme.adaptive.regrid_every * st.dt_divisor);
  // The shared runs first, then per tolerance the adaptive run and the one at the reference's dt.
  enum { uniform, reference, uniform_space, shared };
  std::vector<Config> configs{run({"scheme.type=explicit"}),
                              run({"scheme.type=explicit", "domain.nodes=~", dx, dt}),
                              run({"scheme.type=explicit", dt})};
  for (const real tolerance : tolerances) {
    const std::string tol = assign("scheme.adaptive.tolerance", tolerance);
    configs.push_back(run({"scheme.type=adaptive_explicit", tol}));
    configs.push_back(run({"scheme.type=adaptive_explicit", tol, dt, regrid}));
  }
  std::vector<std::vector<Snapshot>> states(configs.size());
  std::vector<GridStats> grids(tolerances.size());
  parallel_for(configs.size(), false, [&](std::size_t i) {
    const bool adaptive_at_dt = i >= shared && (i - shared) % 2 == 0;
    states[i] = states_at(configs[i], times, adaptive_at_dt ? &grids[(i - shared) / 2] : nullptr);
  });

  std::vector<AdaptiveAccuracy> results;
  for (std::size_t k = 0; k < tolerances.size(); ++k) {
    const std::size_t adaptive = shared + 2 * k, adaptive_space = adaptive + 1;
    AdaptiveAccuracy result;
    result.tolerance = tolerances[k];
    result.base_nodes = grids[k].base_nodes();
    result.mean_nodes = grids[k].mean_nodes();
    for (std::size_t t = 0; t < times.size(); ++t) {
      const std::vector<real>& base_x = states[uniform][t].x;
      // || I(v_run) - v_other || on the base grid (`other` on the base grid or finer).
      auto distance = [&](std::size_t run_index, const Snapshot& other) {
        const Snapshot& s = states[run_index][t];
        Snapshot on_base;
        on_base.x = base_x;
        on_base.v =
            interpolate_onto(s.x.data(), s.v.data(), static_cast<index_t>(s.x.size()), base_x);
        return distance_on_common_nodes(on_base, other, st.norm);
      };
      const Snapshot& ref = states[reference][t];
      AdaptiveAccuracyRow row;
      row.time = times[t];
      row.adaptive_nodes = static_cast<index_t>(states[adaptive][t].x.size());
      row.uniform_error = distance(uniform, ref);
      row.adaptive_error = distance(adaptive, ref);
      row.uniform_space_error = distance(uniform_space, ref);
      row.adaptive_space_error = distance(adaptive_space, ref);
      row.grid_distance = distance(adaptive, states[uniform][t]);
      row.grid_space_distance = distance(adaptive_space, states[uniform_space][t]);
      result.rows.push_back(row);
    }
    results.push_back(result);
  }
  return results;
}

std::vector<Snapshot> states_at(const Config& config, const std::vector<real>& times, GridStats* grid) {
  const Problem problem = make_problem(config);
  std::unique_ptr<Scheme> scheme = make_scheme(config, problem);
  std::vector<Snapshot> states;
  for (const real t : times) {
    const index_t steps = std::llround(t / config.time.dt);
    FHN_VERIFY(std::abs(static_cast<real>(steps) * config.time.dt - t) <= 1e-9 * t &&
                   steps >= scheme->steps_done(),
               ConfigError,
               "compare.times: t = " + format_exact(t) + " is not a whole number of steps of time.dt = " +
                   format_exact(config.time.dt));
    scheme->advance(steps - scheme->steps_done());
    states.emplace_back();
    scheme->snapshot(states.back());
  }
  if (grid != nullptr && scheme->grid_stats() != nullptr) *grid = *scheme->grid_stats();
  return states;
}

std::vector<ConvergenceRow> convergence_table(const std::vector<std::vector<Snapshot>>& levels,
                                              const std::vector<real>& values,
                                              const std::vector<Snapshot>& reference,
                                              const std::vector<real>& times, real ratio, Norm norm) {
  // Each level is compared on the coarser of its own and the reference's nodes.
  auto distance = [norm](const Snapshot& a, const Snapshot& b) {
    return a.v.size() <= b.v.size() ? distance_on_common_nodes(a, b, norm)
                                    : distance_on_common_nodes(b, a, norm);
  };
  std::vector<ConvergenceRow> rows;
  for (std::size_t t = 0; t < times.size(); ++t) {
    real previous = kNaN;
    for (std::size_t l = 0; l < levels.size(); ++l) {
      ConvergenceRow row;
      row.time = times[t];
      row.level = static_cast<index_t>(l);
      row.value = values[l];
      row.nodes = static_cast<index_t>(levels[l][t].v.size());
      row.error = distance(levels[l][t], reference[t]);
      row.order = l > 0 ? observed_order(previous, row.error, ratio) : kNaN;
      previous = row.error;
      rows.push_back(row);
    }
  }
  return rows;
}

Snapshot richardson(const Snapshot& coarse, const Snapshot& fine, real ratio, real order) {
  Snapshot result = coarse;
  const std::vector<real> fine_v = restrict_to(coarse, fine, fine.v);
  const std::vector<real> fine_w = restrict_to(coarse, fine, fine.w);
  const real factor = 1.0 / (std::pow(ratio, order) - 1.0);
  for (std::size_t i = 0; i < result.v.size(); ++i) {
    result.v[i] = fine_v[i] + (fine_v[i] - coarse.v[i]) * factor;
    result.w[i] = fine_w[i] + (fine_w[i] - coarse.w[i]) * factor;
  }
  return result;
}

namespace {

// zigzag_amplitude along one line: the n values v[0], v[stride], v[2 stride], ...
real zigzag_along(const real* v, std::size_t n, std::size_t stride, real floor) {
  real largest = 0.0;
  for (std::size_t i = 0; i + 3 < n; ++i) {
    const real* p = v + i * stride;
    const real d0 = p[stride] - p[0], d1 = p[2 * stride] - p[stride], d2 = p[3 * stride] - p[2 * stride];
    const bool alternating = (d0 > floor && d1 < -floor && d2 > floor) || (d0 < -floor && d1 > floor && d2 < -floor);
    if (alternating) largest = std::max(largest, std::min({std::abs(d0), std::abs(d1), std::abs(d2)}));
  }
  return largest;
}

}  // namespace

real zigzag_amplitude(const std::vector<real>& v, real floor) {
  return zigzag_along(v.data(), v.size(), 1, floor);
}

real zigzag_amplitude(const Snapshot& s, real floor) {
  if (s.y.empty()) return zigzag_amplitude(s.v, floor);
  const std::size_t nx = s.x.size(), ny = s.y.size();
  real largest = 0.0;
  for (std::size_t j = 0; j < ny; ++j) largest = std::max(largest, zigzag_along(&s.v[nx * j], nx, 1, floor));
  for (std::size_t i = 0; i < nx; ++i) largest = std::max(largest, zigzag_along(&s.v[i], ny, nx, floor));
  return largest;
}

std::filesystem::path run_study(const StudyConfig& study, const StudyOptions& options, std::ostream& out) {
  const std::filesystem::path dir =
      options.output_dir.empty() ? std::filesystem::path("output") / study.name : options.output_dir;
  const OutputFolder folder(dir);  // locked until the study returns
  switch (study.kind) {
    case StudyKind::convergence: return run_convergence(study, options, dir, out);
    case StudyKind::stability: return run_stability(study, options, dir, out);
    case StudyKind::newton: return run_newton(study, options, dir, out);
    case StudyKind::adaptive: return run_adaptive(study, options, dir, out);
  }
  return dir;
}

}  // namespace fhn
