#include "model/parameter_fields.hpp"

#include <cmath>

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

}  // namespace

bool ParameterFields::uniform() const {
  const FieldArrays held = arrays();
  return held.values == 0 && !held.mask;
}

FieldArrays ParameterFields::arrays() const {
  FieldArrays held;
  held.values = diffusion.uniform() ? 0 : 1;
  for (const ParameterField& field : kinetics) held.values += field.uniform() ? 0 : 1;
  held.mask = !node_type.empty();
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
  check_field(fields.diffusion, positive(), node_count);
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

void require_uniform_fields(const ParameterFields& fields, const std::string& scheme,
                            bool reads_mask) {
  std::string what;
  if (!fields.diffusion.uniform()) append(what, "model." + fields.diffusion.name);
  for (const ParameterField& field : fields.kinetics)
    if (!field.uniform()) append(what, "model." + field.name);
  const bool refused_mask = !fields.node_type.empty() && !reads_mask;
  if (refused_mask) append(what, "a tissue mask (tissue:)");
  if (what.empty()) return;
  throw ConfigError("per-node parameters (" + what + ") are not supported by " + scheme +
                    " yet: its kernels read one value of each parameter, the same at every node" +
                    (refused_mask ? " (a tissue mask runs on a sheet with scheme.type: explicit, "
                                    "in one process)"
                                  : ""));
}

}  // namespace fhn
