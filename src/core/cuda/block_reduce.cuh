#pragma once
// Block-wide reductions shared by the CUDA schemes and solvers.
#include <cstring>

#include "core/types.hpp"

namespace fhn::cuda {

// max that lets a NaN win, so that a NaN norm is never hidden by a later finite value.
__device__ inline real nan_max(real a, real b) { return (a != a || a > b) ? a : b; }

// Maximum over the block (blockDim.x a multiple of 32, at most 1024), valid in thread 0. Every
// thread of the block must call it.
__device__ inline real block_max(real x) {
  __shared__ real warp_max[32];
  for (int offset = 16; offset > 0; offset >>= 1)
    x = nan_max(x, __shfl_down_sync(0xffffffffu, x, offset));
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warp_max[warp] = x;
  __syncthreads();
  if (warp == 0) {
    x = lane < static_cast<int>(blockDim.x >> 5) ? warp_max[lane] : 0.0;
    for (int offset = 16; offset > 0; offset >>= 1)
      x = nan_max(x, __shfl_down_sync(0xffffffffu, x, offset));
  }
  __syncthreads();  // warp_max may be reused by the next call
  return x;
}

// Stores max(*slot, value) for a non-negative double (or NaN) through its bit pattern, which
// orders like the numbers; NaN's pattern is above every finite one.
__device__ inline void atomic_max_norm(unsigned long long* slot, real value) {
  atomicMax(slot, static_cast<unsigned long long>(__double_as_longlong(value)));
}

// The host's reading of such a slot: the norm its bit pattern stands for.
inline double norm_from_bits(unsigned long long bits) {
  double value = 0.0;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

}  // namespace fhn::cuda
