#include "model/stability.hpp"

#include <algorithm>
#include <cmath>

#include "core/format.hpp"
#include "model/fhn.hpp"

namespace fhn {

// Linear (von Neumann) stability of forward Euler, with frozen coefficients.
//
// Linearised about a state (v, w), a perturbation (dv, dw) along an eigenvector of the discrete
// diffusion operator D L_h, with eigenvalue -lambda, obeys
//   d/dt (dv, dw) = J (dv, dw),   J = [[alpha, -1], [epsilon, -epsilon gamma]],
//   alpha = f'(v) - lambda,
// and a step multiplies it by I + dt J. For an eigenvalue mu of J, |1 + dt mu| <= 1 holds iff
// dt <= 2 |Re mu| / |mu|^2 (2 / |mu| for a real mu).
//
// lambda ranges over [0, lambda_max], lambda_max = 4 d D / dx^2 on d axes (the odd-even mode).
// The no-flux rows (mirrored ghost node or v_0 = v_1), the Dirichlet rows, and the three-point
// rows of the adaptive grid (spacings h_l, h_r >= dx) stay within it by Gershgorin: a row's
// |diagonal| + |off-diagonals| is at most 4 D / (h_l h_r) <= 4 D / dx^2 per axis.
//
// The stiffest mode is the one with the most negative alpha, alpha_min = min f' - lambda_max.
// Since (mu - alpha)(mu + epsilon gamma) = -epsilon <= 0, a real eigenvalue lies between alpha
// and -epsilon gamma: the w coupling moves the stiffest eigenvalue by about epsilon / |alpha|
// towards 0 (a relative 2e-6 for the shipped configs), and the bound below takes it exactly:
//   mu = (T - sqrt(T^2 - 4 det)) / 2,   T = alpha - epsilon gamma,   det = epsilon (1 - alpha gamma),
//   T^2 - 4 det = (alpha + epsilon gamma)^2 - 4 epsilon;
// with complex eigenvalues (T^2 < 4 det) the bound is 2 |Re mu| / |mu|^2 = -T / det. Recovery
// faster than diffusion and reaction (epsilon gamma > |alpha_min|) gives real eigenvalues near
// -epsilon gamma at any alpha: dt <= 2 / (epsilon gamma) covers them. The other modes have
// |mu| = O(1) (the slow pulse dynamics, the excitable growth where f' > 0): a step changes
// them by a factor 1 + O(dt), which is the scheme's accuracy, not its stability.
//
// The range of v. f'(v) = -3 v^2 + 2 (1 + a) v - a is a downward parabola, so its minimum over
// an interval is at an end. The dynamics keeps v between the resting state 0 and the excited
// state 1, undershooting below 0 while it recovers; f'(v) >= a - 1 on [(2a - 1)/3, 1], so the
// bound covers that undershoot at no cost. A Dirichlet side holds v at its value for the whole
// run: it widens the range. Initial profiles and stimuli may push v outside it only for a while
// (the cubic pulls v back): a mode that grows for a few steps does not blow up the run. The
// excited state is where the bound binds for a < 1/2 (f'(1) = a - 1), the resting state for
// a > 1/2 (f'(0) = -a).
ExplicitLimit explicit_limit(const ModelParams& m, const BoundarySpec& boundary, int dims, real dx) {
  ExplicitLimit limit;
  limit.v_low = std::min(0.0, (2.0 * m.a - 1.0) / 3.0);
  limit.v_high = 1.0;
  for (const BoundarySide* side : {&boundary.left, &boundary.right, &boundary.bottom, &boundary.top})
    if (side->type == BoundaryType::dirichlet) {
      limit.v_low = std::min(limit.v_low, side->value);
      limit.v_high = std::max(limit.v_high, side->value);
    }
  limit.slope = std::min(reaction_derivative(limit.v_low, m.a), reaction_derivative(limit.v_high, m.a));
  const real d = static_cast<real>(dims);
  limit.diffusion = 4.0 * d * m.diffusion / (dx * dx);
  limit.diffusion_dt = dx * dx / (2.0 * d * m.diffusion);

  const real alpha = limit.slope - limit.diffusion;
  const real recovery = m.epsilon * m.gamma;
  const real trace = alpha - recovery;
  const real det = m.epsilon * (1.0 - alpha * m.gamma);
  const real discriminant = (alpha + recovery) * (alpha + recovery) - 4.0 * m.epsilon;
  limit.dt = discriminant >= 0.0 ? 2.0 / -(0.5 * (trace - std::sqrt(discriminant))) : -trace / det;
  if (recovery > 0.0) limit.dt = std::min(limit.dt, 2.0 / recovery);
  return limit;
}

std::string ExplicitLimit::explain() const {
  return "forward Euler multiplies the odd-even mode by 1 - dt r per step, r = " +
         format_exact(2.0 / dt) + " (diffusion 4 d D/dx^2 = " + format_exact(diffusion) +
         " plus the reaction's slope, f'(v) >= " + format_exact(slope) + " for v in [" +
         format_exact(v_low) + ", " + format_exact(v_high) +
         "], with the w coupling), and 1 - dt r >= -1 needs dt <= 2/r = " + format_exact(dt);
}

}  // namespace fhn
