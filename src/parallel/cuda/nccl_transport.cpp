// The NCCL transport of device arrays: one NCCL communicator over the run's ranks (its unique id
// sent from rank 0 through the Communicator), shared by every exchange the transport makes; per
// exchange one NCCL group of sends and receives, queued on the caller's stream.
#include <nccl.h>

#include <cstring>
#include <type_traits>

#include "core/cuda/cuda_check.hpp"
#include "core/error.hpp"
#include "parallel/cuda/device_transport.hpp"

#define FHN_NCCL_CHECK(call)                                                                \
  do {                                                                                      \
    const ncclResult_t fhn_result_ = (call);                                                \
    if (fhn_result_ != ncclSuccess)                                                         \
      throw ::fhn::DeviceError(std::string("NCCL call ") + #call + " failed at " + __FILE__ + \
                               ":" + std::to_string(__LINE__) + ": " +                      \
                               ncclGetErrorString(fhn_result_));                            \
  } while (0)

namespace fhn::cuda {
namespace {

static_assert(std::is_same_v<real, double>, "the arrays travel as ncclDouble");

// The NCCL communicator of the run's ranks (ncclCommInitRank: collective), destroyed with the
// last exchange that uses it.
class NcclCommunicator {
 public:
  explicit NcclCommunicator(Communicator& comm) : ranks_(comm.size()) {
    ncclUniqueId id{};
    std::string text;
    if (comm.root()) {
      FHN_NCCL_CHECK(ncclGetUniqueId(&id));
      text.assign(reinterpret_cast<const char*>(&id), sizeof id);
    }
    comm.broadcast(text, 0);
    FHN_VERIFY(text.size() == sizeof id, InternalError, "NCCL unique id garbled in broadcast");
    std::memcpy(&id, text.data(), sizeof id);
    FHN_NCCL_CHECK(ncclCommInitRank(&nccl_, comm.size(), id, comm.rank()));
  }
  ~NcclCommunicator() { ncclCommDestroy(nccl_); }
  NcclCommunicator(const NcclCommunicator&) = delete;
  NcclCommunicator& operator=(const NcclCommunicator&) = delete;

  ncclComm_t get() const { return nccl_; }
  int ranks() const { return ranks_; }

 private:
  ncclComm_t nccl_ = nullptr;
  int ranks_;
};

class NcclHaloExchange final : public DeviceHaloExchange {
 public:
  NcclHaloExchange(const Slab& slab, std::shared_ptr<const NcclCommunicator> nccl)
      : slab_(slab), nccl_(std::move(nccl)) {}

  std::string describe() const override { return "halos by NCCL"; }

  // Per array: my top owned planes to the rank above and its bottom ones into my upper halo, my
  // bottom owned planes to the rank below and its top ones into my lower halo. NCCL pairs the
  // sends and receives between two ranks in the order they are issued: arrays in the same order
  // on every rank.
  void exchange(std::initializer_list<real*> arrays, index_t depth, cudaStream_t stream) override {
    if (slab_.whole() || depth == 0) return;
    FHN_VERIFY(depth > 0 && depth <= slab_.halo, InternalError,
               "device halo exchange deeper than the slab's halo");
    const index_t plane = slab_.plane;
    const auto n = static_cast<std::size_t>(depth * plane);
    const int below = slab_.below(), above = slab_.above();
    const ncclComm_t nccl = nccl_->get();
    FHN_NCCL_CHECK(ncclGroupStart());
    for (real* a : arrays) {
      if (above != kNoRank) {
        FHN_NCCL_CHECK(ncclSend(a + (slab_.halo + slab_.count - depth) * plane, n, ncclDouble,
                                above, nccl, stream));
        FHN_NCCL_CHECK(ncclRecv(a + (slab_.halo + slab_.count) * plane, n, ncclDouble, above,
                                nccl, stream));
      }
      if (below != kNoRank) {
        FHN_NCCL_CHECK(ncclSend(a + slab_.halo * plane, n, ncclDouble, below, nccl, stream));
        FHN_NCCL_CHECK(ncclRecv(a + (slab_.halo - depth) * plane, n, ncclDouble, below, nccl,
                                stream));
      }
    }
    FHN_NCCL_CHECK(ncclGroupEnd());
  }

 private:
  Slab slab_;
  std::shared_ptr<const NcclCommunicator> nccl_;
};

// One group: per rank r (this one included: NCCL copies the block on the device) the block to r
// and the block from r. Empty blocks are left out on both sides alike (rank r's count to s is
// s's count from r), as NCCL pairs each send with the peer's receive.
class NcclAllToAll final : public DeviceAllToAll {
 public:
  explicit NcclAllToAll(std::shared_ptr<const NcclCommunicator> nccl) : nccl_(std::move(nccl)) {}

  void exchange(const real* send, const std::vector<std::size_t>& send_counts, real* receive,
                const std::vector<std::size_t>& receive_counts, cudaStream_t stream) override {
    const auto ranks = static_cast<std::size_t>(nccl_->ranks());
    FHN_VERIFY(send_counts.size() == ranks && receive_counts.size() == ranks, InternalError,
               "device all-to-all: a count per rank expected");
    const ncclComm_t nccl = nccl_->get();
    std::size_t sent = 0, received = 0;
    FHN_NCCL_CHECK(ncclGroupStart());
    for (std::size_t r = 0; r < ranks; ++r) {
      const int peer = static_cast<int>(r);
      if (send_counts[r] > 0)
        FHN_NCCL_CHECK(ncclSend(send + sent, send_counts[r], ncclDouble, peer, nccl, stream));
      if (receive_counts[r] > 0)
        FHN_NCCL_CHECK(
            ncclRecv(receive + received, receive_counts[r], ncclDouble, peer, nccl, stream));
      sent += send_counts[r];
      received += receive_counts[r];
    }
    FHN_NCCL_CHECK(ncclGroupEnd());
  }

 private:
  std::shared_ptr<const NcclCommunicator> nccl_;
};

class NcclTransport final : public DeviceTransport {
 public:
  explicit NcclTransport(Communicator& comm) : nccl_(std::make_shared<NcclCommunicator>(comm)) {}

  std::string describe() const override { return "by NCCL"; }
  std::unique_ptr<DeviceHaloExchange> halo_exchange(const Slab& slab, int) override {
    return std::make_unique<NcclHaloExchange>(slab, nccl_);
  }
  std::unique_ptr<DeviceAllToAll> all_to_all() override {
    return std::make_unique<NcclAllToAll>(nccl_);
  }

 private:
  std::shared_ptr<const NcclCommunicator> nccl_;
};

}  // namespace

bool nccl_compiled() { return true; }

std::unique_ptr<DeviceTransport> make_nccl_transport(Communicator& comm) {
  return std::make_unique<NcclTransport>(comm);
}

}  // namespace fhn::cuda
