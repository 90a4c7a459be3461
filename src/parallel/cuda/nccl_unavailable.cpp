// A CUDA build without NCCL: device halos are staged through host memory
// (make_device_halo_exchange asks nccl_compiled() first).
#include "core/error.hpp"
#include "parallel/cuda/device_halo_exchange.hpp"

namespace fhn::cuda {

bool nccl_compiled() { return false; }

std::unique_ptr<DeviceHaloExchange> make_nccl_halo_exchange(const Slab&, Communicator&) {
  throw DeviceError(
      "halo exchange by NCCL is not compiled into this build; install NCCL (nccl.h and "
      "libnccl in the CUDA Toolkit's directories) and rebuild");
}

}  // namespace fhn::cuda
