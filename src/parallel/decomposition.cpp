#include "parallel/decomposition.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace fhn {

Range split_range(index_t n, int rank, int ranks) {
  const index_t base = n / ranks, extra = n % ranks;
  return {rank * base + std::min<index_t>(rank, extra), base + (rank < extra ? 1 : 0)};
}

Slab make_slab(const Domain& domain, int rank, int ranks, index_t halo, index_t min_planes) {
  Slab s;
  s.rank = rank;
  s.ranks = ranks;
  s.axis = domain.dims - 1;
  s.plane = domain.stride(s.axis);
  s.planes = domain.nodes[s.axis];
  const Range range = split_range(s.planes, rank, ranks);
  s.first = range.first;
  s.count = range.count;
  s.halo = ranks == 1 ? 0 : halo;
  min_planes = std::max(min_planes, s.halo);  // a halo comes from one neighbour's planes
  if (s.planes / ranks < min_planes)
    throw ConfigError("domain.nodes", std::to_string(s.planes) + " nodes along " +
                                          axis_name(s.axis) + " cannot be shared by " +
                                          std::to_string(ranks) + " ranks: each needs at least " +
                                          std::to_string(min_planes) +
                                          "; use fewer ranks or more nodes");
  return s;
}

std::vector<std::size_t> owned_node_counts(const Domain& domain, int ranks) {
  std::vector<std::size_t> counts;
  for (int r = 0; r < ranks; ++r)
    counts.push_back(static_cast<std::size_t>(make_slab(domain, r, ranks, 0).owned_nodes()));
  return counts;
}

}  // namespace fhn
