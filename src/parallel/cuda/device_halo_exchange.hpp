#pragma once
// Halo exchanges of device arrays between the ranks of a run, one GPU per rank (the device side
// of parallel/halo_exchange.hpp): the `depth` planes below a slab's owned ones receive the lower
// neighbour's top `depth` owned planes, the `depth` planes above the upper neighbour's bottom
// ones. Bytes per exchange, rank and array: 2 sides x depth x plane x 8 B, sent and received.
//
// Two transports, chosen by make_device_halo_exchange for all ranks alike:
//   NCCL (nccl_halo_exchange.cpp): GPU to GPU, queued on a stream, no host involvement; needs
//     every rank on its own GPU (NCCL refuses two ranks on one device).
//   host staging (device_halo_exchange.cpp): device -> pinned host buffer -> Communicator
//     send_receive -> device; used where ranks share a GPU (e.g. 2 ranks on a 1-GPU machine) or
//     NCCL is not compiled in. The host waits for the copies out (one sync per exchange).
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

// The exchange of `slab`'s halos (slab.halo planes at most) for up to `fields` arrays at once:
// NCCL where every rank has a GPU of its own and NCCL is compiled in, else host staging.
// Collective: every rank calls it, after use_rank_device.
std::unique_ptr<DeviceHaloExchange> make_device_halo_exchange(const Slab& slab,
                                                              Communicator& comm, int fields);

// ---- The transports (what make_device_halo_exchange chooses between) ----
// Whether this build has NCCL (nccl_halo_exchange.cpp; nccl_unavailable.cpp says no).
bool nccl_compiled();
// Collective over comm (ncclCommInitRank). Throws DeviceError where NCCL is not compiled.
std::unique_ptr<DeviceHaloExchange> make_nccl_halo_exchange(const Slab& slab,
                                                            Communicator& comm);
// `why`: the reason for staging, for describe().
std::unique_ptr<DeviceHaloExchange> make_staged_halo_exchange(const Slab& slab,
                                                              Communicator& comm, int fields,
                                                              const std::string& why);

}  // namespace fhn::cuda
