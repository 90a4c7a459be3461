#include "model/parameter_fields.hpp"

#include <cmath>

#include "config/names.hpp"
#include "core/format.hpp"

namespace fhn {
namespace {

// The key under model: of each parameter of `model`'s form, in its table's order, and the
// interval each allows.
struct Parameter {
  std::string key;
  Interval range;
};
std::vector<Parameter> form_parameters(const ModelParams& model) {
  std::vector<Parameter> out;
  with_kinetics(model.kinetics, [&](const auto& k) {
    k.parameters(k, [&](const char* key, const real&, const Interval& range) {
      out.push_back({key, range});
    });
  });
  return out;
}

// `list` + ", " + item (item alone when the list is empty).
void append(std::string& list, const std::string& item) {
  list += (list.empty() ? "" : ", ") + item;
}

// A per-node field: one value per node (InternalError), each finite and in `range` (ConfigError
// naming model.<name>).
void check_field(const ParameterField& field, const Interval& range, index_t node_count) {
  if (field.uniform()) return;
  const std::string key = "model." + field.name;
  FHN_VERIFY(field.values.size() == static_cast<std::size_t>(node_count), InternalError,
             key + ": a per-node field of " + std::to_string(field.values.size()) +
                 " values on a domain of " + std::to_string(node_count) +
                 " nodes; expected one value per node");
  for (std::size_t i = 0; i < field.values.size(); ++i) {
    const real value = field.values[i];
    if (!std::isfinite(value) || !range.contains(value))
      throw ConfigError(key, "the per-node value at node " + std::to_string(i) + " is " +
                                 format_exact(value) + "; expected " + range.describe());
  }
}

// The anisotropic tensor: the components per node when it varies (InternalError otherwise), each
// node's tensor positive definite (D_xx > 0, D_xx D_yy > D_xy^2: what D_l, D_t > 0 give).
void check_tensor(const TensorField& tensor, index_t node_count) {
  if (!tensor.enabled) return;
  const auto n = static_cast<std::size_t>(node_count);
  const bool per_node = !tensor.uniform();
  FHN_VERIFY(!per_node || (tensor.xx_values.size() == n && tensor.xy_values.size() == n &&
                           tensor.yy_values.size() == n),
             InternalError, "anisotropy: a per-node tensor needs one value of each component "
                            "per node (" + std::to_string(n) + ")");
  for (std::size_t i = 0; i < (per_node ? n : 1); ++i) {
    const real xx = per_node ? tensor.xx_values[i] : tensor.xx;
    const real xy = per_node ? tensor.xy_values[i] : tensor.xy;
    const real yy = per_node ? tensor.yy_values[i] : tensor.yy;
    if (!positive_definite(xx, xy, yy))
      throw ConfigError("anisotropy", "the diffusion tensor (" + format_exact(xx) + ", " +
                                          format_exact(xy) + ", " + format_exact(yy) +
                                          ") at node " + std::to_string(i) +
                                          " is not positive definite");
  }
}

}  // namespace

bool ParameterFields::uniform() const {
  const FieldArrays held = arrays();
  return held.values == 0 && !held.mask && !tensor.enabled;
}

FieldArrays ParameterFields::arrays() const {
  FieldArrays held;
  held.values = diffusion.uniform() ? 0 : 1;
  for (const ParameterField& field : kinetics) held.values += field.uniform() ? 0 : 1;
  if (!tensor.uniform()) held.values += 3;
  held.mask = !node_type.empty();
  held.quadrants = held.values > 0 || held.mask || tensor.enabled;
  return held;
}

ParameterFields uniform_fields(const ModelParams& model) {
  ParameterFields fields;
  for (const Parameter& parameter : form_parameters(model))
    fields.kinetics.push_back({parameter.key, {}});
  return fields;
}

void check_fields(const ParameterFields& fields, const ModelParams& model, index_t node_count) {
  const std::vector<Parameter> parameters = form_parameters(model);
  if (!fields.kinetics.empty()) {
    std::string expected, held;
    for (const Parameter& parameter : parameters) append(expected, parameter.key);
    for (const ParameterField& field : fields.kinetics) append(held, field.name);
    FHN_VERIFY(held == expected, InternalError,
               "parameter fields: the kinetics fields (" + held + ") are not the parameters of "
               "model.form '" + kinetics_name(model.kinetics) + "' (" + expected + ")");
  }
  // D = 0 in a field cuts a region off (a scar): the harmonic mean on its faces is 0.
  check_field(fields.diffusion, non_negative(), node_count);
  check_tensor(fields.tensor, node_count);
  for (std::size_t p = 0; p < fields.kinetics.size(); ++p)
    check_field(fields.kinetics[p], parameters[p].range, node_count);
  if (fields.node_type.empty()) return;
  FHN_VERIFY(fields.node_type.size() == static_cast<std::size_t>(node_count), InternalError,
             "node-type mask: " + std::to_string(fields.node_type.size()) +
                 " entries on a domain of " + std::to_string(node_count) +
                 " nodes; expected one entry per node");
  for (std::size_t i = 0; i < fields.node_type.size(); ++i) {
    const int type = fields.node_type[i];
    if (type != static_cast<int>(NodeType::tissue) && type != static_cast<int>(NodeType::outside))
      throw ConfigError("node-type mask: node " + std::to_string(i) + " has type " +
                        std::to_string(type) + "; expected 0 (tissue) or 1 (outside)");
  }
}

void kinetics_values(const ParameterFields& fields, const real* (&values)[kMaxFormParameters]) {
  FHN_VERIFY(fields.kinetics.size() <= static_cast<std::size_t>(kMaxFormParameters), InternalError,
             "parameter fields: " + std::to_string(fields.kinetics.size()) +
                 " kinetics parameters; kMaxFormParameters is " +
                 std::to_string(kMaxFormParameters));
  for (int p = 0; p < kMaxFormParameters; ++p) {
    const auto at = static_cast<std::size_t>(p);
    values[p] = at < fields.kinetics.size() && !fields.kinetics[at].uniform()
                    ? fields.kinetics[at].values.data()
                    : nullptr;
  }
}

capability::Medium medium_of(const ParameterFields& fields) {
  capability::Medium medium;
  if (!fields.diffusion.uniform()) append(medium.parameters, "model." + fields.diffusion.name);
  for (const ParameterField& field : fields.kinetics)
    if (!field.uniform()) append(medium.parameters, "model." + field.name);
  medium.per_node = !medium.parameters.empty();
  medium.mask = !fields.node_type.empty();
  medium.tensor = fields.tensor.enabled;
  return medium;
}

}  // namespace fhn
