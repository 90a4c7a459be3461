#pragma once
// Parameter fields: the model's parameters (D and those of the run's kinetics form) over the
// nodes, and which nodes are tissue (docs/ARCHITECTURE.md section 4). Each parameter is uniform,
// its scalar in ModelParams holding at every node, or per node, one value per node of the run's
// Domain in node order. Every config gives uniform parameters today (only the mask has a key,
// `tissue:`), and the schemes refuse what they do not read (require_uniform_fields).
#include <cstdint>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "core/error.hpp"

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

// How many per-node arrays a run's fields hold: what the memory estimate counts.
struct FieldArrays {
  int values = 0;     // per-node parameters (values of type real)
  bool mask = false;  // the node-type mask (one byte per node)
};

struct ParameterFields {
  ParameterField diffusion{"diffusion", {}};
  // One field per parameter of the run's form, in the order of its parameters() table; an empty
  // list (a Problem built by hand) leaves every kinetics parameter uniform.
  std::vector<ParameterField> kinetics;
  // Empty: every node is tissue; else one NodeType per node, in node order.
  std::vector<std::uint8_t> node_type;

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

// Throws ConfigError "per-node parameters (model.diffusion, model.a, a tissue mask (tissue:)) are
// not supported by <scheme> yet; ..." unless `fields` are uniform, the mask aside when the scheme
// `reads_mask`: the schemes' factories call it until their kernels read the fields.
void require_uniform_fields(const ParameterFields& fields, const std::string& scheme,
                            bool reads_mask);

// The kinetics at `node`: `uniform` (the run's form, type K) with each of its parameters that has
// per-node values taken at `node`, through the form's parameters() table (host code; the fields
// are those of K, check_fields).
template <class K>
K kinetics_at(const K& uniform, const ParameterFields& fields, index_t node) {
  K k = uniform;
  if (fields.kinetics.empty()) return k;
  std::size_t p = 0;
  K::parameters(k, [&](const char*, real& value, const Interval&) {
    FHN_ASSERT(p < fields.kinetics.size());
    const ParameterField& field = fields.kinetics[p++];
    if (!field.uniform()) value = field.values[static_cast<std::size_t>(node)];
  });
  return k;
}

}  // namespace fhn
