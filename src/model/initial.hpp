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

}  // namespace fhn
