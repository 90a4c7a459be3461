#pragma once
// Halo exchanges of device arrays between the ranks of a run, one GPU per rank (the device side
// of parallel/halo_exchange.hpp): the `depth` planes below a slab's owned ones receive the lower
// neighbour's top `depth` owned planes, the `depth` planes above the upper neighbour's bottom
// ones. Bytes per exchange, rank and array: 2 sides x depth x plane x 8 B, sent and received.
//
// A halo exchange is made by a transport (device_transport.hpp: NCCL, or host staging where
// ranks share a GPU or NCCL is not compiled in), chosen for all ranks alike.
#include <cuda_runtime.h>

#include <initializer_list>
#include <memory>
#include <string>

#include "parallel/communicator.hpp"
#include "parallel/decomposition.hpp"

namespace fhn::cuda {

class DeviceHaloExchange {
 public:
  virtual ~DeviceHaloExchange() = default;
  // "halos by NCCL", "halos through host memory (ranks share a GPU)", ...
  virtual std::string describe() const = 0;
  // Refreshes `depth` (1..slab.halo) halo planes on each side of every array in `arrays` (device
  // arrays of slab.array_nodes() values, at most the `fields` given to the factory), in stream
  // order on `stream`: it reads the owned planes once the stream's earlier work is done, and later
  // work on the stream sees the new halos. Every rank calls it with the same arrays and depth.
  virtual void exchange(std::initializer_list<real*> arrays, index_t depth,
                        cudaStream_t stream) = 0;
};

// Makes GPU comm.local_rank() mod (GPUs on this machine) the current device of this rank. Call
// before anything is allocated on a device. Throws DeviceError without a usable device.
void use_rank_device(const Communicator& comm);

// The exchange of `slab`'s halos (slab.halo planes at most) for up to `fields` arrays at once,
// by the transport make_device_transport chooses. Collective: every rank calls it, after
// use_rank_device.
std::unique_ptr<DeviceHaloExchange> make_device_halo_exchange(const Slab& slab,
                                                              Communicator& comm, int fields);

// ---- Each transport's halo exchange (what make_device_halo_exchange chooses between) ----
// Whether this build has NCCL (nccl_transport.cpp; nccl_unavailable.cpp says no).
bool nccl_compiled();
// By an NCCL communicator of its own. Collective over comm (ncclCommInitRank). Throws
// DeviceError where NCCL is not compiled.
std::unique_ptr<DeviceHaloExchange> make_nccl_halo_exchange(const Slab& slab,
                                                            Communicator& comm);
// Through host memory; `why`: the reason for staging, for describe().
std::unique_ptr<DeviceHaloExchange> make_staged_halo_exchange(const Slab& slab,
                                                              Communicator& comm, int fields,
                                                              const std::string& why);

}  // namespace fhn::cuda
