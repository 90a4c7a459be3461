#pragma once
// The box of nodes the execution layer runs a per-node function over, and the host policy
// (for_each_node.hpp on the host, cuda/for_each_node.cuh on the GPU).
#include "core/types.hpp"
#include "grid/domain.hpp"

namespace fhn {

// The nodes [lo[a], hi[a]) along each axis a (global indices; a missing axis [0, 1)).
struct NodeBox {
  index_t lo[kMaxAxes] = {0, 0, 0};
  index_t hi[kMaxAxes] = {1, 1, 1};
  index_t count() const { return (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]); }
};

// The host policy: threaded or not (a team of threads costs a few microseconds per launch: they
// pay off from about 2^15 nodes). Each node's value must not depend on the split.
struct HostExec {
  bool threaded = false;
  static HostExec for_nodes(index_t nodes) { return {nodes >= (index_t{1} << 15)}; }
};

}  // namespace fhn
