#include "parallel/halo_exchange.hpp"

#include "core/error.hpp"

namespace fhn {
namespace {

class HostHaloExchange final : public HaloExchange {
 public:
  HostHaloExchange(const Slab& slab, Communicator& comm) : slab_(slab), comm_(comm) {}

  // Two shifts along the chain of slabs: upwards (send my top planes to the rank above, receive
  // the lower neighbour's top planes into my lower halo), then downwards.
  void exchange(real* array, index_t depth) override {
    if (slab_.whole() || depth == 0) return;
    FHN_VERIFY(depth > 0 && depth <= slab_.halo, InternalError,
               "halo exchange deeper than the slab's halo");
    const index_t plane = slab_.plane;
    const auto n = static_cast<std::size_t>(depth * plane);
    real* lower_halo = array + (slab_.halo - depth) * plane;
    real* lower_owned = array + slab_.halo * plane;
    real* upper_owned = array + (slab_.halo + slab_.count - depth) * plane;
    real* upper_halo = array + (slab_.halo + slab_.count) * plane;
    comm_.send_receive(upper_owned, n, slab_.above(), lower_halo, n, slab_.below());
    comm_.send_receive(lower_owned, n, slab_.below(), upper_halo, n, slab_.above());
  }

 private:
  Slab slab_;
  Communicator& comm_;
};

}  // namespace

std::unique_ptr<HaloExchange> make_host_halo_exchange(const Slab& slab, Communicator& comm) {
  return std::make_unique<HostHaloExchange>(slab, comm);
}

}  // namespace fhn
