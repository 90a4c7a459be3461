#pragma once
// An owning array in page-locked host memory (cudaMallocHost): copies between it and the device
// run at full speed and may be asynchronous. Nothing is allocated for 0 entries.
#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

#include "core/cuda/cuda_check.hpp"

namespace fhn::cuda {

template <class T>
class PinnedBuffer {
 public:
  explicit PinnedBuffer(std::size_t count) : count_(count) {
    if (count > 0) FHN_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&data_), count * sizeof(T)));
  }
  ~PinnedBuffer() { cudaFreeHost(data_); }
  PinnedBuffer(PinnedBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return count_; }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace fhn::cuda
