#pragma once
// What a kinetics form's per-point functions return (kinetics/kinetics.hpp lists the forms).
#include <string>

#include "core/types.hpp"

namespace fhn {

// A state (v, w) of one node.
struct NodeState {
  real v, w;
};

// The 2x2 Jacobian of (f, g) at a state: [[f_v, f_w], [g_v, g_w]].
struct Jacobian {
  real f_v, f_w, g_v, g_w;
};

// The part of f(u, p + c u) that moves with u, and its slope d/du.
struct Moving {
  real value, slope;
};

// The range of v a form's dynamics keeps to (the explicit stability bound covers it).
struct ReactionRange {
  real v_low, v_high;
};

// Why a form's parameters give no single resting state (a form's rest_issue(), host): the key a
// message is reported at ("model.b") and what is wrong; an empty key: rest() is the one resting
// state.
struct RestIssue {
  std::string key, text;
};

}  // namespace fhn
