// The host-staged transport (halo exchanges and all-to-all exchanges through host memory and the
// Communicator), the choice of transport, and each rank's GPU.
#include "parallel/cuda/device_transport.hpp"

#include <cstddef>
#include <numeric>
#include <utility>

#include "core/cuda/cuda_check.hpp"
#include "core/cuda/device_buffer.hpp"
#include "core/cuda/pinned_buffer.hpp"
#include "core/cuda/stream.hpp"
#include "core/cuda_device_select.hpp"
#include "core/error.hpp"

namespace fhn::cuda {
namespace {

int device_count() {
  require_device();
  int count = 0;
  FHN_CUDA_CHECK(cudaGetDeviceCount(&count));
  return count;
}

// Per exchange: the owned edge planes of every array go to two pinned buffers (one per
// neighbour, arrays one after the other), the host waits for the copies, two send_receive
// shifts move them (upwards, then downwards, as the host HaloExchange), and the received planes
// are queued back into the halos; the next exchange waits for those copies before send_receive
// writes the receive buffers again.
class StagedHaloExchange final : public DeviceHaloExchange {
 public:
  StagedHaloExchange(const Slab& slab, Communicator& comm, int fields, std::string why)
      : slab_(slab),
        comm_(comm),
        fields_(fields),
        why_(std::move(why)),
        capacity_(static_cast<std::size_t>(fields * slab.halo * slab.plane)),
        to_below_(capacity_),
        to_above_(capacity_),
        from_below_(capacity_),
        from_above_(capacity_) {}

  std::string describe() const override { return "halos through host memory (" + why_ + ")"; }

  void exchange(std::initializer_list<real*> arrays, index_t depth, cudaStream_t stream) override {
    if (slab_.whole() || depth == 0) return;
    FHN_VERIFY(depth > 0 && depth <= slab_.halo && static_cast<int>(arrays.size()) <= fields_,
               InternalError,
               "device halo exchange deeper than the slab's halo or wider than set up");
    const index_t plane = slab_.plane;
    const auto n = static_cast<std::size_t>(depth * plane);  // values per array and side
    const std::size_t all = n * arrays.size();
    const bool below = slab_.below() != kNoRank, above = slab_.above() != kNoRank;
    auto copy = [&](real* to, const real* from, cudaMemcpyKind kind) {
      FHN_CUDA_CHECK(cudaMemcpyAsync(to, from, n * sizeof(real), kind, stream));
    };
    std::size_t k = 0;
    for (real* a : arrays) {
      if (below) copy(to_below_.data() + k * n, a + slab_.halo * plane, cudaMemcpyDeviceToHost);
      if (above)
        copy(to_above_.data() + k * n, a + (slab_.halo + slab_.count - depth) * plane,
             cudaMemcpyDeviceToHost);
      ++k;
    }
    FHN_CUDA_CHECK(cudaStreamSynchronize(stream));
    FHN_CUDA_CHECK(cudaEventSynchronize(copied_back_));
    comm_.send_receive(to_above_.data(), all, slab_.above(), from_below_.data(), all,
                       slab_.below());
    comm_.send_receive(to_below_.data(), all, slab_.below(), from_above_.data(), all,
                       slab_.above());
    k = 0;
    for (real* a : arrays) {
      if (below)
        copy(a + (slab_.halo - depth) * plane, from_below_.data() + k * n, cudaMemcpyHostToDevice);
      if (above)
        copy(a + (slab_.halo + slab_.count) * plane, from_above_.data() + k * n,
             cudaMemcpyHostToDevice);
      ++k;
    }
    FHN_CUDA_CHECK(cudaEventRecord(copied_back_, stream));
  }

 private:
  Slab slab_;
  Communicator& comm_;
  int fields_;
  std::string why_;
  std::size_t capacity_;  // values per buffer: fields x halo planes
  PinnedBuffer<real> to_below_, to_above_, from_below_, from_above_;  // nothing on one rank
  Event copied_back_;  // after the last exchange's copies into the halos
};

// Per exchange: `send` copied into a host vector (the host waits for it), the Communicator's
// all_to_all (MPI), the received values queued back to the device. The vectors are pageable
// (all_to_all takes vectors): the copy out returns when it is done, the copy back once the
// values are staged by the driver, so the vectors may be refilled by the next exchange at once.
class StagedAllToAll final : public DeviceAllToAll {
 public:
  explicit StagedAllToAll(Communicator& comm) : comm_(comm) {}

  void exchange(const real* send, const std::vector<std::size_t>& send_counts, real* receive,
                const std::vector<std::size_t>& receive_counts, cudaStream_t stream) override {
    send_.resize(std::accumulate(send_counts.begin(), send_counts.end(), std::size_t{0}));
    if (!send_.empty())
      FHN_CUDA_CHECK(cudaMemcpyAsync(send_.data(), send, send_.size() * sizeof(real),
                                     cudaMemcpyDeviceToHost, stream));
    FHN_CUDA_CHECK(cudaStreamSynchronize(stream));
    comm_.all_to_all(send_, send_counts, receive_, receive_counts);
    if (!receive_.empty())
      FHN_CUDA_CHECK(cudaMemcpyAsync(receive, receive_.data(), receive_.size() * sizeof(real),
                                     cudaMemcpyHostToDevice, stream));
  }

 private:
  Communicator& comm_;
  std::vector<real> send_, receive_;
};

class StagedTransport final : public DeviceTransport {
 public:
  StagedTransport(Communicator& comm, std::string why) : comm_(comm), why_(std::move(why)) {}

  std::string describe() const override { return "through host memory (" + why_ + ")"; }
  std::unique_ptr<DeviceHaloExchange> halo_exchange(const Slab& slab, int fields) override {
    return make_staged_halo_exchange(slab, comm_, fields, why_);
  }
  std::unique_ptr<DeviceAllToAll> all_to_all() override {
    return std::make_unique<StagedAllToAll>(comm_);
  }

 private:
  Communicator& comm_;
  std::string why_;
};

}  // namespace

void use_rank_device(const Communicator& comm) {
  require_device();
  select_cuda_device(comm.local_rank());
}

std::unique_ptr<DeviceHaloExchange> make_staged_halo_exchange(const Slab& slab,
                                                              Communicator& comm, int fields,
                                                              const std::string& why) {
  return std::make_unique<StagedHaloExchange>(slab, comm, fields, why);
}

std::unique_ptr<DeviceTransport> make_staged_transport(Communicator& comm, const std::string& why) {
  return std::make_unique<StagedTransport>(comm, why);
}

// NCCL refuses two ranks on one GPU: where any machine of the run has more ranks than GPUs, every
// rank stages (one decision for all, or the exchanges would not match).
std::unique_ptr<DeviceTransport> make_device_transport(Communicator& comm) {
  const bool shared = comm.any(comm.local_size() > device_count());
  if (!nccl_compiled()) return make_staged_transport(comm, "NCCL not compiled in");
  if (shared) return make_staged_transport(comm, "ranks share a GPU");
  return make_nccl_transport(comm);
}

std::unique_ptr<DeviceHaloExchange> make_device_halo_exchange(const Slab& slab,
                                                              Communicator& comm, int fields) {
  return make_device_transport(comm)->halo_exchange(slab, fields);
}

// NCCL sizes no buffers by the number of arrays: any `fields` does.
std::unique_ptr<DeviceHaloExchange> make_nccl_halo_exchange(const Slab& slab,
                                                            Communicator& comm) {
  return make_nccl_transport(comm)->halo_exchange(slab, 0);
}

}  // namespace fhn::cuda
