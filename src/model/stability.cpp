#include "model/stability.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "core/format.hpp"
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
real field_rate(const ModelParams& m, const Domain& domain, const ParameterFields& fields) {
  const real h2 = domain.dx * domain.dx;
  if (fields.tensor.enabled) {
    const TensorField& t = fields.tensor;
    if (t.uniform()) return 4.0 * (t.xx + t.yy + std::abs(t.xy)) / h2;
    real largest = 0.0;
    for (std::size_t i = 0; i < t.xx_values.size(); ++i)
      largest = std::max(largest, t.xx_values[i] + t.yy_values[i] + std::abs(t.xy_values[i]));
    return 4.0 * largest / h2;
  }
  const std::vector<real>& d = fields.diffusion.values;
  const real largest = d.empty() ? m.diffusion : *std::max_element(d.begin(), d.end());
  return 4.0 * static_cast<real>(domain.dims) * largest / h2;
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

ExplicitLimit explicit_limit(const ModelParams& m, const BoundarySpec& boundary,
                             const Domain& domain, const ParameterFields& fields) {
  if (fields.arrays().values == 0 && !fields.tensor.enabled)
    return explicit_limit(m, boundary, domain.dims, domain.dx);
  const real rate = field_rate(m, domain, fields);
  const std::string rate_text = fields.tensor.enabled ? "4 max (D_xx + D_yy + |D_xy|)/dx^2"
                                                      : "4 d max D/dx^2";
  ExplicitLimit limit = with_kinetics(m.kinetics, [&](const auto& uniform) {
    // The form's parameters at each node (their fields, else the model's value); the limit at
    // the nodes whose parameters differ from the node before's, the smallest of them.
    using K = std::decay_t<decltype(uniform)>;
    ExplicitLimit smallest = limit_at_rate(uniform, boundary, rate, 2.0 / rate);
    std::array<real, kMaxFormParameters> last{};
    for (index_t node = 0; node < domain.node_count(); ++node) {
      std::array<real, kMaxFormParameters> here{};
      K k = uniform;
      std::size_t p = 0;
      K::parameters(k, [&](const char*, real& value, const Interval&) {
        const std::vector<real>& field = fields.kinetics[p].values;
        if (!field.empty()) value = field[static_cast<std::size_t>(node)];
        here[p++] = value;
      });
      if (node > 0 && here == last) continue;
      last = here;
      const ExplicitLimit here_limit = limit_at_rate(k, boundary, rate, 2.0 / rate);
      if (here_limit.dt < smallest.dt) smallest = here_limit;
    }
    return smallest;
  });
  limit.rate = rate_text;
  return limit;
}

namespace {

// A value a parameter takes somewhere on the grid and the key that gives it: the model's scalar
// (model.<key>; D_l and D_t with anisotropy) or a fields: entry's (region: value; gradient and
// image: from and to, the extremes of its values on a PNG's grey levels).
struct Given {
  std::string key;
  std::string parameter;  // "diffusion" or the form's parameter key
  real value;
};
std::vector<Given> given_values(const Config& c) {
  std::vector<Given> out;
  if (c.anisotropy.enabled) {
    out.push_back({"anisotropy.longitudinal", "diffusion", c.anisotropy.longitudinal});
    out.push_back({"anisotropy.transverse", "diffusion", c.anisotropy.transverse});
  } else {
    out.push_back({"model.diffusion", "diffusion", c.model.diffusion});
  }
  with_kinetics(c.model.kinetics, [&](const auto& k) {
    k.parameters(k, [&](const char* key, const real& value, const Interval&) {
      out.push_back({std::string("model.") + key, key, value});
    });
  });
  for (std::size_t i = 0; i < c.fields.size(); ++i) {
    const FieldSpec& f = c.fields[i];
    const std::string path = "fields[" + std::to_string(i) + "]";
    if (f.type == FieldType::region) {
      out.push_back({path + ".value", f.parameter, f.value});
    } else {
      out.push_back({path + ".from", f.parameter, f.from});
      out.push_back({path + ".to", f.parameter, f.to});
    }
  }
  return out;
}

// A diffusion coefficient D overflows when one of the products the schemes form with it does:
//   the odd-even rate r_D = 4 d D / dx^2 (the explicit update, this file's bound),
//   dt r_D (the implicit schemes' rows, I - (dt/2) D L_h, up to 2 dt D / dx^2 off the diagonal),
//   and, where D varies per node, the face coefficient 2 D_a D_b / (D_a + D_b) of two
//   neighbours (harmonic_mean, schemes/node_updates.hpp), whose product 2 D^2 overflows first.
void check_diffusion(const Config& c, const Given& g, bool per_node) {
  const real rate = 4.0 * static_cast<real>(c.domain.dims) * g.value / (c.domain.dx * c.domain.dx);
  const real largest = std::numeric_limits<real>::max();
  std::string what;
  if (!std::isfinite(rate))
    what = "the odd-even rate 4 d D/dx^2 = " + format_exact(rate);
  else if (!std::isfinite(c.time.dt * rate))
    what = "time.dt times the odd-even rate 4 d D/dx^2 = " + format_exact(c.time.dt * rate);
  else if (per_node && !std::isfinite(2.0 * g.value * g.value))
    what = "the coefficient 2 D_a D_b/(D_a + D_b) of a face between two nodes holding it (2 D^2 "
           "= inf)";
  if (what.empty()) return;
  const real grid = 4.0 * static_cast<real>(c.domain.dims) / (c.domain.dx * c.domain.dx);
  real bound = std::min(largest / grid, largest / (grid * c.time.dt));
  if (per_node) bound = std::min(bound, std::sqrt(0.5 * largest));
  throw ConfigError(g.key, "D = " + format_exact(g.value) + " overflows a double in " + what +
                               " (dx = " + format_exact(c.domain.dx) + ", time.dt = " +
                               format_exact(c.time.dt) + "); expected D below about " +
                               format_exact(bound));
}

// A kinetics parameter (or a Dirichlet value, which widens the range of v the bound covers)
// overflows when, the form's other parameters at their defaults and `boundary` the only
// Dirichlet side, the rates the bound is made of are not finite: the resting state, the Jacobian
// there, the slope f_v over the range of v, or the stiffest mode's rate r = 2/dt (its
// eigenvalue's discriminant squares them) with the diffusion's odd-even rate `rate` (finite:
// check_diffusion).
template <class K>
void check_kinetics(const K&, const BoundarySpec& boundary, real rate, const Given& g) {
  K k{};
  K::parameters(k, [&](const char* key, real& value, const Interval&) {
    if (g.parameter == key) value = g.value;
  });
  const ExplicitLimit limit = limit_at_rate(k, boundary, rate, 2.0 / rate);
  const NodeState rest = k.rest();
  const Jacobian j = k.jacobian(rest.v, rest.w);
  const bool finite = std::isfinite(rest.v) && std::isfinite(rest.w) && std::isfinite(j.f_v) &&
                      std::isfinite(j.f_w) && std::isfinite(j.g_v) && std::isfinite(j.g_w) &&
                      std::isfinite(limit.slope) && std::isfinite(2.0 / limit.dt);
  if (finite) return;
  throw ConfigError(g.key, format_exact(g.value) + " overflows a double in the rates of the '" +
                               std::string(K::kName) + "' kinetics (its other parameters at " +
                               "their defaults): at rest (v, w) = (" + format_exact(rest.v) +
                               ", " + format_exact(rest.w) + ") f_v = " + format_exact(j.f_v) +
                               ", f_w = " + format_exact(j.f_w) + ", g_v = " +
                               format_exact(j.g_v) + ", g_w = " + format_exact(j.g_w) +
                               ", f_v >= " + format_exact(limit.slope) + " for v in [" +
                               format_exact(limit.v_low) + ", " + format_exact(limit.v_high) +
                               "], and the stiffest mode's rate 2/dt = " +
                               format_exact(2.0 / limit.dt) +
                               "; expected a value that keeps them finite");
}

}  // namespace

void check_rates(const Config& c) {
  const real inv_h2 = 1.0 / (c.domain.dx * c.domain.dx);
  if (!std::isfinite(inv_h2))
    throw ConfigError("domain.dx", format_exact(c.domain.dx) + ": 1/dx^2 = " +
                                       format_exact(inv_h2) +
                                       " overflows a double (the diffusion stencil's weight); "
                                       "expected dx above about 1e-154");
  // D varies per node with a fields: entry for it, or for the fibre angle (the tensor's
  // components then vary, and their faces take harmonic means as D's do).
  const bool per_node = std::any_of(c.fields.begin(), c.fields.end(), [](const FieldSpec& f) {
    return f.parameter == "diffusion" || f.parameter == "fibre_angle";
  });
  const std::vector<Given> values = given_values(c);
  for (const Given& g : values)
    if (g.parameter == "diffusion") check_diffusion(c, g, per_node);
  // The model's D: a scalar, or D_l with anisotropy (the loader sets it so).
  const real rate = 4.0 * static_cast<real>(c.domain.dims) * c.model.diffusion * inv_h2;
  auto check = [&](const BoundarySpec& boundary, const Given& g) {
    with_kinetics(c.model.kinetics, [&](const auto& k) { check_kinetics(k, boundary, rate, g); });
  };
  for (const Given& g : values)
    if (g.parameter != "diffusion" && g.parameter != "fibre_angle") check(BoundarySpec{}, g);
  // Each Dirichlet side's value alone (no parameter changed), as limit_at_rate reads them.
  const std::pair<const char*, const BoundarySide*> sides[] = {{"left", &c.boundary.left},
                                                               {"right", &c.boundary.right},
                                                               {"bottom", &c.boundary.bottom},
                                                               {"top", &c.boundary.top}};
  for (const auto& [name, side] : sides)
    if (side->type == BoundaryType::dirichlet) {
      BoundarySpec alone;
      alone.left = *side;
      check(alone, {std::string("boundary.") + name + ".value", "", side->value});
    }
}

std::string ExplicitLimit::explain() const {
  return "forward Euler multiplies the odd-even mode by 1 - dt r per step, r = " +
         format_exact(2.0 / dt) + " (diffusion " + rate + " = " + format_exact(diffusion) +
         " plus the reaction's slope, f'(v) >= " + format_exact(slope) + " for v in [" +
         format_exact(v_low) + ", " + format_exact(v_high) +
         "], with the w coupling), and 1 - dt r >= -1 needs dt <= 2/r = " + format_exact(dt);
}

}  // namespace fhn
