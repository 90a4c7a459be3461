#include "schemes/newton.hpp"

#include <algorithm>
#include <cmath>

#include "core/format.hpp"

namespace fhn {
namespace {
constexpr std::size_t kMaxSamples = 100000;
// Updates this small are round-off: they carry no information about the convergence rate.
constexpr real kNoiseFloor = 1e-13;

// "step 19 (t = 190 -> 200)": the step a Newton failure happened in, for every message of one.
std::string newton_step_text(index_t step, real t, real dt) {
  return "step " + std::to_string(step) + " (t = " + format_exact(t) + " -> " +
         format_exact(t + dt) + ")";
}

// The tridiagonal solver refused the step's Newton matrix (`why`: its message, e.g. Thomas
// without diagonal dominance).
NumericalError newton_solve_failure(index_t step, real t, real dt, index_t iteration,
                                    const std::string& why) {
  return NumericalError("the Newton matrix of " + newton_step_text(step, t, dt) + ", iteration " +
                        std::to_string(iteration) + ", could not be solved: " + why);
}

// The Newton matrix lost diagonal dominance at `row` before a solver that does not pivot saw it.
NumericalError newton_not_dominant(index_t step, real t, real dt, index_t row) {
  return NumericalError("the Newton matrix is not diagonally dominant at row " +
                        std::to_string(row) + " in " + newton_step_text(step, t, dt) +
                        ": the GPU solvers do not pivot; reduce time.dt");
}

// Newton did not converge: the history.
NumericalError newton_failure(index_t step, real t, real dt, const NewtonSpec& spec,
                              const std::vector<real>& du_norms,
                              const std::vector<real>& residual_norms) {
  std::string history;
  for (std::size_t i = 0; i < du_norms.size(); ++i)
    history += "\n    iteration " + std::to_string(i + 1) + ": ||du||_inf = " +
               format_exact(du_norms[i]) + ", ||F||_inf = " + format_exact(residual_norms[i]);
  return NumericalError(
      "Newton did not converge in " + newton_step_text(step, t, dt) +
      ": ||du||_inf stayed above the tolerance " +
      format_exact(spec.tolerance) + " after " + std::to_string(du_norms.size()) + " iterations" +
      history +
      "\n  Hint: reduce time.dt, or raise scheme.crank_nicolson.newton.max_iterations / tolerance");
}

}  // namespace

void NewtonStats::add_step(const std::vector<real>& d) {
  ++steps_;
  const auto n = static_cast<index_t>(d.size());
  iterations_ += n;
  max_iterations_ = std::max(max_iterations_, n);
  for (std::size_t k = 1; k + 1 < d.size() && orders_.size() < kMaxSamples; ++k) {
    if (d[k + 1] < kNoiseFloor || d[k] >= d[k - 1] || d[k - 1] >= 1.0) continue;
    orders_.push_back(std::log(d[k + 1] / d[k]) / std::log(d[k] / d[k - 1]));
  }
}

real NewtonStats::convergence_order() const {
  if (orders_.empty()) return 0.0;
  std::vector<real> sorted = orders_;
  const auto middle = sorted.begin() + static_cast<std::ptrdiff_t>(sorted.size() / 2);
  std::nth_element(sorted.begin(), middle, sorted.end());
  return *middle;
}

NewtonStep::NewtonStep(const NewtonSpec& spec, index_t step, real t, real dt, NewtonLog* log,
                       NewtonStats& stats, int stage)
    : spec_(spec), step_(step), t_(t), dt_(dt), log_(log), stats_(stats), stage_(stage) {}

bool NewtonStep::record(real du_inf, real residual_inf) {
  du_.push_back(du_inf);
  residual_.push_back(residual_inf);
  if (log_) log_->record({step_, iterations(), du_inf, residual_inf, stage_});
  return !converged() && std::isfinite(du_inf) && iterations() < spec_.max_iterations;
}

bool NewtonStep::converged() const { return !du_.empty() && du_.back() < spec_.tolerance; }

void NewtonStep::finish(bool converged) {
  if (!converged) throw failure();
  stats_.add_step(du_);
}

NumericalError NewtonStep::failure() const {
  return newton_failure(step_, t_, dt_, spec_, du_, residual_);
}

NumericalError NewtonStep::solve_failure(const std::string& why) const {
  return newton_solve_failure(step_, t_, dt_, iterations() + 1, why);
}

NumericalError NewtonStep::not_dominant(index_t row) const {
  return newton_not_dominant(step_, t_, dt_, row);
}

}  // namespace fhn
