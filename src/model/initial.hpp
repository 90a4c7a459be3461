#pragma once
// Initial profiles v(x, 0), w(x, 0) evaluated on a grid.
#include <vector>

#include "config/config.hpp"

namespace fhn {

real evaluate_profile(const Profile& profile, real x);

std::vector<real> sample_profile(const Profile& profile, const std::vector<real>& x);

}  // namespace fhn
