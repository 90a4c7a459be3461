#pragma once
// Initial profiles v(r, 0), w(r, 0) evaluated on the nodes of a domain.
#include <vector>

#include "config/config.hpp"

namespace fhn {

// The profile at position r (entries beyond the domain's axes are 0).
real evaluate_profile(const Profile& profile, const Point& r);

// The profile at every node of the domain, in node order (i + N_x j).
std::vector<real> sample_profile(const Profile& profile, const Domain& domain);

}  // namespace fhn
