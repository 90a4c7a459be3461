#pragma once
// A CUDA graph of what enqueue(stream) enqueues, captured once on a private non-blocking stream
// and replayed on the default stream (launch()). A launch costs one call instead of one per
// kernel. If enqueuing throws, the capture is ended and the error passes on.
#include <cuda_runtime.h>

#include "core/cuda/cuda_check.hpp"

namespace fhn::cuda {

class CapturedGraph {
 public:
  template <class Enqueue>
  explicit CapturedGraph(Enqueue enqueue) {
    FHN_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    cudaGraph_t graph = nullptr;
    try {
      FHN_CUDA_CHECK(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeRelaxed));
      try {
        enqueue(stream_);
      } catch (...) {
        cudaStreamEndCapture(stream_, &graph);
        throw;
      }
      FHN_CUDA_CHECK(cudaStreamEndCapture(stream_, &graph));
      FHN_CUDA_CHECK(cudaGraphInstantiate(&exec_, graph, 0));
    } catch (...) {
      if (graph) cudaGraphDestroy(graph);
      cudaStreamDestroy(stream_);
      throw;
    }
    cudaGraphDestroy(graph);  // the executable graph keeps what it needs
  }
  ~CapturedGraph() {
    cudaGraphExecDestroy(exec_);
    cudaStreamDestroy(stream_);
  }
  CapturedGraph(const CapturedGraph&) = delete;
  CapturedGraph& operator=(const CapturedGraph&) = delete;

  void launch() const { FHN_CUDA_CHECK(cudaGraphLaunch(exec_, nullptr)); }

 private:
  cudaStream_t stream_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

}  // namespace fhn::cuda
