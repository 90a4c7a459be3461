#pragma once
// Launch geometry shared by the element-wise CUDA kernels of the schemes and the solvers.
#include "core/types.hpp"

namespace fhn::cuda {

constexpr int kBlock = 256;  // threads per block

// Blocks of `per_block` threads (or tiles, rows, ...) covering `items`.
inline unsigned blocks_for(index_t items, index_t per_block) {
  return static_cast<unsigned>((items + per_block - 1) / per_block);
}

// Blocks of kBlock threads covering `threads` threads.
inline unsigned blocks_for(index_t threads) { return blocks_for(threads, kBlock); }

}  // namespace fhn::cuda
