#include "schemes/crank_nicolson_cpu.hpp"

#include <algorithm>
#include <cmath>

#include "config/names.hpp"
#include "core/error.hpp"
#include "core/format.hpp"

namespace fhn {

CrankNicolsonCpu::CrankNicolsonCpu(const Problem& problem, const CrankNicolsonSpec& spec,
                                   NewtonLog* log)
    : HostScheme(problem),
      params_(node_params(problem.model, problem.boundary, problem.nodes, problem.dx, problem.dt)),
      spec_(spec),
      log_(log),
      solver_(solvers::make_tridiagonal_solver(spec.tridiagonal, problem.nodes)),
      w_prev_(spec.w_update == WUpdate::leapfrog ? problem.nodes : 0),
      u_(problem.nodes),
      p_(problem.nodes),
      rhs_(problem.nodes),
      current_(problem.stimuli.empty() ? 0 : problem.nodes, 0.0),
      lower_(problem.nodes),
      diag_(problem.nodes),
      upper_(problem.nodes),
      residual_(problem.nodes) {
  FHN_VERIFY(solver_->space() == MemorySpace::host, ConfigError,
             "scheme.crank_nicolson.tridiagonal: '" + std::string(solver_->name()) +
                 "' works on device memory; the cpu backend needs 'thomas'");
  cn_off_diagonals(params_, lower_.data(), upper_.data());
}

std::string CrankNicolsonCpu::name() const {
  return "Crank-Nicolson/Newton (cpu, " + std::string(solver_->name()) + ", w " +
         name_of(w_update_names(), spec_.w_update) + ")";
}

real CrankNicolsonCpu::assemble(real c) {
  real largest = 0.0;
  for (index_t i = 0; i < params_.n; ++i) {
    const NewtonPoint row = cn_newton_node(u_.data(), p_.data(), rhs_.data(), c, i, params_);
    residual_[i] = row.residual;
    diag_[i] = row.diag;
    largest = std::max(largest, std::abs(row.residual));
  }
  return largest;
}

void CrankNicolsonCpu::step() {
  const index_t n = params_.n;
  const real k = params_.k;
  const real t = static_cast<real>(step_) * k;

  // 1. w+ = p + c u. Leapfrog takes its first step with the trapezoidal rule.
  const bool leapfrog = spec_.w_update == WUpdate::leapfrog && step_ > 0;
  const TrapezoidalW trap = trapezoidal_w(k, params_.epsilon, params_.gamma);
  const real c = leapfrog ? 0.0 : trap.c;
  for (index_t i = 0; i < n; ++i)
    p_[i] = cn_w_offset(v_[i], w_[i], leapfrog ? w_prev_[i] : 0.0, leapfrog, trap, params_);

  // 2. The explicit half of F, with the stimulus averaged over the step.
  if (!current_.empty()) problem_.stimuli.currents(t, 0.5, 0.5, current_.data());
  const real* current = current_.empty() ? nullptr : current_.data();
  for (index_t i = 0; i < n; ++i) rhs_[i] = cn_rhs_node(v_.data(), w_.data(), current, i, params_);

  // 3. Newton from u = v: solve J du = F(u), u -= du, until ||du||_inf < tolerance.
  std::copy(v_.begin(), v_.end(), u_.begin());
  du_history_.clear();
  std::vector<real> residual_history;
  const solvers::TridiagonalSystem jacobian{n, lower_.data(), diag_.data(), upper_.data()};
  bool converged = false;
  for (index_t iteration = 1; iteration <= spec_.newton.max_iterations && !converged; ++iteration) {
    const real residual_inf = assemble(c);
    solver_->solve(jacobian, residual_.data());  // residual_ now holds du
    real du_inf = 0.0;
    for (index_t i = 0; i < n; ++i) {
      u_[i] -= residual_[i];
      du_inf = std::max(du_inf, std::abs(residual_[i]));
    }
    du_history_.push_back(du_inf);
    residual_history.push_back(residual_inf);
    if (log_) log_->record({step_, iteration, du_inf, residual_inf});
    converged = du_inf < spec_.newton.tolerance;
    if (!std::isfinite(du_inf)) break;
  }
  if (!converged) throw newton_failure(step_, t, k, spec_.newton, du_history_, residual_history);
  stats_.add_step(du_history_);

  // 4. Accept: v+ = u, w+ = p + c u.
  if (spec_.w_update == WUpdate::leapfrog) w_prev_.swap(w_);  // w_prev_ = w^n (w_ overwritten next)
  for (index_t i = 0; i < n; ++i) w_[i] = p_[i] + c * u_[i];
  v_.swap(u_);
}

}  // namespace fhn
