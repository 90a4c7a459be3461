#include "parallel/decomposition.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace fhn {

Slab make_slab(const Domain& domain, int rank, int ranks, index_t halo, index_t min_planes) {
  Slab s;
  s.rank = rank;
  s.ranks = ranks;
  s.axis = domain.dims - 1;
  s.plane = domain.stride(s.axis);
  s.planes = domain.nodes[s.axis];
  const index_t base = s.planes / ranks, extra = s.planes % ranks;
  s.count = base + (rank < extra ? 1 : 0);
  s.first = rank * base + std::min<index_t>(rank, extra);
  s.halo = ranks == 1 ? 0 : halo;
  FHN_VERIFY(base >= min_planes, ConfigError,
             "domain.nodes: " + std::to_string(s.planes) + " nodes along " + axis_name(s.axis) +
                 " cannot be shared by " + std::to_string(ranks) + " ranks: each needs at least " +
                 std::to_string(min_planes) + "; use fewer ranks or more nodes");
  return s;
}

std::vector<std::size_t> owned_node_counts(const Domain& domain, int ranks) {
  std::vector<std::size_t> counts;
  for (int r = 0; r < ranks; ++r)
    counts.push_back(static_cast<std::size_t>(make_slab(domain, r, ranks, 0).owned_nodes()));
  return counts;
}

}  // namespace fhn
