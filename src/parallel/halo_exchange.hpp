#pragma once
// Refreshing a slab's halo planes from its neighbours (parallel/decomposition.hpp): the `depth`
// planes just below the owned ones receive the lower neighbour's top `depth` owned planes, the
// `depth` planes just above receive the upper neighbour's bottom ones (depth <= slab.halo).
// Bytes per exchange and rank: 2 sides x depth x plane x 8 B, sent and received.
//
// The host exchange goes through the Communicator (MPI); the device one (parallel/cuda/) through
// NCCL. One rank exchanges nothing.
#include <memory>

#include "parallel/communicator.hpp"
#include "parallel/decomposition.hpp"

namespace fhn {

class HaloExchange {
 public:
  virtual ~HaloExchange() = default;
  // `array`: the slab's slab.array_nodes() values, in host memory.
  virtual void exchange(real* array, index_t depth) = 0;
};

std::unique_ptr<HaloExchange> make_host_halo_exchange(const Slab& slab, Communicator& comm);

}  // namespace fhn
