#pragma once
// Checked CUDA calls: a failure throws fhn::DeviceError naming the call, the file and the line.
// Only CUDA translation units (and .cpp files compiled with the CUDA runtime) include this.
#include <cuda_runtime.h>

#include <string>

#include "core/error.hpp"

namespace fhn::cuda {

[[noreturn]] inline void throw_cuda_error(cudaError_t status, const char* call, const char* file,
                                          int line) {
  throw DeviceError(std::string("CUDA call ") + call + " failed at " + file + ":" +
                    std::to_string(line) + ": " + cudaGetErrorName(status) + " (" +
                    cudaGetErrorString(status) + ")");
}

}  // namespace fhn::cuda

#define FHN_CUDA_CHECK(call)                                                       \
  do {                                                                             \
    const cudaError_t fhn_status_ = (call);                                        \
    if (fhn_status_ != cudaSuccess)                                                \
      ::fhn::cuda::throw_cuda_error(fhn_status_, #call, __FILE__, __LINE__);       \
  } while (0)

// After every kernel launch: launch-configuration errors surface here, not at the next sync.
#define FHN_CUDA_CHECK_LAUNCH() FHN_CUDA_CHECK(cudaGetLastError())
