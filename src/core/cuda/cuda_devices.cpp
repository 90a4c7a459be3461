// Device discovery through the CUDA runtime (built only with -DFHN_WITH_CUDA=ON).
#include <cuda_runtime.h>

#include "core/build_info.hpp"
#include "core/cuda_device_select.hpp"
#include "core/error.hpp"

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

int select_cuda_device(int local_rank) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    cudaGetLastError();  // clear the sticky error state
    return -1;
  }
  const int device = local_rank % count;
  const cudaError_t status = cudaSetDevice(device);
  if (status != cudaSuccess)
    throw DeviceError("cannot use CUDA device " + std::to_string(device) + " (local rank " +
                      std::to_string(local_rank) + "): " + cudaGetErrorString(status));
  return device;
}

bool cuda_memory_info(std::size_t& free_bytes, std::size_t& total_bytes) {
  std::size_t free_now = 0, total = 0;
  if (cudaMemGetInfo(&free_now, &total) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky error state
    return false;
  }
  free_bytes = free_now;
  total_bytes = total;
  return true;
}

}  // namespace fhn
