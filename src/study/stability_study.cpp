// fhn converge, stability studies: runs over dt / dx^2 ratios (and tridiagonal solvers), each
// judged bounded and free of grid-scale oscillation or not (stability.csv).
#include "study/study.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <ostream>

#include "config/names.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "io/atomic_file.hpp"
#include "study/convergence.hpp"
#include "study/study_detail.hpp"

namespace fhn {
namespace study_detail {

std::filesystem::path run_stability(const StudyConfig& st, const StudyOptions& options,
                                    const std::filesystem::path& dir, std::ostream& out,
                                    StudyRuns& runs) {
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
      final = states_at(study_run(st, made_by(st, extra), options.build), {end}, nullptr, &runs)
                  .front();
    } catch (const InterruptedError&) {
      throw;  // the study stops (a run that failed is a row)
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

}  // namespace study_detail

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
  if (s.domain.dims < 2) return zigzag_amplitude(s.v, floor);
  const auto nx = static_cast<std::size_t>(s.domain.nodes[0]);
  const auto ny = static_cast<std::size_t>(s.domain.nodes[1]);
  real largest = 0.0;
  for (std::size_t j = 0; j < ny; ++j) largest = std::max(largest, zigzag_along(&s.v[nx * j], nx, 1, floor));
  for (std::size_t i = 0; i < nx; ++i) largest = std::max(largest, zigzag_along(&s.v[i], ny, nx, floor));
  return largest;
}

}  // namespace fhn
