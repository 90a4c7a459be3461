#pragma once
// An owning array in device memory. Allocation failure says how many bytes were asked for and
// how many were free, and why (fhn::DeviceError, exit code 5).
#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "core/cuda/cuda_check.hpp"

namespace fhn::cuda {

// Throws DeviceError when no CUDA device is usable (no GPU, no driver).
inline void require_device() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    cudaGetLastError();
    throw DeviceError(std::string("scheme.backend: cuda needs a CUDA device, and none is usable: ") +
                      (status != cudaSuccess ? cudaGetErrorString(status) : "no device found") +
                      "; use scheme.backend: cpu");
  }
}

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count, const char* what = "device array") : count_(count) {
    if (count == 0) return;
    const std::size_t bytes = count * sizeof(T);
    const cudaError_t status = cudaMalloc(reinterpret_cast<void**>(&data_), bytes);
    if (status != cudaSuccess) {
      cudaGetLastError();  // clear the error so later calls work
      std::size_t free_bytes = 0, total_bytes = 0;
      cudaMemGetInfo(&free_bytes, &total_bytes);
      data_ = nullptr;
      throw DeviceError(std::string("out of device memory allocating ") + what + ": " +
                        std::to_string(bytes) + " bytes asked, " + std::to_string(free_bytes) +
                        " of " + std::to_string(total_bytes) + " bytes free (" +
                        cudaGetErrorString(status) + ")");
    }
  }
  ~DeviceBuffer() {
    if (data_) cudaFree(data_);
  }
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      if (data_) cudaFree(data_);
      data_ = std::exchange(other.data_, nullptr);
      count_ = std::exchange(other.count_, 0);
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return count_; }

  void upload(const T* host, std::size_t count) {
    FHN_CUDA_CHECK(cudaMemcpy(data_, host, count * sizeof(T), cudaMemcpyHostToDevice));
  }
  void download(T* host, std::size_t count) const {
    FHN_CUDA_CHECK(cudaMemcpy(host, data_, count * sizeof(T), cudaMemcpyDeviceToHost));
  }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

// A device copy of `host` (`what` names it in an allocation failure).
template <class T>
DeviceBuffer<T> to_device(const std::vector<T>& host, const char* what = "device array") {
  DeviceBuffer<T> buffer(host.size(), what);
  buffer.upload(host.data(), host.size());
  return buffer;
}

}  // namespace fhn::cuda
