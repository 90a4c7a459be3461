#pragma once
// Owners of a CUDA stream and a CUDA event (destroyed with them). Streams are created blocking:
// work on them still waits for, and is waited for by, the legacy default stream (the synchronous
// copies of snapshots and checkpoints).
#include <cuda_runtime.h>

#include "core/cuda/cuda_check.hpp"

namespace fhn::cuda {

class Stream {
 public:
  Stream() { FHN_CUDA_CHECK(cudaStreamCreate(&stream_)); }
  ~Stream() { cudaStreamDestroy(stream_); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  operator cudaStream_t() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

// `flags`: cudaEventDefault for timing, cudaEventDisableTiming (the default) for ordering only.
class Event {
 public:
  explicit Event(unsigned flags = cudaEventDisableTiming) {
    FHN_CUDA_CHECK(cudaEventCreateWithFlags(&event_, flags));
  }
  ~Event() { cudaEventDestroy(event_); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  operator cudaEvent_t() const { return event_; }

 private:
  cudaEvent_t event_ = nullptr;
};

}  // namespace fhn::cuda
