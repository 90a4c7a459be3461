#include "schemes/cuda/device_fields.cuh"

#include <algorithm>
#include <utility>

namespace fhn::cuda {
namespace {

// Smallest index with a non-finite v or w: one atomicMin per offending thread (rare).
__global__ void first_non_finite_kernel(const real* v, const real* w, index_t n,
                                        unsigned long long* first_bad) {
  const index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x;
  if (i < n && !(isfinite(v[i]) && isfinite(w[i])))
    atomicMin(first_bad, static_cast<unsigned long long>(i));
}

}  // namespace

std::string current_device_name() {
  int device = 0;
  FHN_CUDA_CHECK(cudaGetDevice(&device));
  cudaDeviceProp prop{};
  FHN_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  return prop.name;
}

DeviceFields::DeviceFields(const Problem& problem)
    : DeviceFields(problem, make_slab(problem.domain, 0, 1, 0), true) {}

DeviceFields::DeviceFields(const Problem& problem, const Slab& slab)
    : DeviceFields(problem, slab, false) {}

// The array planes that exist in the domain, global planes [lo, hi), are one contiguous block in
// both numberings: global node lo N_plane on, array node (lo - array_first) N_plane on.
DeviceFields::DeviceFields(const Problem& problem, const Slab& slab, bool coordinates)
    : slab_(slab),
      coordinates_(coordinates),
      v_(static_cast<std::size_t>(slab.array_nodes()), "v"),
      w_(static_cast<std::size_t>(slab.array_nodes()), "w"),
      first_bad_(1, "flag") {
  const index_t lo = std::max<index_t>(0, slab.array_first());
  const index_t hi = std::min(slab.planes, slab.array_first() + slab.array_planes());
  const auto at = static_cast<std::size_t>((lo - slab.array_first()) * slab.plane);
  const auto from = static_cast<std::size_t>(lo * slab.plane);
  const auto count = static_cast<std::size_t>((hi - lo) * slab.plane);
  for (auto [field, initial] : {std::pair{&v_, &problem.v0}, std::pair{&w_, &problem.w0}}) {
    FHN_CUDA_CHECK(cudaMemset(field->data(), 0, field->size() * sizeof(real)));
    FHN_CUDA_CHECK(cudaMemcpy(field->data() + at, initial->data() + from, count * sizeof(real),
                              cudaMemcpyHostToDevice));
  }
}

namespace {

// The owned nodes of a slab's array on the host (synchronises).
std::vector<real> owned_to_host(const DeviceBuffer<real>& buffer, const Slab& slab) {
  std::vector<real> values(static_cast<std::size_t>(slab.owned_nodes()));
  FHN_CUDA_CHECK(cudaMemcpy(values.data(), buffer.data() + slab.owned_offset(),
                            values.size() * sizeof(real), cudaMemcpyDeviceToHost));
  return values;
}

}  // namespace

void DeviceFields::download(const Problem& problem, index_t step, Snapshot& out) const {
  out.step = step;
  out.t = static_cast<real>(step) * problem.dt;
  out.x = coordinates_ ? problem.x : std::vector<real>{};
  out.y = coordinates_ ? problem.y : std::vector<real>{};
  out.v = owned_to_host(v_, slab_);
  out.w = owned_to_host(w_, slab_);
}

std::vector<real> to_host(const DeviceBuffer<real>& buffer) {
  std::vector<real> values(buffer.size());
  buffer.download(values.data(), values.size());
  return values;
}

void DeviceFields::save(SchemeState& state) const {
  state.add("v", owned_to_host(v_, slab_));
  state.add("w", owned_to_host(w_, slab_));
}

void DeviceFields::restore(const SchemeState& state) {
  const auto n = static_cast<std::size_t>(slab_.owned_nodes());
  FHN_CUDA_CHECK(cudaMemcpy(v_.data() + slab_.owned_offset(), state.get("v", n).data(),
                            n * sizeof(real), cudaMemcpyHostToDevice));
  FHN_CUDA_CHECK(cudaMemcpy(w_.data() + slab_.owned_offset(), state.get("w", n).data(),
                            n * sizeof(real), cudaMemcpyHostToDevice));
}

index_t DeviceFields::first_non_finite() const {
  const index_t n = slab_.owned_nodes();
  const auto none = static_cast<unsigned long long>(n);
  first_bad_.upload(&none, 1);
  first_non_finite_kernel<<<blocks_for(n), kBlock>>>(v_.data() + slab_.owned_offset(),
                                                     w_.data() + slab_.owned_offset(), n,
                                                     first_bad_.data());
  FHN_CUDA_CHECK_LAUNCH();
  unsigned long long first = none;
  first_bad_.download(&first, 1);
  return first == none ? -1 : static_cast<index_t>(first);
}

DeviceStimuli::DeviceStimuli(const StimulusSchedule& schedule)
    : count_(static_cast<int>(schedule.stimuli().size())),
      dt_(schedule.dt()),
      tolerance_(schedule.tolerance()),
      table_(schedule.stimuli().size(), "stimulus table") {
  if (!schedule.empty()) table_.upload(schedule.stimuli().data(), schedule.stimuli().size());
}

void DeviceScheme::synchronize() const { FHN_CUDA_CHECK(cudaDeviceSynchronize()); }

}  // namespace fhn::cuda
