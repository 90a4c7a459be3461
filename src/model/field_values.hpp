#pragma once
// The per-node values of the config's `fields:` (spatially varying parameters) and the diffusion
// tensor of `anisotropy:` (docs/ARCHITECTURE.md section 4, "Parameter fields"; configs/README.md,
// `fields` and `anisotropy`). make_problem fills Problem::fields with them.
#include <string>
#include <vector>

#include "config/config.hpp"
#include "model/parameter_fields.hpp"

namespace fhn {

// The per-node values (node order of `domain`) of `parameter` under the entries of `fields` that
// name it, applied in order over `base` at every node; empty when no entry names it.
//   region:   s = 1 inside the region, 0 outside (edge 0: region_contains, so that a field agrees
//             with the tissue mask of the same shape exactly); for edge > 0 the blend
//             s = clamp(1/2 - d / edge, 0, 1), d = signed_distance; new = old + s (value - old)
//             (exactly `value` where s = 1 and `old` where s = 0);
//   gradient: t = clamp((q - start) / (end - start), 0, 1), q the coordinate along `axis`;
//             new = from + t (to - from) at every node (exactly `from` at q <= start, `to` at
//             q >= end);
//   image:    new = from + p (to - from), p the pixel's value (picture_value, model/tissue.hpp),
//             on the picture's rectangle; `old` off it.
std::vector<real> field_values(const std::vector<FieldSpec>& fields, const std::string& parameter,
                               real base, const Domain& domain);

// The per-node values of the form's parameters (field_values of each, over model:'s value) in
// `fields`.kinetics, which uniform_fields(c.model) made (one field per parameter, in order).
void fill_kinetics_fields(const Config& c, ParameterFields& fields);

// The signed distance from r (x, y) to the region's boundary, negative inside, for the blended
// edge: disc |r - c| - R; rectangle the distance to the box outside, minus that to its nearest
// side inside; polygon the distance to the nearest edge segment, negative inside by the even-odd
// rule (region_contains). `add` is not read.
real signed_distance(const TissueRegion& region, const Point& r);

// The anisotropic tensor of `spec` (TensorField, model/parameter_fields.hpp; enabled):
// D_xx = D_t + (D_l - D_t) c^2, D_xy = (D_l - D_t) c s, D_yy = D_t + (D_l - D_t) s^2 with
// c = cos theta, s = sin theta. Uniform (the scalars, from spec.angle) when `angle_values` is
// empty, else also per node from the per-node angles in degrees (one per node, node order; the
// scalars stay those of spec.angle). At a multiple of 90 degrees c and s are exactly 0 or +-1, so
// fibres along an axis give D_xy = 0 exactly.
TensorField anisotropic_tensor(const AnisotropySpec& spec, const std::vector<real>& angle_values);

}  // namespace fhn
