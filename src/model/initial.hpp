#pragma once
// Initial profiles v(r, 0), w(r, 0) evaluated on the nodes of a domain.
#include <array>
#include <vector>

#include "config/config.hpp"
#include "model/excursion.hpp"
#include "model/parameter_fields.hpp"

namespace fhn {

// What a profile takes from the run's kinetics form: the field's resting value (a `rest`
// profile), and for a `spiral` start the form's excursion and whether the profile is v's or w's.
struct FormValues {
  real rest = 0.0;
  const Excursion* excursion = nullptr;
  bool v = true;
};

// The profile at position r (entries beyond the domain's axes are 0).
real evaluate_profile(const Profile& profile, const Point& r, const FormValues& form);

// The resting state of each node: the form's rest() with the node's parameters (kinetics_at over
// `values`, the per-node arrays kinetics_values gives; all nullptr: the same at every node),
// found once for each run of nodes with equal parameters. at(node, unique) throws ConfigError
// naming the form's key (its rest_issue()) when the rest there is not finite, or, with `unique`,
// not the one resting state (a `rest` profile needs it; a node outside the tissue only holds a
// fixed point, which it never leaves).
class NodeRest {
 public:
  NodeRest(const Kinetics& uniform, const real* const (&values)[kMaxFormParameters]);
  NodeState at(index_t node, bool unique);

 private:
  Kinetics uniform_;
  const real* values_[kMaxFormParameters];
  bool found_ = false;  // whether the members below hold a node's
  std::array<real, kMaxFormParameters> parameters_{};
  NodeState rest_{};
  RestIssue issue_;
};

// Both fields at every node, in node order (v0, w0): each field's profile, a `rest` profile the
// node's resting state (rest.at(node, true)), a spiral or scroll-ring start the form's
// `excursion` (nullptr unless the start is one; the loader gives it to v and w together, with one
// geometry, and each node's point of it is found once for both values: the same numbers in half
// the time, atan2 and hypot per node). Throws ConfigError naming initial.v or initial.w (its
// profile, the first node and the value) where a value is not finite: a spiral's wavelength of
// 5e-324 makes the phase rho / wavelength infinite.
void sample_fields(const InitialSpec& initial, const Domain& domain, NodeRest& rest,
                   const Excursion* excursion, std::vector<real>& v0, std::vector<real>& w0);

// What make_problem refuses in the initial state of `config` with its parameter fields `fields`
// (build_parameter_fields), found without storing it: the form's excursion for a spiral or
// scroll-ring start (form_excursion), each node's resting state where a `rest` profile or the
// tissue mask needs it, and a value that is not finite (sample_fields), node by node up to
// kStartNodesChecked nodes (a second or so); on a larger grid make_problem finds a value that is
// not finite as it builds the start (fhn run: before it writes anything). Throws ConfigError
// naming the key. check_problem (model/problem.hpp) calls it.
constexpr index_t kStartNodesChecked = index_t{1} << 24;
void check_initial_state(const Config& config, const ParameterFields& fields);

}  // namespace fhn
