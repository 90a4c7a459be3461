// Device discovery through the CUDA runtime (built only with -DFHN_WITH_CUDA=ON).
#include <cuda_runtime.h>

#include "core/build_info.hpp"

namespace fhn {

bool cuda_compiled() { return true; }

std::vector<CudaDevice> cuda_devices(std::string* why_none) {
  std::vector<CudaDevice> devices;
  int count = 0;
  // Without a GPU or driver this fails (e.g. "CUDA driver version is insufficient for CUDA
  // runtime version"); any error means "no device".
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    if (why_none) *why_none = cudaGetErrorString(status);
    cudaGetLastError();  // clear the sticky error state
    return devices;
  }
  for (int i = 0; i < count; ++i) {
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, i) != cudaSuccess) continue;
    devices.push_back({i, prop.name, prop.totalGlobalMem, prop.major, prop.minor});
  }
  if (devices.empty() && why_none) *why_none = "the CUDA runtime reports no device";
  return devices;
}

}  // namespace fhn
