// fhn converge: run_study picks the output folder and hands the study to its kind's runner
// (convergence_study.cpp, stability_study.cpp, newton_study.cpp, adaptive_study.cpp,
// work_precision_study.cpp); here too what the kinds share (study_detail.hpp) and states_at.
#include "study/study.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>

#include "core/error.hpp"
#include "core/format.hpp"
#include "io/output_folder.hpp"
#include "model/problem.hpp"
#include "schemes/scheme.hpp"
#include "study/study_detail.hpp"
#include "study/study_runs.hpp"

namespace fhn {
namespace study_detail {

Config study_run(const StudyConfig& st, const std::vector<Override>& extra,
                 const BuildCapabilities& build) {
  std::vector<Override> overrides = st.overrides;
  overrides.insert(overrides.end(), extra.begin(), extra.end());
  const std::vector<Override> no_frames =
      made_by(st, {"output.vtk=false", "output.spacetime=false", "output.newton_log=false"});
  overrides.insert(overrides.end(), no_frames.begin(), no_frames.end());
  return load_config(st.base, overrides, build);
}

std::vector<Override> made_by(const StudyConfig& st, const std::vector<std::string>& assignments) {
  std::vector<Override> out;
  for (const std::string& assignment : assignments)
    out.push_back({assignment, st.source + " (the study's run with " + assignment + ")"});
  return out;
}

std::string assign(const std::string& key, real value) { return key + "=" + format_exact(value); }

std::vector<std::string> end_at(real end) {
  return {assign("time.end", end), assign("output.every", end)};
}

std::string number(real x, int digits) {
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

}  // namespace study_detail

std::vector<Snapshot> states_at(const Config& config, const std::vector<real>& times, GridStats* grid,
                                StudyRuns* runs) {
  const bool kept = runs != nullptr && grid == nullptr;
  std::string what = "states at t =";
  for (const real t : times) what += " " + format_exact(t);
  if (kept)
    if (std::optional<StoredRun> found = runs->find(config, what)) return std::move(found->states);
  const Problem problem = make_problem(config);
  std::unique_ptr<Scheme> scheme = make_scheme(config, problem);
  // Under fhn converge the run advances in chunks of whole passes, the signal polled between.
  const index_t pass = scheme->steps_per_pass();
  const index_t chunk = runs != nullptr ? pass * std::max<index_t>(1, 256 / pass)
                                        : std::numeric_limits<index_t>::max();
  std::vector<Snapshot> states;
  for (const real t : times) {
    const index_t steps = std::llround(t / config.time.dt);
    FHN_VERIFY(std::abs(config.time.grid().t(steps) - t) <= 1e-9 * t &&
                   steps >= scheme->steps_done(),
               ConfigError,
               "compare.times: t = " + format_exact(t) + " is not a whole number of steps of time.dt = " +
                   format_exact(config.time.dt));
    while (scheme->steps_done() < steps) {
      if (runs != nullptr) runs->stop_if_interrupted();
      scheme->advance(std::min(chunk, steps - scheme->steps_done()));
    }
    states.emplace_back();
    scheme->snapshot(states.back());
  }
  if (grid != nullptr && scheme->grid_stats() != nullptr) *grid = *scheme->grid_stats();
  if (kept) runs->keep(config, what, {{}, states});
  return states;
}

namespace {

// The files a study of `kind` writes in its folder: its tables, its run.log and the runs it
// keeps (runs/, study_runs.hpp), no more. Its configs' pictures (.png, .vti) cannot take these
// names.
std::vector<std::string> study_tables(StudyKind kind) {
  std::vector<std::string> files = {"run.log", "runs/"};
  switch (kind) {
    case StudyKind::convergence: files.push_back("convergence.csv"); break;
    case StudyKind::stability: files.push_back("stability.csv"); break;
    case StudyKind::newton: files.push_back("newton.csv"); break;
    case StudyKind::adaptive: files.push_back("adaptive.csv"); break;
    case StudyKind::work_precision:
      files.insert(files.end(), {"work_precision.csv", "work_precision_choice.csv"});
      break;
  }
  return files;
}

}  // namespace

std::filesystem::path run_study(const StudyConfig& study, const StudyOptions& options, std::ostream& out) {
  const std::filesystem::path dir =
      options.output_dir.empty() ? std::filesystem::path("output") / study.name : options.output_dir;
  OutputFolder folder(dir);  // locked until the study returns
  folder.claim(study_tables(study.kind), {});  // replaces no file fhn did not write
  const InterruptGuard interrupt;  // SIGINT, SIGTERM, SIGUSR1: a clean stop between steps
  StudyRuns runs(dir, interrupt);
  runs.log("study: " + study.source + " (base: " + study.base + ")");
  auto run_kind = [&] {
    using namespace study_detail;
    switch (study.kind) {
      case StudyKind::convergence: return run_convergence(study, options, dir, out, runs);
      case StudyKind::stability: return run_stability(study, options, dir, out, runs);
      case StudyKind::newton: return run_newton(study, options, dir, out, runs);
      case StudyKind::adaptive: return run_adaptive(study, options, dir, out, runs);
      case StudyKind::work_precision: return run_work_precision(study, options, dir, out, runs);
    }
    return dir;
  };
  auto taken = [&] {
    return runs.taken() > 0 ? ", " + std::to_string(runs.taken()) + " taken over from runs/"
                            : std::string();
  };
  try {
    const std::filesystem::path csv = run_kind();
    runs.log("done: " + std::to_string(runs.kept()) + " runs made and kept in runs/" + taken() +
             "; " + csv.string());
    return csv;
  } catch (const InterruptedError&) {
    const std::string message =
        "interrupted: " + std::to_string(runs.kept()) + " runs finished and kept in " +
        (dir / "runs").string() + taken() + " (run.log names them)\n  continue with: fhn converge " +
        shell_quoted(study.source) + " --output " + shell_quoted(dir.string()) +
        "\n  (the same command into the same folder takes over the kept runs, checked by their "
        "config digest, and runs the others)";
    runs.log("stopped: " + message);
    throw InterruptedError(message);
  }
}

}  // namespace fhn
