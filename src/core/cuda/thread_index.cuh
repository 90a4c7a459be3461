#pragma once
// The calling thread's index in a one-dimensional grid, for kernels (CUDA translation units
// only; core/cuda/launch.hpp sizes the grids). 64-bit: a grid may hold more than 2^31 threads.
#include "core/types.hpp"

namespace fhn::cuda {

__device__ inline index_t thread_index() {
  return blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x;
}

}  // namespace fhn::cuda
