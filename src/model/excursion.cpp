#include "model/excursion.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "core/format.hpp"

namespace fhn {

namespace {

// The state at fraction t of the way from `from` to `to`.
NodeState between(const NodeState& from, const NodeState& to, real t) {
  return {from.v + t * (to.v - from.v), from.w + t * (to.w - from.w)};
}

// The path's state at fractional index x in [0, size - 1], linear between its states.
NodeState interpolate(const std::vector<NodeState>& path, real x) {
  const std::size_t i = std::min(static_cast<std::size_t>(x), path.size() - 2);
  return between(path[i], path[i + 1], x - static_cast<real>(i));
}

// At most this many RK4 steps (a fifth of a second): a form whose steps must be so short that
// its excursion does not return within them is refused, its time-scale parameter named, rather
// than integrated for hours (Barkley's eps = 1e-300 would take 10^305 steps).
constexpr std::size_t kMaxSteps = std::size_t{1} << 24;

template <class K>
Excursion excursion_of(const K& k, int samples) {
  const std::string start = "a spiral or scroll-ring start lays out the '" + std::string(K::kName) +
                            "' form's excursion";
  const RestIssue issue = k.rest_issue();
  if (!issue.key.empty())
    throw ConfigError(issue.key, issue.text + "; " + start + ", which starts from rest");
  const NodeState rest = k.rest();
  const NodeState levels = k.levels();
  if (!(rest.v < levels.v))
    throw ConfigError("initial.v", start + ", but its resting state v = " + format_exact(rest.v) +
                                       " is not below the activation level v = " +
                                       format_exact(levels.v) + " (" +
                                       kinetics_parameters_text(Kinetics{k}) +
                                       "): there is no kick above threshold from rest");
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
  // First pass: the path's length, path[0] = kick, path[n + 1] = step(path[n]), up to the state
  // back near rest; no state is kept (a stiff form's path may have 10^8 of them).
  const real horizon = 1e4 / h;  // the steps of 10^4 time units
  const bool stiff = horizon >= static_cast<real>(kMaxSteps);
  const std::size_t max_points = stiff ? kMaxSteps : static_cast<std::size_t>(horizon);
  std::size_t points = 1;
  NodeState x = kick;
  real v_far = 0.0, w_low = rest.w, w_high = rest.w;
  bool back = false, fell = false, fired_again = false, finite = true, stopped = false;
  while (!back && !fired_again && finite && !stopped && points < max_points) {
    const NodeState previous = x;
    const real previous_v = x.v;
    x = step(x);
    ++points;
    finite = std::isfinite(x.v) && std::isfinite(x.w);
    // A step that changes nothing: the state sits on a fixed point to round-off for good (Barkley's
    // v = 1, which f keeps for every w, where a small eps brings v within round-off of it).
    stopped = x.v == previous.v && x.w == previous.w;
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
  const real t = static_cast<real>(points - 1) * h;
  const std::string kicked = start + ", but its state kicked to v = " + format_exact(kick.v);
  const std::string parameters = kinetics_parameters_text(Kinetics{k});
  if (!finite)
    throw ConfigError("initial.v", kicked + " leaves double precision at t = " + format_exact(t) +
                                       " (" + parameters + ")");
  if (fired_again)
    throw ConfigError("initial.v", kicked + " does not return to rest (it fires again at t = " +
                                       format_exact(t) + ": an oscillatory medium has no excursion)");
  const std::string key = K::kTimeScaleKey ? "model." + std::string(K::kTimeScaleKey) : "initial.v";
  if (!back && stopped)
    throw ConfigError(key, kicked + " does not return to rest: at t = " + format_exact(t) +
                               " it stops at v = " + format_exact(x.v) + ", w = " +
                               format_exact(x.w) + ", a fixed point of the kinetics to round-off (" +
                               parameters + ")" +
                               (K::kTimeScaleKey ? "; a larger " + key + " keeps it off it" : ""));
  if (!back && stiff) {
    throw ConfigError(key, kicked + " does not return to rest within " +
                               std::to_string(kMaxSteps) + " RK4 steps (t = " + format_exact(t) +
                               "): its steps of h = 0.1 / " + format_exact(stiffness) + " = " +
                               format_exact(h) + " follow the largest |df/dv| over v in [" +
                               format_exact(range.v_low) + ", " + format_exact(range.v_high) +
                               "] (" + parameters + "); " +
                               (K::kTimeScaleKey ? key + " makes v too fast for the start: raise it, or "
                                                 : std::string()) +
                               "start from other profiles");
  }
  if (!back)
    throw ConfigError("initial.v", kicked + " does not return to rest within 10^4 time units: it "
                                   "is at v = " + format_exact(x.v) + ", w = " + format_exact(x.w) +
                                   " then, rest at v = " + format_exact(rest.v) + ", w = " +
                                   format_exact(rest.w) + " (a second stable state, or a "
                                   "recovery slower than that, leaves no excursion to lay out)");
  // Second pass: the same steps again, keeping the two states about each sample (the sample at
  // fractional index x of the path, linear between path[i] and path[i + 1], i = floor(x)).
  const std::size_t last = points - 1;  // the path's last index (>= 1)
  Excursion e;
  e.duration = static_cast<real>(last) * h;
  NodeState before = kick, after = step(kick);  // path[i], path[i + 1]
  std::size_t i = 0;
  for (int s = 0; s < samples; ++s) {
    const real at = static_cast<real>(s) / static_cast<real>(samples - 1) * static_cast<real>(last);
    const std::size_t below = std::min(static_cast<std::size_t>(at), last - 1);
    for (; i < below; ++i) {
      before = after;
      after = step(after);
    }
    e.states.push_back(between(before, after, at - static_cast<real>(below)));
  }
  return e;
}

}  // namespace

NodeState Excursion::at(real s) const {
  // A fraction that is not finite (a spiral's wavelength so small that rho / wavelength
  // overflows) has no state on the path: NaN, which the caller reports at its key.
  if (!std::isfinite(s)) return {s - s, s - s};
  s -= std::floor(s);
  return interpolate(states, s * static_cast<real>(states.size() - 1));
}

Excursion form_excursion(const Kinetics& kinetics, int samples) {
  return with_kinetics(kinetics, [&](const auto& k) { return excursion_of(k, samples); });
}

}  // namespace fhn
