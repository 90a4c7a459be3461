#pragma once
// The uniform base grid x_i = i L / (N - 1), i = 0..N-1 (both ends are nodes).
#include <vector>

#include "core/types.hpp"

namespace fhn {

inline std::vector<real> uniform_nodes(real length, index_t nodes) {
  std::vector<real> x(static_cast<std::size_t>(nodes));
  const real last = static_cast<real>(nodes - 1);
  for (index_t i = 0; i < nodes; ++i) x[i] = length * (static_cast<real>(i) / last);
  return x;
}

}  // namespace fhn
