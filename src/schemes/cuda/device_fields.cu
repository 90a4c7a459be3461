#include "schemes/cuda/device_fields.cuh"

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
    : n_(problem.nodes), v_(problem.nodes, "v"), w_(problem.nodes, "w"), first_bad_(1, "flag") {
  v_.upload(problem.v0.data(), problem.v0.size());
  w_.upload(problem.w0.data(), problem.w0.size());
}

void DeviceFields::download(const Problem& problem, index_t step, Snapshot& out) const {
  out.step = step;
  out.t = static_cast<real>(step) * problem.dt;
  out.x = problem.x;
  out.y = problem.y;
  out.v.resize(static_cast<std::size_t>(n_));
  out.w.resize(static_cast<std::size_t>(n_));
  v_.download(out.v.data(), out.v.size());
  w_.download(out.w.data(), out.w.size());
}

std::vector<real> to_host(const DeviceBuffer<real>& buffer) {
  std::vector<real> values(buffer.size());
  buffer.download(values.data(), values.size());
  return values;
}

void DeviceFields::save(SchemeState& state) const {
  state.add("v", to_host(v_));
  state.add("w", to_host(w_));
}

void DeviceFields::restore(const SchemeState& state) {
  const auto n = static_cast<std::size_t>(n_);
  v_.upload(state.get("v", n).data(), n);
  w_.upload(state.get("w", n).data(), n);
}

index_t DeviceFields::first_non_finite() const {
  const auto none = static_cast<unsigned long long>(n_);
  first_bad_.upload(&none, 1);
  first_non_finite_kernel<<<blocks_for(n_), kBlock>>>(v_.data(), w_.data(), n_, first_bad_.data());
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
