#include "model/excursion.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"

namespace fhn {

namespace {

// The path's state at fractional index x in [0, size - 1], linear between its states.
NodeState interpolate(const std::vector<NodeState>& path, real x) {
  const std::size_t i = std::min(static_cast<std::size_t>(x), path.size() - 2);
  const real t = x - static_cast<real>(i);
  return {path[i].v + t * (path[i + 1].v - path[i].v), path[i].w + t * (path[i + 1].w - path[i].w)};
}

template <class K>
Excursion excursion_of(const K& k, int samples) {
  const NodeState rest = k.rest();
  const NodeState levels = k.levels();
  const ReactionRange range = k.reaction_range();
  const real stiffness = std::max({1.0, std::abs(k.min_df_dv(range.v_low, range.v_high)),
                                   std::abs(k.max_df_dv())});
  const real h = std::min(0.01, 0.1 / stiffness);
  // One RK4 step of (v, w)' = (f, g).
  auto step = [&](NodeState x) {
    auto rhs = [&](real v, real w) { return NodeState{k.f(v, w), k.g(v, w)}; };
    const NodeState k1 = rhs(x.v, x.w);
    const NodeState k2 = rhs(x.v + 0.5 * h * k1.v, x.w + 0.5 * h * k1.w);
    const NodeState k3 = rhs(x.v + 0.5 * h * k2.v, x.w + 0.5 * h * k2.w);
    const NodeState k4 = rhs(x.v + h * k3.v, x.w + h * k3.w);
    return NodeState{x.v + h / 6.0 * (k1.v + 2.0 * k2.v + 2.0 * k3.v + k4.v),
                     x.w + h / 6.0 * (k1.w + 2.0 * k2.w + 2.0 * k3.w + k4.w)};
  };
  const NodeState kick{levels.v + 0.5 * (levels.v - rest.v), rest.w};
  std::vector<NodeState> path{kick};
  real v_far = 0.0, w_low = rest.w, w_high = rest.w;
  const auto max_steps = static_cast<std::size_t>(1e4 / h);
  bool back = false, fell = false, fired_again = false;
  while (!back && !fired_again && path.size() < max_steps) {
    const NodeState x = step(path.back());
    const real previous_v = path.back().v;
    path.push_back(x);
    v_far = std::max(v_far, std::abs(x.v - rest.v));
    w_low = std::min(w_low, x.w);
    w_high = std::max(w_high, x.w);
    // Back: v and w within 1% of their ranges of rest.
    back = std::abs(x.v - rest.v) < 0.01 * v_far && std::abs(x.w - rest.w) < 0.01 * (w_high - w_low);
    // v fell below the level and rose through it again without coming back to rest: the medium
    // fires by itself (an oscillation), and would go on until the step limit.
    fell = fell || x.v < levels.v;
    fired_again = fell && previous_v < levels.v && x.v >= levels.v;
  }
  if (!back)
    throw ConfigError("initial.v", "a spiral or scroll-ring start lays out the '" +
                                       std::string(K::kName) + "' form's excursion, but its " +
                                       "state kicked to v = " + format_exact(kick.v) +
                                       " does not return to rest " +
                                       (fired_again ? "(it fires again at t = " +
                                                          format_exact(static_cast<real>(path.size() - 1) * h) +
                                                          ": "
                                                    : "within 10^4 time units (") +
                                       "an oscillatory medium has no excursion)");
  Excursion e;
  e.duration = static_cast<real>(path.size() - 1) * h;
  for (int s = 0; s < samples; ++s)
    e.states.push_back(interpolate(path, static_cast<real>(s) / static_cast<real>(samples - 1) *
                                             static_cast<real>(path.size() - 1)));
  return e;
}

}  // namespace

NodeState Excursion::at(real s) const {
  s -= std::floor(s);
  return interpolate(states, s * static_cast<real>(states.size() - 1));
}

Excursion form_excursion(const Kinetics& kinetics, int samples) {
  return with_kinetics(kinetics, [&](const auto& k) { return excursion_of(k, samples); });
}

}  // namespace fhn
