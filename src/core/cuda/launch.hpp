#pragma once
// Launch geometry shared by the element-wise CUDA kernels of the schemes and the solvers.
#include <algorithm>
#include <string>

#include "core/error.hpp"
#include "core/types.hpp"

namespace fhn::cuda {

constexpr int kBlock = 256;  // threads per block

// Blocks of `per_block` threads (or tiles, rows, ...) covering `items`.
inline unsigned blocks_for(index_t items, index_t per_block) {
  return static_cast<unsigned>((items + per_block - 1) / per_block);
}

// Blocks of kBlock threads covering `threads` threads.
inline unsigned blocks_for(index_t threads) { return blocks_for(threads, kBlock); }

// The most blocks one launch's grid can have (gridDim.x).
constexpr index_t kMaxGridBlocks = 2147483647;

// Refuses (DeviceError) a launch over `items` in blocks of `per_block` that no grid can hold;
// `what` names the caller and its size, e.g. "partitioned: 4398046511104 unknowns".
inline void check_grid(index_t items, index_t per_block, const std::string& what) {
  const index_t blocks = items / per_block + (items % per_block != 0 ? 1 : 0);  // no overflow
  FHN_VERIFY(blocks <= kMaxGridBlocks, DeviceError,
             what + " need more thread blocks than one launch can have");
}

// Launches over `count` members (or planes) with the member in blockIdx.z, in chunks of at most
// the 65535 that gridDim.z holds: launch(first, chunk) for each.
template <class Launch>
void for_grid_z_chunks(index_t count, Launch&& launch) {
  constexpr index_t kMaxGridZ = 65535;
  for (index_t first = 0; first < count; first += kMaxGridZ)
    launch(first, static_cast<unsigned>(std::min(count - first, kMaxGridZ)));
}

}  // namespace fhn::cuda
