// The NCCL transport of the device halo exchange: one NCCL communicator over the run's ranks
// (its unique id sent from rank 0 through the Communicator), and per exchange one NCCL group of
// sends and receives between neighbouring slabs, queued on the caller's stream.
#include <nccl.h>

#include <cstring>
#include <type_traits>

#include "core/cuda/cuda_check.hpp"
#include "core/error.hpp"
#include "parallel/cuda/device_halo_exchange.hpp"

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

static_assert(std::is_same_v<real, double>, "the halos travel as ncclDouble");

class NcclHaloExchange final : public DeviceHaloExchange {
 public:
  NcclHaloExchange(const Slab& slab, Communicator& comm) : slab_(slab) {
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
  ~NcclHaloExchange() override { ncclCommDestroy(nccl_); }
  NcclHaloExchange(const NcclHaloExchange&) = delete;
  NcclHaloExchange& operator=(const NcclHaloExchange&) = delete;

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
    FHN_NCCL_CHECK(ncclGroupStart());
    for (real* a : arrays) {
      if (above != kNoRank) {
        FHN_NCCL_CHECK(ncclSend(a + (slab_.halo + slab_.count - depth) * plane, n, ncclDouble,
                                above, nccl_, stream));
        FHN_NCCL_CHECK(ncclRecv(a + (slab_.halo + slab_.count) * plane, n, ncclDouble, above,
                                nccl_, stream));
      }
      if (below != kNoRank) {
        FHN_NCCL_CHECK(ncclSend(a + slab_.halo * plane, n, ncclDouble, below, nccl_, stream));
        FHN_NCCL_CHECK(ncclRecv(a + (slab_.halo - depth) * plane, n, ncclDouble, below, nccl_,
                                stream));
      }
    }
    FHN_NCCL_CHECK(ncclGroupEnd());
  }

 private:
  Slab slab_;
  ncclComm_t nccl_ = nullptr;
};

}  // namespace

bool nccl_compiled() { return true; }

std::unique_ptr<DeviceHaloExchange> make_nccl_halo_exchange(const Slab& slab,
                                                            Communicator& comm) {
  return std::make_unique<NcclHaloExchange>(slab, comm);
}

}  // namespace fhn::cuda
