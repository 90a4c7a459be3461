// fhn converge: run_study picks the output folder and hands the study to its kind's runner
// (convergence_study.cpp, stability_study.cpp, newton_study.cpp, adaptive_study.cpp,
// work_precision_study.cpp); here too what the kinds share (study_detail.hpp) and states_at.
#include "study/study.hpp"

#include <cmath>
#include <cstdio>
#include <memory>

#include "core/error.hpp"
#include "core/format.hpp"
#include "io/output_folder.hpp"
#include "model/problem.hpp"
#include "study/study_detail.hpp"

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

std::vector<Snapshot> states_at(const Config& config, const std::vector<real>& times, GridStats* grid) {
  const Problem problem = make_problem(config);
  std::unique_ptr<Scheme> scheme = make_scheme(config, problem);
  std::vector<Snapshot> states;
  for (const real t : times) {
    const index_t steps = std::llround(t / config.time.dt);
    FHN_VERIFY(std::abs(config.time.grid().t(steps) - t) <= 1e-9 * t &&
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

namespace {

// The files a study of `kind` writes in its folder: its tables, no more. Its configs' pictures
// (.png, .vti) cannot take these names.
std::vector<std::string> study_tables(StudyKind kind) {
  switch (kind) {
    case StudyKind::convergence: return {"convergence.csv"};
    case StudyKind::stability: return {"stability.csv"};
    case StudyKind::newton: return {"newton.csv"};
    case StudyKind::adaptive: return {"adaptive.csv"};
    case StudyKind::work_precision: return {"work_precision.csv", "work_precision_choice.csv"};
  }
  return {};
}

}  // namespace

std::filesystem::path run_study(const StudyConfig& study, const StudyOptions& options, std::ostream& out) {
  const std::filesystem::path dir =
      options.output_dir.empty() ? std::filesystem::path("output") / study.name : options.output_dir;
  OutputFolder folder(dir);  // locked until the study returns
  folder.claim(study_tables(study.kind), {});  // replaces no file fhn did not write
  switch (study.kind) {
    case StudyKind::convergence: return study_detail::run_convergence(study, options, dir, out);
    case StudyKind::stability: return study_detail::run_stability(study, options, dir, out);
    case StudyKind::newton: return study_detail::run_newton(study, options, dir, out);
    case StudyKind::adaptive: return study_detail::run_adaptive(study, options, dir, out);
    case StudyKind::work_precision:
      return study_detail::run_work_precision(study, options, dir, out);
  }
  return dir;
}

}  // namespace fhn
