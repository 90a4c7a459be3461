#include "model/initial.hpp"

#include <cmath>

namespace fhn {

real evaluate_profile(const Profile& p, const Point& r, real rest) {
  const real s = r[static_cast<std::size_t>(p.axis)];  // coordinate along a step's or front's axis
  switch (p.type) {
    case ProfileType::gaussian: {
      // |r - center|^2, summed over the axes (the entries beyond the domain's axes are 0).
      real d2 = 0.0;
      for (std::size_t a = 0; a < r.size(); ++a) {
        const real d = r[a] - p.center[a];
        d2 += d * d;
      }
      return p.background + p.amplitude * std::exp(-d2 / p.width2);
    }
    case ProfileType::constant:
      return p.value;
    case ProfileType::step:
      return s < p.position ? p.left : p.right;
    case ProfileType::tanh_front:
      return p.left + (p.right - p.left) * 0.5 * (1.0 + std::tanh((s - p.position) / p.width));
    case ProfileType::rectangle: {
      const bool inside = r[0] >= p.x_min && r[0] <= p.x_max && r[1] >= p.y_min && r[1] <= p.y_max;
      return inside ? p.value : p.background;
    }
    case ProfileType::rest:
      return rest;
  }
  return 0.0;
}

std::vector<real> sample_profile(const Profile& profile, const Domain& domain, real rest) {
  std::vector<real> values(static_cast<std::size_t>(domain.node_count()));
  for (index_t node = 0; node < domain.node_count(); ++node)
    values[static_cast<std::size_t>(node)] = evaluate_profile(profile, domain.position(node), rest);
  return values;
}

}  // namespace fhn
