#pragma once
// The execution layer on the GPU (docs/ARCHITECTURE.md section 4): for_each_node with the CUDA
// launch policy, f(i, j, k) at every node of a box (node_box.hpp; the host policy:
// for_each_node.hpp), one thread per node: blocks of 32 x 8 nodes along x and y, one z plane per
// grid layer. f is a host/device functor
// passed by value; the launch is queued on the policy's stream, nothing waits.
#include <cuda_runtime.h>

#include "core/cuda/cuda_check.hpp"
#include "schemes/node_box.hpp"

namespace fhn::cuda {

struct CudaExec {
  cudaStream_t stream = nullptr;
};

namespace detail {
constexpr unsigned kNodeLanes = 32, kNodeRows = 8;

template <class F>
__global__ void __launch_bounds__(kNodeLanes * kNodeRows)
    for_each_node_kernel(const NodeBox box, const F f) {
  const index_t i = box.lo[0] + blockIdx.x * static_cast<index_t>(kNodeLanes) + threadIdx.x;
  const index_t j = box.lo[1] + blockIdx.y * static_cast<index_t>(kNodeRows) + threadIdx.y;
  const index_t k = box.lo[2] + blockIdx.z;
  if (i < box.hi[0] && j < box.hi[1]) f(i, j, k);
}
}  // namespace detail

template <class F>
void for_each_node(const CudaExec& exec, const NodeBox& box, const F& f) {
  if (box.count() <= 0) return;
  const auto blocks = [](index_t n, unsigned per) {
    return static_cast<unsigned>((n + per - 1) / per);
  };
  const dim3 grid(blocks(box.hi[0] - box.lo[0], detail::kNodeLanes),
                  blocks(box.hi[1] - box.lo[1], detail::kNodeRows),
                  static_cast<unsigned>(box.hi[2] - box.lo[2]));
  detail::for_each_node_kernel<<<grid, dim3(detail::kNodeLanes, detail::kNodeRows), 0,
                                 exec.stream>>>(box, f);
  FHN_CUDA_CHECK_LAUNCH();
}

}  // namespace fhn::cuda
