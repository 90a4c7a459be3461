#include "model/initial.hpp"

#include <cmath>

#include "core/error.hpp"

namespace fhn {

namespace {

// The spiral start at (x, y) from its core: the form's excursion at the fraction
//   phase = theta / (2 pi) - rho / wavelength   (mod 1)
// of its duration, (rho, theta) the polar coordinates of (x, y). Along a ray the outer node is
// earlier in the excursion, so the fronts run outwards, one wavelength apart; around the core
// every phase meets.
NodeState spiral_state(real x, real y, real wavelength, const Excursion& excursion) {
  const real phase = std::atan2(y, x) / kTwoPi - std::hypot(x, y) / wavelength;
  return excursion.at(phase);
}

// An excursion start (spiral, scroll_ring) at position r: both fields' values.
NodeState excursion_state(const Profile& p, const Point& r, const Excursion& excursion) {
  if (p.type == ProfileType::spiral) {
    // An Archimedean spiral of the form's excursion about the centre (Winfree's phase-field
    // start).
    return spiral_state(r[0] - p.center[0], r[1] - p.center[1], p.wavelength, excursion);
  }
  // scroll_ring: the spiral swept around the axis x = center_x, y = center_y: in the half-plane
  // through the axis that holds r, with coordinates
  //   s = sqrt((x - c_x)^2 + (y - c_y)^2) - radius (away from the axis), z' = z - c_z,
  // the node takes the spiral's value at (s, z'). Every such half-plane holds the same spiral
  // about (radius, c_z), so the cores form a ring of that radius in the plane z = c_z: a scroll
  // ring whose filament starts as that circle.
  const real s_ring = std::hypot(r[0] - p.center[0], r[1] - p.center[1]) - p.radius;
  return spiral_state(s_ring, r[2] - p.center[2], p.wavelength, excursion);
}

}  // namespace

real evaluate_profile(const Profile& p, const Point& r, const FormValues& form) {
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
      // On a cable y is 0 and y_min = y_max = 0, likewise z on a cable and a sheet.
      const bool inside = r[0] >= p.x_min && r[0] <= p.x_max && r[1] >= p.y_min &&
                          r[1] <= p.y_max && r[2] >= p.z_min && r[2] <= p.z_max;
      return inside ? p.value : p.background;
    }
    case ProfileType::rest:
      return form.rest;
    case ProfileType::spiral:
    case ProfileType::scroll_ring: {
      const NodeState state = excursion_state(p, r, *form.excursion);
      return form.v ? state.v : state.w;
    }
  }
  return 0.0;
}

std::vector<real> sample_profile(const Profile& profile, const Domain& domain,
                                 const FormValues& form) {
  std::vector<real> values(static_cast<std::size_t>(domain.node_count()));
  for (index_t node = 0; node < domain.node_count(); ++node)
    values[static_cast<std::size_t>(node)] = evaluate_profile(profile, domain.position(node), form);
  return values;
}

void sample_fields(const InitialSpec& initial, const Domain& domain, const NodeState& rest,
                   const Excursion* excursion, std::vector<real>& v0, std::vector<real>& w0) {
  if (excursion == nullptr) {
    v0 = sample_profile(initial.v, domain, {rest.v, nullptr, true});
    w0 = sample_profile(initial.w, domain, {rest.w, nullptr, false});
    return;
  }
  // The loader gives an excursion start to v and w together, with one geometry.
  const Profile& v = initial.v;
  const Profile& w = initial.w;
  FHN_VERIFY(excursion_start(v.type) && v.type == w.type && v.center == w.center &&
                 v.wavelength == w.wavelength && v.radius == w.radius,
             InternalError, "sample_fields: v and w are not one excursion start");
  const auto n = static_cast<std::size_t>(domain.node_count());
  v0.resize(n);
  w0.resize(n);
  for (std::size_t node = 0; node < n; ++node) {
    const NodeState state =
        excursion_state(initial.v, domain.position(static_cast<index_t>(node)), *excursion);
    v0[node] = state.v;
    w0[node] = state.w;
  }
}

}  // namespace fhn
