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
  // samples; s is taken modulo 1. NaN where s is not finite.
  NodeState at(real s) const;
};

// From the resting state with v kicked to levels().v + (levels().v - rest.v) / 2 (above the
// activation level by half its distance from rest; not onto an excited fixed point such as
// Barkley's v = 1, which f keeps), the ODE v' = f(v, w), w' = g(v, w) by classic RK4 (steps of
// 0.1 / the largest |f_v| over the form's reaction range, at most 0.01) until v and w are back
// within 1% of their ranges of rest. Memory: the samples only (the path is integrated twice, to
// find its length and to sample it). Throws ConfigError naming the key: the form's rest_issue()
// (no single resting state); model.<kTimeScaleKey> (initial.v for a form without one) when the
// path does not return within 2^24 steps (a form too stiff to lay out: Barkley's eps = 1e-6) or
// stops on a fixed point to round-off (Barkley's v = 1 at eps = 0.01); initial.v when the rest is
// not below the activation level, the state fires again (an oscillatory medium has no
// excursion), leaves double precision, or does not return within 10^4 time units.
Excursion form_excursion(const Kinetics& kinetics, int samples = 2048);

}  // namespace fhn
