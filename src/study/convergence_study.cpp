// fhn converge, convergence studies: the runs at each level of the refined parameter (and the
// reference), the errors against the reference and the observed orders (convergence.csv).
#include "study/study.hpp"

#include <algorithm>
#include <cmath>
#include <ostream>

#include "core/format.hpp"
#include "io/atomic_file.hpp"
#include "study/convergence.hpp"
#include "study/study_detail.hpp"

namespace fhn {
namespace study_detail {
namespace {

// Overrides that set the refined parameter; dx replaces a base config's node count.
std::vector<std::string> refine_to(const StudyConfig& st, real value) {
  if (st.refine == "domain.dx") return {"domain.nodes=~", assign("domain.dx", value)};
  return {assign(st.refine, value)};
}

}  // namespace

std::filesystem::path run_convergence(const StudyConfig& st, const StudyOptions& options,
                                      const std::filesystem::path& dir, std::ostream& out,
                                      StudyRuns& study_runs) {
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
    return states_at(study_run(st, made_by(st, extra), options.build), times, nullptr, &study_runs);
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

}  // namespace study_detail

using study_detail::kNaN;

std::vector<ConvergenceRow> convergence_table(const std::vector<std::vector<Snapshot>>& levels,
                                              const std::vector<real>& values,
                                              const std::vector<Snapshot>& reference,
                                              const std::vector<real>& times, real ratio, Norm norm) {
  // Each level is compared on the coarser of its own and the reference's grids (an adaptive
  // run's base grid: distance_on_common_nodes).
  auto distance = [norm](const Snapshot& a, const Snapshot& b) {
    return a.domain.node_count() <= b.domain.node_count() ? distance_on_common_nodes(a, b, norm)
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

}  // namespace fhn
