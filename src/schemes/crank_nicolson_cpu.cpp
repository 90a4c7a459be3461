#include "schemes/crank_nicolson_cpu.hpp"

#include <algorithm>
#include <cmath>

#include "config/names.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "schemes/crank_nicolson_point.hpp"

namespace fhn {

CrankNicolsonCpu::CrankNicolsonCpu(const Problem& problem, const CrankNicolsonSpec& spec,
                                   NewtonLog* log)
    : HostScheme(problem),
      spec_(spec),
      log_(log),
      solver_(solvers::make_tridiagonal_solver(spec.tridiagonal, problem.nodes)),
      w_prev_(spec.w_update == WUpdate::leapfrog ? problem.nodes : 0),
      u_(problem.nodes),
      p_(problem.nodes),
      rhs_(problem.nodes),
      current_(problem.nodes, 0.0),
      lower_(problem.nodes),
      diag_(problem.nodes),
      upper_(problem.nodes),
      residual_(problem.nodes) {
  FHN_VERIFY(solver_->space() == MemorySpace::host, ConfigError,
             "scheme.crank_nicolson.tridiagonal: '" + std::string(solver_->name()) +
                 "' works on device memory; the cpu backend needs 'thomas'");
  // -(D/2) L_h contributes -D/(2 h^2) off the diagonal; the ghost-node rows at no-flux ends
  // have (L_h u)_0 = 2 (u_1 - u_0) / h^2, i.e. -D/h^2 towards the single neighbour.
  const real h2 = problem.dx * problem.dx;
  const real off = -0.5 * problem.model.diffusion / h2;
  std::fill(lower_.begin(), lower_.end(), off);
  std::fill(upper_.begin(), upper_.end(), off);
  const index_t last = problem.nodes - 1;
  const BoundarySpec& bc = problem.boundary;
  // Row 0: Dirichlet u_0 = value -> (1, 0); first-order no-flux u_0 = u_1 -> (1, -1).
  lower_[0] = 0.0;
  upper_[0] = bc.left.type == BoundaryType::dirichlet ? 0.0
              : bc.no_flux_order == 1                 ? -1.0
                                                      : 2.0 * off;
  lower_[last] = bc.right.type == BoundaryType::dirichlet ? 0.0
                 : bc.no_flux_order == 1                  ? -1.0
                                                          : 2.0 * off;
  upper_[last] = 0.0;
}

std::string CrankNicolsonCpu::name() const {
  return "Crank-Nicolson/Newton (cpu, " + std::string(solver_->name()) + ", w " +
         name_of(w_update_names(), spec_.w_update) + ")";
}

// current_ = 1/2 (I(t) + I(t + k)) on the stimulated nodes (zero elsewhere).
void CrankNicolsonCpu::update_currents(real t) {
  const StimulusSchedule& schedule = problem_.stimuli;
  for (const NodeStimulus& s : schedule.stimuli())
    std::fill(current_.begin() + s.first, current_.begin() + s.last + 1, 0.0);
  for (const NodeStimulus& s : schedule.stimuli()) {
    const real on = (schedule.active(s, t) ? 0.5 : 0.0) + (schedule.active(s, t + problem_.dt) ? 0.5 : 0.0);
    for (index_t i = s.first; i <= s.last; ++i) current_[i] += on * s.spec.amplitude;
  }
}

real CrankNicolsonCpu::assemble(real c) {
  const ModelParams& m = problem_.model;
  const BoundarySpec& bc = problem_.boundary;
  const index_t last = problem_.nodes - 1;
  const real k = problem_.dt;
  const real r = m.diffusion / (problem_.dx * problem_.dx);  // D / h^2
  const real* u = u_.data();
  real largest = 0.0;

  // Interior and ghost-node rows: F_i = u_i/k - 1/2 [D (L_h u)_i + f(u_i) - w+_i] - rhs_i,
  // J_ii = 1/k + c/2 - f'(u_i)/2 + D/h^2 (the -D/2 L_h diagonal).
  auto row = [&](index_t i, real diffusion_term) {
    const NewtonPoint np = cn_newton_point(u[i], diffusion_term, p_[i], c, rhs_[i], m.a, k);
    residual_[i] = np.residual;
    diag_[i] = np.diag_without_diffusion + r;
    largest = std::max(largest, std::abs(np.residual));
  };
  for (index_t i = 1; i < last; ++i) row(i, r * (u[i - 1] - 2.0 * u[i] + u[i + 1]));

  auto end_row = [&](index_t i, index_t neighbour, const BoundarySide& side) {
    if (side.type == BoundaryType::dirichlet) {
      residual_[i] = u[i] - side.value;  // row (1, 0)
      diag_[i] = 1.0;
    } else if (bc.no_flux_order == 1) {
      residual_[i] = u[i] - u[neighbour];  // row (1, -1)
      diag_[i] = 1.0;
    } else {
      row(i, 2.0 * r * (u[neighbour] - u[i]));
      return;
    }
    largest = std::max(largest, std::abs(residual_[i]));
  };
  end_row(0, 1, bc.left);
  end_row(last, last - 1, bc.right);
  return largest;
}

void CrankNicolsonCpu::step() {
  const ModelParams& m = problem_.model;
  const index_t n = problem_.nodes;
  const index_t last = n - 1;
  const real k = problem_.dt;
  const real r = m.diffusion / (problem_.dx * problem_.dx);
  const real t = static_cast<real>(step_) * k;

  // 1. w+ = p + c u. Leapfrog takes its first step with the trapezoidal rule.
  const bool leapfrog = spec_.w_update == WUpdate::leapfrog && step_ > 0;
  const TrapezoidalW trap = trapezoidal_w(k, m.epsilon, m.gamma);
  const real c = leapfrog ? 0.0 : trap.c;
  for (index_t i = 0; i < n; ++i)
    p_[i] = leapfrog ? w_prev_[i] + 2.0 * k * recovery(v_[i], w_[i], m.epsilon, m.gamma)
                     : trap.keep * w_[i] + trap.c * v_[i];

  // 2. The explicit half: rhs_i = v_i/k + 1/2 [D (L_h v)_i + f(v_i) - w_i] + 1/2 (I^n + I^{n+1}).
  if (!problem_.stimuli.empty()) update_currents(t);
  const real* v = v_.data();
  for (index_t i = 1; i < last; ++i)
    rhs_[i] = cn_rhs(v[i], w_[i], r * (v[i - 1] - 2.0 * v[i] + v[i + 1]), current_[i], m.a, k);
  rhs_[0] = cn_rhs(v[0], w_[0], 2.0 * r * (v[1] - v[0]), current_[0], m.a, k);
  rhs_[last] = cn_rhs(v[last], w_[last], 2.0 * r * (v[last - 1] - v[last]), current_[last], m.a, k);

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
  if (!converged) {
    std::string history;
    for (std::size_t i = 0; i < du_history_.size(); ++i)
      history += "\n    iteration " + std::to_string(i + 1) + ": ||du||_inf = " +
                 format_exact(du_history_[i]) + ", ||F||_inf = " + format_exact(residual_history[i]);
    throw NumericalError(
        "Newton did not converge in step " + std::to_string(step_) + " (t = " + format_exact(t) +
        " -> " + format_exact(t + k) + "): ||du||_inf stayed above the tolerance " +
        format_exact(spec_.newton.tolerance) + " after " + std::to_string(du_history_.size()) +
        " iterations" + history +
        "\n  Hint: reduce time.dt, or raise scheme.crank_nicolson.newton.max_iterations / tolerance");
  }
  stats_.add_step(du_history_);

  // 4. Accept: v+ = u, w+ = p + c u.
  if (spec_.w_update == WUpdate::leapfrog) w_prev_.swap(w_);  // w_prev_ = w^n (w_ overwritten next)
  for (index_t i = 0; i < n; ++i) w_[i] = p_[i] + c * u_[i];
  v_.swap(u_);
}

}  // namespace fhn
