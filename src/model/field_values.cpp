#include "model/field_values.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "core/format.hpp"
#include "model/tissue.hpp"

namespace fhn {
namespace {

// (1 - s) a + s b: the point at fraction s of the way from a to b, a + s (b - a), evaluated so
// that s = 0 gives a and s = 1 gives b exactly (and s = 1/2 gives (a + b) / 2 to the last bit).
real lerp(real a, real b, real s) { return (1.0 - s) * a + s * b; }

// The weight of a region entry at r: 1 in the region, 0 outside. Sharp (edge 0): region_contains,
// the tissue mask's own test. Blended: linear across a band of width `edge` centred on the
// boundary, s = clamp(1/2 - d / edge, 0, 1), d the signed distance (1/2 on the boundary, 1 from
// d = -edge/2 inwards, 0 from d = edge/2 outwards).
real region_weight(const FieldSpec& field, const Point& r) {
  if (field.edge <= 0.0) return region_contains(field.region, r) ? 1.0 : 0.0;
  return std::clamp(0.5 - signed_distance(field.region, r) / field.edge, 0.0, 1.0);
}

// A gradient entry at r: t = clamp((q - start) / (end - start), 0, 1), q = r[axis];
// from + t (to - from).
real gradient_value(const FieldSpec& field, const Point& r) {
  const real t = std::clamp((r[field.axis] - field.start) / (field.end - field.start), 0.0, 1.0);
  return lerp(field.from, field.to, t);
}

// The distance from r to the segment from a to b (x, y): the nearest point a + t (b - a),
// t = clamp((r - a).(b - a) / |b - a|^2, 0, 1) (t = 0 for a segment of no length), formed from
// the scaled points (scaled_edge, model/tissue.hpp) so that no square overflows, and scaled back.
real segment_distance(const Point& a_in, const Point& b_in, const Point& r_in) {
  const ScaledEdge scaled = scaled_edge(a_in, b_in, r_in);
  const Point &a = scaled.a, &b = scaled.b, &r = scaled.r;
  const real ex = b[0] - a[0], ey = b[1] - a[1];
  const real length2 = ex * ex + ey * ey;
  const real t = length2 > 0.0
                     ? std::clamp(((r[0] - a[0]) * ex + (r[1] - a[1]) * ey) / length2, 0.0, 1.0)
                     : 0.0;
  return std::ldexp(std::hypot(r[0] - (a[0] + t * ex), r[1] - (a[1] + t * ey)), scaled.exponent);
}

// cos and sin of an angle in degrees: theta = degrees pi / 180, exact (0, +-1) at a multiple of
// 90 degrees (where cos(pi / 2) would be 6e-17, not 0).
void cos_sin_degrees(real degrees, real& c, real& s) {
  if (std::fmod(degrees, 90.0) == 0.0) {
    // quarter turns mod 4, in 0..3 (fmod is exact; the quotient of a multiple of 90 is whole)
    const int quarter = (static_cast<int>(std::fmod(degrees / 90.0, 4.0)) + 4) % 4;
    constexpr real kCos[4] = {1.0, 0.0, -1.0, 0.0}, kSin[4] = {0.0, 1.0, 0.0, -1.0};
    c = kCos[quarter];
    s = kSin[quarter];
    return;
  }
  const real theta = degrees * (kTwoPi / 360.0);
  c = std::cos(theta);
  s = std::sin(theta);
}

// D = D_t I + (D_l - D_t) f f^T, f = (c, s): D_xx = D_t + (D_l - D_t) c^2,
// D_xy = (D_l - D_t) c s, D_yy = D_t + (D_l - D_t) s^2.
void tensor_at(const AnisotropySpec& spec, real degrees, real& xx, real& xy, real& yy) {
  real c = 0.0, s = 0.0;
  cos_sin_degrees(degrees, c, s);
  const real k = spec.longitudinal - spec.transverse;
  xx = spec.transverse + k * c * c;
  xy = k * c * s;
  yy = spec.transverse + k * s * s;
}

}  // namespace

std::vector<real> field_values(const std::vector<FieldSpec>& fields, const std::string& parameter,
                               real base, const Domain& domain) {
  const bool named =
      std::any_of(fields.begin(), fields.end(),
                  [&](const FieldSpec& field) { return field.parameter == parameter; });
  if (!named) return {};
  std::vector<real> values(static_cast<std::size_t>(domain.node_count()), base);
  for (const FieldSpec& field : fields) {
    if (field.parameter != parameter) continue;
    for (index_t node = 0; node < domain.node_count(); ++node) {
      real& value = values[static_cast<std::size_t>(node)];
      const Point r = domain.position(node);
      switch (field.type) {
        case FieldType::region: value = lerp(value, field.value, region_weight(field, r)); break;
        case FieldType::gradient: value = gradient_value(field, r); break;
        case FieldType::image:  // from + (to - from) p on the picture, unchanged off it
          if (const std::optional<real> p = picture_value(field.region, r))
            value = lerp(field.from, field.to, *p);
          break;
      }
    }
  }
  return values;
}

real signed_distance(const TissueRegion& region, const Point& r) {
  switch (region.shape) {
    case TissueShape::disc:
      // |r - c| - R
      return std::hypot(r[0] - region.center[0], r[1] - region.center[1]) - region.radius;
    case TissueShape::rectangle: {
      // Per axis the signed distance to the slab: u = max(x_min - x, x - x_max) (<= 0 inside),
      // v likewise in y. Outside: the distance to the box, |(max(u, 0), max(v, 0))|; inside:
      // minus the distance to the nearest side, min(max(u, v), 0). One of the two terms is 0.
      const real u = std::max(region.x_min - r[0], r[0] - region.x_max);
      const real v = std::max(region.y_min - r[1], r[1] - region.y_max);
      return std::hypot(std::max(u, 0.0), std::max(v, 0.0)) + std::min(std::max(u, v), 0.0);
    }
    case TissueShape::polygon: {
      // min over the edges (p_j, p_i), the last corner back to the first included, of the
      // segment distance; negative inside by the even-odd rule.
      real nearest = std::numeric_limits<real>::infinity();
      const std::vector<Point>& p = region.points;
      for (std::size_t i = 0, j = p.size() - 1; i < p.size(); j = i++)
        nearest = std::min(nearest, segment_distance(p[j], p[i], r));
      return region_contains(region, r) ? -nearest : nearest;
    }
    case TissueShape::image:  // pixels have no distance: the loader allows no blend for them
      FHN_VERIFY(false, InternalError, "signed_distance: an image region has no blended edge");
  }
  return 0.0;
}

TensorField anisotropic_tensor(const AnisotropySpec& spec, const std::vector<real>& angle_values) {
  TensorField t;
  t.enabled = true;
  // Mathematically D_xx D_yy - D_xy^2 = D_l D_t > 0, but computed it cancels: with D_t / D_l near
  // the round-off of D_l^2 (about 1e-16) the tensor at an angle off the axes is not positive
  // definite. That is the value of the smaller of D_l and D_t, reported at its key.
  // `node` < 0: the uniform tensor.
  auto check = [&](real degrees, real xx, real xy, real yy, index_t node) {
    if (positive_definite(xx, xy, yy)) return;
    const bool transverse = spec.transverse <= spec.longitudinal;
    const std::string key = transverse ? "anisotropy.transverse" : "anisotropy.longitudinal";
    const std::string other = transverse ? "anisotropy.longitudinal" : "anisotropy.transverse";
    throw ConfigError(
        key, format_exact(transverse ? spec.transverse : spec.longitudinal) + " beside " + other +
                 " = " + format_exact(transverse ? spec.longitudinal : spec.transverse) +
                 " leaves the diffusion tensor (D_xx, D_xy, D_yy) = (" + format_exact(xx) + ", " +
                 format_exact(xy) + ", " + format_exact(yy) + ") at the fibre angle " +
                 format_exact(degrees) + " degrees" +
                 (node < 0 ? "" : " (node " + std::to_string(node) + ")") +
                 " not positive definite in double precision (D_xx D_yy - D_xy^2 = D_l D_t is "
                 "lost to round-off); keep the ratio of the two above about 1e-15");
  };
  tensor_at(spec, spec.angle, t.xx, t.xy, t.yy);
  if (angle_values.empty()) {
    check(spec.angle, t.xx, t.xy, t.yy, -1);
    return t;
  }
  const std::size_t n = angle_values.size();
  t.xx_values.resize(n);
  t.xy_values.resize(n);
  t.yy_values.resize(n);
  for (std::size_t node = 0; node < n; ++node) {
    tensor_at(spec, angle_values[node], t.xx_values[node], t.xy_values[node], t.yy_values[node]);
    check(angle_values[node], t.xx_values[node], t.xy_values[node], t.yy_values[node],
          static_cast<index_t>(node));
  }
  return t;
}

void fill_kinetics_fields(const Config& c, ParameterFields& fields) {
  with_kinetics(c.model.kinetics, [&](const auto& k) {
    std::size_t index = 0;
    k.parameters(k, [&](const char* key, const real& value, const Interval&) {
      fields.kinetics[index++].values = field_values(c.fields, key, value, c.domain);
    });
  });
}

}  // namespace fhn
