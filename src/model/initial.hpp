#pragma once
// Initial profiles v(r, 0), w(r, 0) evaluated on the nodes of a domain.
#include <vector>

#include "config/config.hpp"

namespace fhn {

// The profile at position r (entries beyond the domain's axes are 0); `rest`: the value a `rest`
// profile takes (the resting state's v or w of the run's kinetics form).
real evaluate_profile(const Profile& profile, const Point& r, real rest);

// The profile at every node of the domain, in node order (i + N_x j).
std::vector<real> sample_profile(const Profile& profile, const Domain& domain, real rest);

}  // namespace fhn
