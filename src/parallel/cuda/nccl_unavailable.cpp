// A CUDA build without NCCL: device arrays are staged through host memory
// (make_device_transport asks nccl_compiled() first).
#include "core/error.hpp"
#include "parallel/cuda/device_transport.hpp"

namespace fhn::cuda {

bool nccl_compiled() { return false; }

std::unique_ptr<DeviceTransport> make_nccl_transport(Communicator&) {
  throw DeviceError(
      "device exchanges by NCCL are not compiled into this build; install NCCL (nccl.h and "
      "libnccl in the CUDA Toolkit's directories) and rebuild");
}

}  // namespace fhn::cuda
