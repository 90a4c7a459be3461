#include "schemes/cuda/device_fields.cuh"

#include <algorithm>

#include "model/tissue.hpp"

namespace fhn::cuda {
namespace {

// Smallest index with a non-finite v or w: one atomicMin per offending thread (rare).
__global__ void first_non_finite_kernel(const real* v, const real* w, index_t n,
                                        unsigned long long* first_bad) {
  const index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x;
  if (i < n && !(isfinite(v[i]) && isfinite(w[i])))
    atomicMin(first_bad, static_cast<unsigned long long>(i));
}

// out[k] = v[nodes[k]], out[n + k] = w[nodes[k]] for k < n.
__global__ void gather_nodes_kernel(const real* v, const real* w, const index_t* nodes, index_t n,
                                    real* out) {
  const index_t k = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x;
  if (k < n) {
    out[k] = v[nodes[k]];
    out[n + k] = w[nodes[k]];
  }
}

// A per-node host array laid out like the slab's arrays: the array nodes inside the domain from
// `values` (Slab::present), the halo planes beyond the domain's ends zero. Nothing is allocated
// for an empty `values` (a uniform parameter field, no mask).
template <class T>
DeviceBuffer<T> slab_array(const std::vector<T>& values, const Slab& slab, const char* what) {
  if (values.empty()) return {};
  DeviceBuffer<T> array(static_cast<std::size_t>(slab.array_nodes()), what);
  const Slab::Present in = slab.present();
  FHN_CUDA_CHECK(cudaMemset(array.data(), 0, array.size() * sizeof(T)));
  FHN_CUDA_CHECK(cudaMemcpy(array.data() + in.array_at, values.data() + in.global_first,
                            static_cast<std::size_t>(in.count) * sizeof(T),
                            cudaMemcpyHostToDevice));
  return array;
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
    : DeviceFields(problem, make_slab(problem.domain, 0, 1, 0)) {}

DeviceFields::DeviceFields(const Problem& problem, const Slab& slab)
    : slab_(slab),
      v_(slab_array(problem.v0, slab, "v")),
      w_(slab_array(problem.w0, slab, "w")),
      first_bad_(1, "flag"),
      diffusion_(slab_array(problem.fields.diffusion.values, slab, "per-node D")),
      node_types_(slab_array(problem.fields.node_type, slab, "node-type mask")),
      tensor_xx_(slab_array(problem.fields.tensor.xx_values, slab, "per-node D_xx")),
      tensor_xy_(slab_array(problem.fields.tensor.xy_values, slab, "per-node D_xy")),
      tensor_yy_(slab_array(problem.fields.tensor.yy_values, slab, "per-node D_yy")) {
  for (const ParameterField& field : problem.fields.kinetics)
    parameters_.push_back(slab_array(field.values, slab, "per-node kinetics parameter"));
  // The quadrant bytes of a sheet with fields, read by the masked and heterogeneous kernels (one
  // process: make_slab_scheme refuses fields).
  if (problem.domain.dims == 2 && !problem.fields.uniform() && slab.whole())
    quadrants_ = slab_array(tissue_quadrants(problem.fields.node_type, problem.domain), slab,
                            "quadrant bytes");
}

MediumView DeviceFields::medium(const Problem& problem) const {
  MediumView m = medium_constants(problem);
  m.quadrants = quadrants_.data();
  if (diffusion_.size() > 0) m.dxx = m.dyy = diffusion_.data();
  if (tensor_xx_.size() > 0) {
    m.dxx = tensor_xx_.data();
    m.dyy = tensor_yy_.data();
    m.dxy = tensor_xy_.data();
  }
  FHN_VERIFY(parameters_.size() <= static_cast<std::size_t>(kMaxFormParameters), InternalError,
             "DeviceFields: more kinetics parameters than kMaxFormParameters");
  for (std::size_t p = 0; p < parameters_.size(); ++p)
    m.kinetics[p] = parameters_[p].size() > 0 ? parameters_[p].data() : nullptr;
  return m;
}

std::vector<real> DeviceFields::owned_to_host(const DeviceBuffer<real>& array) const {
  std::vector<real> values(static_cast<std::size_t>(slab_.owned_nodes()));
  FHN_CUDA_CHECK(cudaMemcpy(values.data(), array.data() + slab_.owned_offset(),
                            values.size() * sizeof(real), cudaMemcpyDeviceToHost));
  return values;
}

void DeviceFields::save_array(SchemeState& state, const std::string& name,
                              const DeviceBuffer<real>& array) const {
  state.add(name, owned_to_host(array));
}

void DeviceFields::restore_array(const SchemeState& state, const std::string& name,
                                 DeviceBuffer<real>& array) const {
  const auto n = static_cast<std::size_t>(slab_.owned_nodes());
  FHN_CUDA_CHECK(cudaMemcpy(array.data() + slab_.owned_offset(), state.get(name, n).data(),
                            n * sizeof(real), cudaMemcpyHostToDevice));
}

void DeviceFields::download(const Problem& problem, index_t step, Snapshot& out) const {
  out.step = step;
  out.t = problem.time.t(step);
  out.domain = problem.domain;
  out.nodes.clear();
  out.v = owned_to_host(v_);
  out.w = owned_to_host(w_);
}

std::vector<real> to_host(const DeviceBuffer<real>& buffer) {
  std::vector<real> values(buffer.size());
  buffer.download(values.data(), values.size());
  return values;
}

void DeviceFields::save(SchemeState& state) const {
  save_array(state, "v", v_);
  save_array(state, "w", w_);
}

void DeviceFields::restore(const SchemeState& state) {
  restore_array(state, "v", v_);
  restore_array(state, "w", w_);
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

void DeviceFields::read_nodes(const std::vector<index_t>& nodes, std::vector<real>& v,
                              std::vector<real>& w) const {
  const std::size_t n = nodes.size();
  v.resize(n);
  w.resize(n);
  if (n == 0) return;
  if (read_at_.size() != n) {
    read_at_ = DeviceBuffer<index_t>(n, "probe nodes");
    read_values_ = DeviceBuffer<real>(2 * n, "probe values");
  }
  read_at_.upload(nodes.data(), n);
  const auto count = static_cast<index_t>(n);
  gather_nodes_kernel<<<blocks_for(count), kBlock>>>(v_.data() + slab_.owned_offset(),
                                                     w_.data() + slab_.owned_offset(),
                                                     read_at_.data(), count, read_values_.data());
  FHN_CUDA_CHECK_LAUNCH();
  std::vector<real> both(2 * n);
  read_values_.download(both.data(), 2 * n);
  std::copy(both.begin(), both.begin() + static_cast<std::ptrdiff_t>(n), v.begin());
  std::copy(both.begin() + static_cast<std::ptrdiff_t>(n), both.end(), w.begin());
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
