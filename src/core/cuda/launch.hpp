#pragma once
// Launch geometry shared by the element-wise CUDA kernels of the schemes and the solvers.
#include "core/types.hpp"

namespace fhn::cuda {

constexpr int kBlock = 256;  // threads per block

// Blocks of kBlock threads covering `threads` threads.
inline unsigned blocks_for(index_t threads) {
  return static_cast<unsigned>((threads + kBlock - 1) / kBlock);
}

}  // namespace fhn::cuda
