#include "model/stability.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "core/format.hpp"
#include "model/field_values.hpp"
#include "model/parameter_fields.hpp"

namespace fhn {

// Linear (von Neumann) stability of forward Euler, with frozen coefficients.
//
// Linearised about a state (v, w), a perturbation (dv, dw) along an eigenvector of the discrete
// diffusion operator D L_h, with eigenvalue -lambda, obeys
//   d/dt (dv, dw) = J (dv, dw),   J = [[alpha, f_w], [g_v, g_w]],   alpha = f_v - lambda,
// (the form's Jacobian, kinetics/; for the cubic form f_w = -1, g_v = epsilon,
// g_w = -epsilon gamma), and a step multiplies it by I + dt J. For an eigenvalue mu of J,
// |1 + dt mu| <= 1 holds iff dt <= 2 |Re mu| / |mu|^2 (2 / |mu| for a real mu).
//
// lambda ranges over [0, lambda_max], lambda_max = 4 d D / dx^2 on d axes (the odd-even mode).
// The no-flux rows (mirrored ghost node or v_0 = v_1), the Dirichlet rows, and the three-point
// rows of the adaptive grid (spacings h_l, h_r >= dx) stay within it by Gershgorin: a row's
// |diagonal| + |off-diagonals| is at most 4 D / (h_l h_r) <= 4 D / dx^2 per axis.
//
// The stiffest mode is the one with the most negative alpha, alpha_min = min f_v - lambda_max.
// With f_w g_v <= 0 (recovery opposes excitation), (mu - alpha)(mu - g_w) = f_w g_v <= 0: a
// real eigenvalue lies between alpha and g_w, and the w coupling moves the stiffest eigenvalue
// by about |f_w g_v / alpha| towards 0 (a relative 2e-6 for the shipped configs); the bound
// below takes it exactly:
//   mu = (T - sqrt(T^2 - 4 det)) / 2,   T = alpha + g_w,   det = alpha g_w - f_w g_v,
//   T^2 - 4 det = (alpha - g_w)^2 + 4 f_w g_v;
// with complex eigenvalues (T^2 < 4 det) the bound is 2 |Re mu| / |mu|^2 = -T / det. Recovery
// faster than diffusion and reaction (-g_w > |alpha_min|) gives real eigenvalues near g_w at
// any alpha: dt <= 2 / -g_w covers them. The other modes have |mu| = O(1) (the slow pulse
// dynamics, the excitable growth where f_v > 0): a step changes them by a factor 1 + O(dt),
// which is the scheme's accuracy, not its stability.
//
// The range of v: the form's reaction_range (for the cubic form the resting state 0 to the
// excited state 1 and the undershoot while recovering, where f_v >= a - 1 as well), widened by
// the value a Dirichlet side holds for the whole run. Initial profiles and stimuli may push v
// outside it only for a while (the kinetics pull v back): a mode that grows for a few steps
// does not blow up the run. For the cubic form the excited state is where the bound binds for
// a < 1/2 (f_v(1) = a - 1), the resting state for a > 1/2 (f_v(0) = -a).
namespace {

// The limit for the form `kinetics` when D L_h's odd-even rate is `rate` (lambda_max) and the
// limit of diffusion alone, 2 / rate, is `diffusion_dt`.
template <class K>
ExplicitLimit limit_at_rate(const K& kinetics, const BoundarySpec& boundary, real rate,
                            real diffusion_dt) {
  ExplicitLimit limit;
  const ReactionRange range = kinetics.reaction_range();
  limit.v_low = range.v_low;
  limit.v_high = range.v_high;
  for (const BoundarySide* side :
       {&boundary.left, &boundary.right, &boundary.bottom, &boundary.top})
    if (side->type == BoundaryType::dirichlet) {
      limit.v_low = std::min(limit.v_low, side->value);
      limit.v_high = std::max(limit.v_high, side->value);
    }
  limit.slope = kinetics.min_df_dv(limit.v_low, limit.v_high);
  limit.diffusion = rate;
  limit.diffusion_dt = diffusion_dt;

  const NodeState rest = kinetics.rest();
  const Jacobian j = kinetics.jacobian(rest.v, rest.w);
  const real alpha = limit.slope - limit.diffusion;
  const real trace = alpha + j.g_w;
  const real det = alpha * j.g_w - j.f_w * j.g_v;
  const real discriminant = (alpha - j.g_w) * (alpha - j.g_w) + 4.0 * j.f_w * j.g_v;
  limit.dt = discriminant >= 0.0 ? 2.0 / -(0.5 * (trace - std::sqrt(discriminant))) : -trace / det;
  if (j.g_w < 0.0) limit.dt = std::min(limit.dt, 2.0 / -j.g_w);
  return limit;
}

// The largest odd-even rate of a sheet's diffusion with fields (schemes/node_updates.hpp,
// "Heterogeneous sheets"), by Gershgorin: a row's |diagonal| + |off-diagonals| is 2 |diagonal|
// plus the mixed terms. Isotropic: every face coefficient (a harmonic mean) is at most the
// largest D, so the bound is today's 4 d D_max / h^2. Anisotropic: the full stencil gives
// (4 (D_xx + D_yy) + 2 |D_xy|) / h^2, and a node with one tissue quadrant (h^2 / V = 4)
// 4 (D_xx + D_yy + |D_xy|) / h^2, the larger: the bound is its maximum over the nodes.
real field_rate(const Config& c) {
  const real h2 = c.domain.dx * c.domain.dx;
  if (c.anisotropy.enabled) {
    const TensorField t =
        anisotropic_tensor(c.anisotropy, field_values(c.fields, "fibre_angle", c.anisotropy.angle,
                                                      c.domain));
    if (t.uniform()) return 4.0 * (t.xx + t.yy + std::abs(t.xy)) / h2;
    real largest = 0.0;
    for (std::size_t i = 0; i < t.xx_values.size(); ++i)
      largest = std::max(largest, t.xx_values[i] + t.yy_values[i] + std::abs(t.xy_values[i]));
    return 4.0 * largest / h2;
  }
  const std::vector<real> d = field_values(c.fields, "diffusion", c.model.diffusion, c.domain);
  const real largest = d.empty() ? c.model.diffusion : *std::max_element(d.begin(), d.end());
  return 4.0 * static_cast<real>(c.domain.dims) * largest / h2;
}

}  // namespace

ExplicitLimit explicit_limit(const ModelParams& m, const BoundarySpec& boundary, int dims,
                             real dx) {
  const real d = static_cast<real>(dims);
  const real rate = 4.0 * d * m.diffusion / (dx * dx);
  const real diffusion_dt = dx * dx / (2.0 * d * m.diffusion);
  return with_kinetics(m.kinetics, [&](const auto& kinetics) {
    return limit_at_rate(kinetics, boundary, rate, diffusion_dt);
  });
}

ExplicitLimit explicit_limit(const Config& c) {
  if (c.fields.empty() && !c.anisotropy.enabled)
    return explicit_limit(c.model, c.boundary, c.domain.dims, c.domain.dx);
  const real rate = field_rate(c);
  const std::string rate_text = c.anisotropy.enabled ? "4 max (D_xx + D_yy + |D_xy|)/dx^2"
                                                     : "4 d max D/dx^2";
  ExplicitLimit limit = with_kinetics(c.model.kinetics, [&](const auto& uniform) {
    // The form's parameters at each node (their fields, else the model's value); the limit at
    // the nodes whose parameters differ from the node before's, the smallest of them.
    using K = std::decay_t<decltype(uniform)>;
    std::vector<std::vector<real>> values;
    K::parameters(uniform, [&](const char* key, const real& value, const Interval&) {
      values.push_back(field_values(c.fields, key, value, c.domain));
    });
    ExplicitLimit smallest = limit_at_rate(uniform, c.boundary, rate, 2.0 / rate);
    std::array<real, kMaxFormParameters> last{};
    for (index_t node = 0; node < c.domain.node_count(); ++node) {
      std::array<real, kMaxFormParameters> here{};
      K k = uniform;
      std::size_t p = 0;
      K::parameters(k, [&](const char*, real& value, const Interval&) {
        const std::vector<real>& field = values[p];
        if (!field.empty()) value = field[static_cast<std::size_t>(node)];
        here[p++] = value;
      });
      if (node > 0 && here == last) continue;
      last = here;
      const ExplicitLimit here_limit = limit_at_rate(k, c.boundary, rate, 2.0 / rate);
      if (here_limit.dt < smallest.dt) smallest = here_limit;
    }
    return smallest;
  });
  limit.rate = rate_text;
  return limit;
}

std::string ExplicitLimit::explain() const {
  return "forward Euler multiplies the odd-even mode by 1 - dt r per step, r = " +
         format_exact(2.0 / dt) + " (diffusion " + rate + " = " + format_exact(diffusion) +
         " plus the reaction's slope, f'(v) >= " + format_exact(slope) + " for v in [" +
         format_exact(v_low) + ", " + format_exact(v_high) +
         "], with the w coupling), and 1 - dt r >= -1 needs dt <= 2/r = " + format_exact(dt);
}

}  // namespace fhn
