// Device discovery in a build without CUDA (-DFHN_WITH_CUDA=OFF or no nvcc found).
#include "core/build_info.hpp"
#include "core/cuda_device_select.hpp"

namespace fhn {

bool cuda_compiled() { return false; }

std::vector<CudaDevice> cuda_devices(std::string* why_none) {
  if (why_none) *why_none = "CUDA is not compiled into this build; rebuild with -DFHN_WITH_CUDA=ON";
  return {};
}

int select_cuda_device(int) { return -1; }

bool cuda_memory_info(std::size_t&, std::size_t&) { return false; }

}  // namespace fhn
