// fhn converge, adaptive studies: adaptive_explicit against explicit on its base grid, both
// against a finer reference, per tolerance (adaptive.csv).
#include "study/study.hpp"

#include <algorithm>
#include <ostream>

#include "core/format.hpp"
#include "grid/adaptive_grid.hpp"
#include "io/atomic_file.hpp"
#include "study/convergence.hpp"
#include "study/study_detail.hpp"

namespace fhn {
namespace study_detail {

std::filesystem::path run_adaptive(const StudyConfig& st, const StudyOptions& options,
                                   const std::filesystem::path& dir, std::ostream& out,
                                   StudyRuns& runs) {
  const std::vector<AdaptiveAccuracy> results = adaptive_accuracy(st, options.build, &runs);
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

}  // namespace study_detail

using namespace study_detail;

std::vector<AdaptiveAccuracy> adaptive_accuracy(const StudyConfig& st,
                                                const BuildCapabilities& build, StudyRuns* runs) {
  const Config base = study_run(st, made_by(st, {"scheme.type=adaptive_explicit"}), build);
  std::vector<real> times = st.times.empty() ? std::vector<real>{base.time.end} : st.times;
  std::sort(times.begin(), times.end());
  const std::vector<real> tolerances =
      st.tolerances.empty() ? std::vector<real>{base.scheme.adaptive.tolerance} : st.tolerances;
  const std::vector<std::string> end = end_at(times.back());
  auto run = [&](std::vector<std::string> extra) {
    extra.insert(extra.end(), end.begin(), end.end());
    return study_run(st, made_by(st, extra), build);
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
    states[i] =
        states_at(configs[i], times, adaptive_at_dt ? &grids[(i - shared) / 2] : nullptr, runs);
  });

  std::vector<AdaptiveAccuracy> results;
  for (std::size_t k = 0; k < tolerances.size(); ++k) {
    const std::size_t adaptive = shared + 2 * k, adaptive_space = adaptive + 1;
    AdaptiveAccuracy result;
    result.tolerance = tolerances[k];
    result.base_nodes = grids[k].base_nodes();
    result.mean_nodes = grids[k].mean_nodes();
    for (std::size_t t = 0; t < times.size(); ++t) {
      // || I(v_run) - v_other || on the base grid (`other` on the base grid or finer; the
      // adaptive run's v interpolated linearly, distance_on_common_nodes).
      auto distance = [&](std::size_t run_index, const Snapshot& other) {
        return distance_on_common_nodes(states[run_index][t], other, st.norm);
      };
      const Snapshot& ref = states[reference][t];
      AdaptiveAccuracyRow row;
      row.time = times[t];
      row.adaptive_nodes = static_cast<index_t>(states[adaptive][t].v.size());
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

}  // namespace fhn
