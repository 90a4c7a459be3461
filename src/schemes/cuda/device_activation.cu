#include "schemes/cuda/device_activation.cuh"

#include <limits>
#include <vector>

#include "core/cuda/cuda_check.hpp"
#include "core/cuda/launch.hpp"
#include "schemes/cuda/activation_record.cuh"
#include "schemes/cuda/device_fields.cuh"

namespace fhn::cuda {
namespace {

__global__ void record_crossings_kernel(const real* __restrict__ v_old,
                                        const real* __restrict__ v_new, index_t n,
                                        ActivationArrays act, real t, real dt) {
  const index_t c = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x;
  if (c < n) record_crossing_in_kernel(act, c, v_old[c], v_new[c], t, dt);
}

// The owned part of a device array laid out like v: to and from the host.
std::vector<real> owned_of(const DeviceFields& fields, const DeviceBuffer<real>& array) {
  std::vector<real> values(static_cast<std::size_t>(fields.owned_nodes()));
  FHN_CUDA_CHECK(cudaMemcpy(values.data(), array.data() + fields.slab().owned_offset(),
                            values.size() * sizeof(real), cudaMemcpyDeviceToHost));
  return values;
}
void upload_owned(const DeviceFields& fields, const std::vector<real>& values,
                  DeviceBuffer<real>& array) {
  FHN_CUDA_CHECK(cudaMemcpy(array.data() + fields.slab().owned_offset(), values.data(),
                            values.size() * sizeof(real), cudaMemcpyHostToDevice));
}

}  // namespace

void DeviceActivation::start(const DeviceFields& fields, real threshold, bool keep_last) {
  host_.start(fields.owned_nodes(), threshold, keep_last);
  const auto n = static_cast<std::size_t>(fields.slab().array_nodes());
  const std::vector<real> none(n, std::numeric_limits<real>::quiet_NaN());
  first_ = DeviceBuffer<real>(n, "activation times (first)");
  first_.upload(none.data(), n);
  if (keep_last) {
    last_ = DeviceBuffer<real>(n, "activation times (last)");
    last_.upload(none.data(), n);
  }
}

ActivationArrays DeviceActivation::arrays(index_t offset) {
  if (!host_.on) return {};
  return {first_.data() + offset, host_.keep_last ? last_.data() + offset : nullptr,
          host_.threshold};
}

void DeviceActivation::download(const DeviceFields& fields) const {
  host_.first = owned_of(fields, first_);
  if (host_.keep_last) host_.last = owned_of(fields, last_);
}

void DeviceActivation::fill(const DeviceFields& fields, Snapshot& out) const {
  if (host_.on) download(fields);
  host_.fill(out);
}

void DeviceActivation::save(const DeviceFields& fields, SchemeState& state) const {
  if (!host_.on) return;
  download(fields);
  host_.save(state);
}

void DeviceActivation::restore(const DeviceFields& fields, const SchemeState& state) {
  if (!host_.on) return;
  host_.restore(state);
  upload_owned(fields, host_.first, first_);
  if (host_.keep_last) upload_owned(fields, host_.last, last_);
}

void launch_record_crossings(const real* v_old, const real* v_new, index_t n,
                             const ActivationArrays& act, real t, real dt, cudaStream_t stream) {
  if (n == 0) return;
  record_crossings_kernel<<<blocks_for(n), kBlock, 0, stream>>>(v_old, v_new, n, act, t, dt);
  FHN_CUDA_CHECK_LAUNCH();
}

}  // namespace fhn::cuda
