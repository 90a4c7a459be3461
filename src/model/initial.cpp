#include "model/initial.hpp"

#include <cmath>

namespace fhn {

real evaluate_profile(const Profile& p, real x) {
  switch (p.type) {
    case ProfileType::gaussian: {
      const real d = x - p.center;
      return p.background + p.amplitude * std::exp(-d * d / p.width2);
    }
    case ProfileType::constant:
      return p.value;
    case ProfileType::step:
      return x < p.position ? p.left : p.right;
    case ProfileType::tanh_front:
      return p.left + (p.right - p.left) * 0.5 * (1.0 + std::tanh((x - p.position) / p.width));
  }
  return 0.0;
}

std::vector<real> sample_profile(const Profile& profile, const std::vector<real>& x) {
  std::vector<real> values(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) values[i] = evaluate_profile(profile, x[i]);
  return values;
}

}  // namespace fhn
