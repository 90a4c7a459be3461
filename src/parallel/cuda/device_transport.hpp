#pragma once
// How device arrays travel between the ranks of a run (one GPU per rank, or ranks sharing one),
// and the exchanges a transport makes: halo exchanges (device_halo_exchange.hpp: a slab's halo
// planes from its neighbours) and all-to-all exchanges (below: a block from every rank to every
// rank, e.g. the transpose of a sheet's rows into its columns). Two transports, chosen by
// make_device_transport for all ranks alike:
//   NCCL (nccl_transport.cpp): GPU to GPU, queued on a stream, no host involvement; one NCCL
//     communicator serves every exchange the transport makes; needs every rank on its own GPU
//     (NCCL refuses two ranks on one device).
//   host staging (device_transport.cpp): device -> host buffer -> Communicator (MPI) -> device;
//     used where ranks share a GPU (e.g. 2 ranks on a 1-GPU machine) or NCCL is not compiled in.
//     The host waits for the copies out (one synchronisation per exchange).
#include <cuda_runtime.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "parallel/cuda/device_halo_exchange.hpp"

namespace fhn::cuda {

class DeviceAllToAll {
 public:
  virtual ~DeviceAllToAll() = default;
  // Communicator::all_to_all on device arrays, in stream order on `stream`: every rank sends
  // send_counts[s] consecutive values of `send` (blocks in rank order) to rank s and receives
  // receive_counts[r] values from rank r into `receive` (blocks in rank order). It reads `send`
  // once the stream's earlier work is done; later work on the stream sees `receive`. The arrays
  // must not overlap; the counts must match (rank r's send_counts[s] is rank s's
  // receive_counts[r]). Bytes per rank: the values sent and received, 8 B each.
  virtual void exchange(const real* send, const std::vector<std::size_t>& send_counts,
                        real* receive, const std::vector<std::size_t>& receive_counts,
                        cudaStream_t stream) = 0;
};

class DeviceTransport {
 public:
  virtual ~DeviceTransport() = default;
  // "by NCCL", "through host memory (ranks share a GPU)", ...
  virtual std::string describe() const = 0;
  // The exchanges of this transport (they may outlive it). `fields`: the most arrays one halo
  // exchange takes (host staging sizes its buffers by it).
  virtual std::unique_ptr<DeviceHaloExchange> halo_exchange(const Slab& slab, int fields) = 0;
  virtual std::unique_ptr<DeviceAllToAll> all_to_all() = 0;
};

// NCCL where every rank has a GPU of its own and NCCL is compiled in, else host staging: one
// decision for all ranks (the exchanges of two transports would not match). Collective: every
// rank calls it, after use_rank_device.
std::unique_ptr<DeviceTransport> make_device_transport(Communicator& comm);

// ---- The transports (what make_device_transport chooses between) ----
// Collective over comm (ncclCommInitRank). Throws DeviceError where NCCL is not compiled.
std::unique_ptr<DeviceTransport> make_nccl_transport(Communicator& comm);
// `why`: the reason for staging, for describe().
std::unique_ptr<DeviceTransport> make_staged_transport(Communicator& comm, const std::string& why);

}  // namespace fhn::cuda
