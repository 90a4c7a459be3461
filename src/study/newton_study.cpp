// fhn converge, Newton studies: a few Crank-Nicolson steps per tridiagonal solver with every
// Newton iteration recorded; iteration counts and the observed order (newton.csv).
#include "study/study.hpp"

#include <algorithm>
#include <memory>
#include <ostream>

#include "core/error.hpp"
#include "core/format.hpp"
#include "io/atomic_file.hpp"
#include "model/problem.hpp"
#include "schemes/scheme.hpp"
#include "study/study_detail.hpp"

namespace fhn::study_detail {
namespace {

class RecordingLog final : public NewtonLog {
 public:
  void record(const NewtonIteration& it) override { iterations.push_back(it); }
  std::vector<NewtonIteration> iterations;
};

}  // namespace

std::filesystem::path run_newton(const StudyConfig& st, const StudyOptions& options,
                                 const std::filesystem::path& dir, std::ostream& out,
                                 StudyRuns& runs) {
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
    // A few steps per solver, their Newton iterations recorded: not kept, run again when the
    // study continues; a signal stops it between solvers.
    runs.stop_if_interrupted();
    RecordingLog log;
    std::unique_ptr<Scheme> scheme;
    try {
      const Config c = study_run(st, made_by(st, extra), options.build);
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

}  // namespace fhn::study_detail
