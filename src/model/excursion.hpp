#pragma once
// A form's excursion: the uniform state's path (v(t), w(t)) from rest kicked above threshold
// back to rest, the states an `initial: {type: spiral}` start lays out around its centre.
#include <vector>

#include "core/types.hpp"
#include "kinetics/kinetics.hpp"

namespace fhn {

struct Excursion {
  real duration = 0.0;             // time from the kick until the state is back near rest
  std::vector<NodeState> states;   // the path at equal time steps over [0, duration], both ends in
  // The state at fraction s of the excursion (0: the kick, 1: back at rest), linear between
  // samples; s is taken modulo 1.
  NodeState at(real s) const;
};

// From the resting state with v kicked to levels().v + (levels().v - rest.v) / 2 (above the
// activation level by half its distance from rest; not onto an excited fixed point such as
// Barkley's v = 1, which f keeps), the ODE v' = f(v, w), w' = g(v, w) by classic RK4 (steps of
// 0.1 / the largest |f_v| over the form's reaction range, at most 0.01) until v and w are back
// within 1% of their ranges of rest. Throws ConfigError when the state does not return within
// 10^4 time units (an oscillatory medium has no excursion).
Excursion form_excursion(const Kinetics& kinetics, int samples = 2048);

}  // namespace fhn
