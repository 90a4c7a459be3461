#pragma once
// Parameter fields: the model's parameters (D and those of the run's kinetics form) over the
// nodes, and which nodes are tissue (docs/ARCHITECTURE.md section 4). Each parameter is uniform,
// its scalar in ModelParams holding at every node, or per node, one value per node of the run's
// Domain in node order; an anisotropic sheet's tensor likewise. The config fills them (tissue:,
// fields:, anisotropy:; model/tissue.hpp, model/field_values.hpp), and the schemes refuse what
// they do not read (medium_of, config/capabilities.hpp).
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "config/capabilities.hpp"
#include "config/config.hpp"
#include "core/error.hpp"
#include "grid/quadrants.hpp"

namespace fhn {

// One parameter over the nodes.
struct ParameterField {
  std::string name;          // its key under model: "diffusion", or a form's ("a", "epsilon")
  std::vector<real> values;  // empty: uniform; else one value per node, in node order
  bool uniform() const { return values.empty(); }
};

// What a node of the node-type mask is, one byte per node. The values are fixed (a device copy
// and any file that stores a mask read them as they are); 2 to 255 are reserved for later types.
enum class NodeType : std::uint8_t {
  tissue = 0,   // the equations hold
  outside = 1,  // no tissue: an obstacle, or a node beyond a shaped domain's edge
};

// The diffusion tensor of an anisotropic sheet (anisotropy:), D = D_t I + (D_l - D_t) f f^T with
// f = (cos theta, sin theta): D_xx = D_t + (D_l - D_t) cos^2, D_xy = (D_l - D_t) cos sin,
// D_yy = D_t + (D_l - D_t) sin^2. Uniform (the three scalars) unless the fibre angle varies, then
// one value of each per node (anisotropic_tensor in model/field_values.hpp fills them).
struct TensorField {
  bool enabled = false;        // false: isotropic, D = model.diffusion (or its field)
  real xx = 0.0, xy = 0.0, yy = 0.0;
  std::vector<real> xx_values, xy_values, yy_values;  // empty: uniform
  bool uniform() const { return xx_values.empty(); }
};

// Whether the symmetric tensor [[xx, xy], [xy, yy]] is positive definite as computed: finite,
// D_xx > 0 and D_xx D_yy > D_xy^2 (then D_yy > 0 too).
inline bool positive_definite(real xx, real xy, real yy) {
  return std::isfinite(xx) && std::isfinite(xy) && std::isfinite(yy) && xx > 0.0 &&
         xx * yy > xy * xy;
}

// How many per-node arrays a run's fields hold: what the memory estimate counts.
struct FieldArrays {
  int values = 0;     // per-node parameters and tensor components (values of type real)
  bool mask = false;  // the node-type mask (one byte per node)
  bool quadrants = false;  // the scheme's quadrant bytes (one per node; fields not uniform)
};

struct ParameterFields {
  ParameterField diffusion{"diffusion", {}};
  // One field per parameter of the run's form, in the order of its parameters() table; an empty
  // list (a Problem built by hand) leaves every kinetics parameter uniform.
  std::vector<ParameterField> kinetics;
  // Empty: every node is tissue; else one NodeType per node, in node order.
  std::vector<std::uint8_t> node_type;
  // node_type as the frames and the probes read it (FrameView::outside): nullptr where every node
  // is tissue.
  const std::uint8_t* outside_mask() const { return node_type.empty() ? nullptr : node_type.data(); }
  // anisotropy: the diffusion tensor in place of the scalar D (then `diffusion` stays uniform).
  TensorField tensor;

  // Every parameter uniform and no mask: what the kernels run on today.
  bool uniform() const;
  FieldArrays arrays() const;
};

// Uniform fields for `model`'s form: one field per parameter of its table, named by its key.
ParameterFields uniform_fields(const ModelParams& model);

// Checks the fields of a run on `node_count` nodes with the parameters of `model`:
// InternalError when the kinetics fields are not those of model's form (names, order) or a
// per-node field has not one value per node (whoever filled them has a bug); ConfigError naming
// the parameter's key ("model.a: ...") when a per-node value is not finite or leaves the
// parameter's interval (the form's table; D > 0), or a mask entry is not a NodeType.
void check_fields(const ParameterFields& fields, const ModelParams& model, index_t node_count);

// The medium `fields` hold, as the capability table (config/capabilities.hpp) asks of a scheme:
// a tissue mask, per-node D or kinetics parameters (named by their keys: "model.diffusion,
// model.a"), an anisotropic tensor. The scheme factories and check_problem (model/problem.hpp)
// ask the table with it, so that fhn validate refuses what fhn run would.
capability::Medium medium_of(const ParameterFields& fields);

// The kinetics at `node`: `uniform` (the run's form, type K) with its p-th parameter (in its
// parameters() order) taken from values[p][node] where values[p] is not nullptr (host and
// device: the kernels of heterogeneous sheets call it with device arrays).
struct TakeAtNode {
  const real* const* values;
  index_t node;
  int p;
  FHN_HOST_DEVICE void operator()(const char*, real& value, const Interval&) {
    if (values[p] != nullptr) value = values[p][node];
    ++p;
  }
};
template <class K>
FHN_HOST_DEVICE K kinetics_at(const K& uniform, const real* const (&values)[kMaxFormParameters],
                              index_t node) {
  K k = uniform;
  TakeAtNode take{values, node, 0};
  K::parameters(k, take);
  return k;
}

// The per-node arrays of the kinetics fields as kinetics_at reads them: values[p] the p-th
// field's values (host), nullptr where uniform or beyond the fields.
void kinetics_values(const ParameterFields& fields, const real* (&values)[kMaxFormParameters]);

// The same from the fields themselves (host code; the fields are those of K, check_fields).
template <class K>
K kinetics_at(const K& uniform, const ParameterFields& fields, index_t node) {
  const real* values[kMaxFormParameters] = {};
  kinetics_values(fields, values);
  return kinetics_at(uniform, values, node);
}

}  // namespace fhn
