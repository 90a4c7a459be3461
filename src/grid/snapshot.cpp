#include "grid/snapshot.hpp"

#include <cmath>

#include "core/error.hpp"
#include "core/format.hpp"

namespace fhn {

std::vector<real> Snapshot::coordinates(int axis) const {
  if (axis > 0 || nodes.empty()) return domain.coordinates(axis);
  std::vector<real> positions(nodes.size());
  const CablePositions at = x();
  for (std::size_t i = 0; i < nodes.size(); ++i) positions[i] = at[static_cast<index_t>(i)];
  return positions;
}

const std::vector<real>& SchemeState::get(const std::string& name, std::size_t size) const {
  const std::vector<real>* values = find(name);
  if (!values) throw IoError("checkpoint: no array '" + name + "' (written by a different scheme?)");
  if (values->size() != size)
    throw IoError("checkpoint: array '" + name + "' has " + std::to_string(values->size()) +
                  " values where the run has " + std::to_string(size) + " nodes");
  return *values;
}

const std::vector<real>& SchemeState::get_finite(const std::string& name, std::size_t size,
                                                 bool nan_allowed) const {
  const std::vector<real>& values = get(name, size);
  for (std::size_t i = 0; i < values.size(); ++i)
    if (!std::isfinite(values[i]) && !(nan_allowed && std::isnan(values[i])))
      throw IoError("checkpoint: array '" + name + "' holds " + format_exact(values[i]) +
                    " at entry " + std::to_string(i) + " (not a finite number)");
  return values;
}

index_t checkpoint_count(real value, index_t max, const std::string& what) {
  if (!(value >= 0.0 && value <= static_cast<real>(max) && std::floor(value) == value))
    throw IoError("checkpoint: " + what + " = " + format_exact(value) + " is not a count in [0, " +
                  std::to_string(max) + "]");
  return static_cast<index_t>(value);
}

}  // namespace fhn
