#pragma once
// Initial profiles v(r, 0), w(r, 0) evaluated on the nodes of a domain.
#include <vector>

#include "config/config.hpp"
#include "model/excursion.hpp"

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

// The profile at every node of the domain, in node order (i + N_x j).
std::vector<real> sample_profile(const Profile& profile, const Domain& domain,
                                 const FormValues& form);

// Both fields at every node (v0, w0: sample_profile of each, with the form's resting state and
// the form's excursion, nullptr unless the start is one). An excursion start (v and w the same
// spiral or scroll ring, as the loader makes them) finds each node's point of the excursion once
// for both values: the same numbers in half the time (atan2 and hypot per node).
void sample_fields(const InitialSpec& initial, const Domain& domain, const NodeState& rest,
                   const Excursion* excursion, std::vector<real>& v0, std::vector<real>& w0);

}  // namespace fhn
