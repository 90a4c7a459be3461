#include "model/initial.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <optional>

#include "config/names.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "model/field_values.hpp"
#include "model/tissue.hpp"

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

NodeRest::NodeRest(const Kinetics& uniform, const real* const (&values)[kMaxFormParameters])
    : uniform_(uniform) {
  std::copy(std::begin(values), std::end(values), std::begin(values_));
}

NodeState NodeRest::at(index_t node, bool unique) {
  with_kinetics(uniform_, [&](const auto& uniform) {
    const auto k = kinetics_at(uniform, values_, node);
    std::array<real, kMaxFormParameters> here{};
    std::size_t p = 0;
    k.parameters(k, [&](const char*, const real& value, const Interval&) { here[p++] = value; });
    if (found_ && here == parameters_) return;
    found_ = true;
    parameters_ = here;
    rest_ = k.rest();
    issue_ = k.rest_issue();
  });
  const bool finite = std::isfinite(rest_.v) && std::isfinite(rest_.w);
  if (!issue_.key.empty() && (unique || !finite))
    throw ConfigError(issue_.key, issue_.text + (unique ? "; a `rest` profile (initial:) takes it"
                                                        : "; nodes outside the tissue hold it"));
  return rest_;
}

namespace {

// A profile as a message names it: its type and the numbers a value that is not finite comes
// from (the types whose formula can overflow; the others give a number of the config).
std::string profile_text(const Profile& p) {
  std::string text = "{type: " + name_of(profile_type_names(), p.type);
  auto point = [](const Point& c, int axes) {
    std::string out = "[" + format_exact(c[0]);
    for (int a = 1; a < axes; ++a) out += ", " + format_exact(c[static_cast<std::size_t>(a)]);
    return out + "]";
  };
  switch (p.type) {
    case ProfileType::gaussian:
      text += ", width2: " + format_exact(p.width2) + ", amplitude: " + format_exact(p.amplitude) +
              ", background: " + format_exact(p.background);
      break;
    case ProfileType::tanh_front:
      text += ", position: " + format_exact(p.position) + ", width: " + format_exact(p.width) +
              ", left: " + format_exact(p.left) + ", right: " + format_exact(p.right);
      break;
    case ProfileType::spiral:
      text += ", center: " + point(p.center, 2) + ", wavelength: " + format_exact(p.wavelength);
      break;
    case ProfileType::scroll_ring:
      text += ", center: " + point(p.center, 3) + ", radius: " + format_exact(p.radius) +
              ", wavelength: " + format_exact(p.wavelength);
      break;
    default:
      break;
  }
  return text + "}";
}

// A field's value that is not finite at `node`: ConfigError at initial.<field>, its profile named.
[[noreturn]] void not_finite(const std::string& field, const Profile& profile, const Domain& d,
                             index_t node, real value) {
  const Point r = d.position(node);
  std::string at = format_exact(r[0]);
  for (int a = 1; a < d.dims; ++a) at += ", " + format_exact(r[static_cast<std::size_t>(a)]);
  throw ConfigError("initial." + field,
                    profile_text(profile) + " gives " + field + " = " + format_exact(value) +
                        " at the node (" + at + "); every initial value must be a finite number" +
                        (excursion_start(profile.type)
                             ? " (a node takes the excursion at the phase theta/(2 pi) - "
                               "rho/wavelength, which must be finite)"
                             : ""));
}

// Both fields' values at every node, in node order, each finite: take(node, state).
template <class Take>
void each_node_state(const InitialSpec& initial, const Domain& domain, NodeRest& rest,
                     const Excursion* excursion, Take take) {
  const Profile& v = initial.v;
  const Profile& w = initial.w;
  // The loader gives an excursion start to v and w together, with one geometry.
  FHN_VERIFY(excursion == nullptr ||
                 (excursion_start(v.type) && v.type == w.type && v.center == w.center &&
                  v.wavelength == w.wavelength && v.radius == w.radius),
             InternalError, "sample_fields: v and w are not one excursion start");
  const bool rests = v.type == ProfileType::rest || w.type == ProfileType::rest;
  for (index_t node = 0; node < domain.node_count(); ++node) {
    const Point r = domain.position(node);
    NodeState state;
    if (excursion != nullptr) {
      state = excursion_state(v, r, *excursion);
    } else {
      const NodeState here = rests ? rest.at(node, true) : NodeState{0.0, 0.0};
      state = {evaluate_profile(v, r, {here.v, nullptr, true}),
               evaluate_profile(w, r, {here.w, nullptr, false})};
    }
    if (!std::isfinite(state.v)) not_finite("v", v, domain, node, state.v);
    if (!std::isfinite(state.w)) not_finite("w", w, domain, node, state.w);
    take(node, state);
  }
}

}  // namespace

void sample_fields(const InitialSpec& initial, const Domain& domain, NodeRest& rest,
                   const Excursion* excursion, std::vector<real>& v0, std::vector<real>& w0) {
  const auto n = static_cast<std::size_t>(domain.node_count());
  v0.resize(n);
  w0.resize(n);
  each_node_state(initial, domain, rest, excursion, [&](index_t node, const NodeState& state) {
    v0[static_cast<std::size_t>(node)] = state.v;
    w0[static_cast<std::size_t>(node)] = state.w;
  });
}

void check_initial_state(const Config& c, const ParameterFields& fields) {
  std::optional<Excursion> excursion;
  if (excursion_start(c.initial.v.type)) excursion = form_excursion(c.model.kinetics);
  const real* values[kMaxFormParameters] = {};
  kinetics_values(fields, values);
  NodeRest rest(c.model.kinetics, values);
  if (c.domain.node_count() > kStartNodesChecked) {
    // The start is checked node by node as make_problem builds it; here only the resting state
    // where the start or the tissue mask takes it, for nodes with their own parameters each.
    const bool rests = c.initial.v.type == ProfileType::rest ||
                       c.initial.w.type == ProfileType::rest || !fields.node_type.empty();
    const bool per_node = std::any_of(std::begin(values), std::end(values),
                                      [](const real* field) { return field != nullptr; });
    if (rests)
      for (index_t node = 0; node < (per_node ? c.domain.node_count() : 1); ++node)
        rest.at(node, c.initial.v.type == ProfileType::rest || c.initial.w.type == ProfileType::rest);
    return;
  }
  each_node_state(c.initial, c.domain, rest, excursion ? &*excursion : nullptr,
                  [](index_t, const NodeState&) {});
  for (std::size_t node = 0; node < fields.node_type.size(); ++node)
    if (fields.node_type[node] == static_cast<std::uint8_t>(NodeType::outside))
      rest.at(static_cast<index_t>(node), false);
}

}  // namespace fhn
