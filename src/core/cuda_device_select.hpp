#pragma once
// Which GPU a process of a multi-rank run works on, and its free memory. Implemented in
// core/cuda/cuda_devices.cpp; a build without CUDA answers -1 (no device) from
// core/cuda_devices_none.cpp.
#include <cstddef>

namespace fhn {

// Makes GPU `local_rank` mod (devices visible to this process) the calling thread's current CUDA
// device, so that the ranks of one machine spread over its GPUs, and returns its index. Returns
// -1 and changes nothing when no device is visible (or CUDA is not compiled in): whatever then
// asks for a device says why there is none. Throws DeviceError when the device cannot be made
// current.
int select_cuda_device(int local_rank);

// The free and total memory of the calling thread's current CUDA device (cudaMemGetInfo); false,
// leaving both unchanged, when no device answers (or CUDA is not compiled in).
bool cuda_memory_info(std::size_t& free_bytes, std::size_t& total_bytes);

}  // namespace fhn
