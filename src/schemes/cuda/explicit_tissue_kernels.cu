#include "schemes/cuda/explicit_tissue_kernels.cuh"

#include <string>

#include "core/cuda/cuda_check.hpp"
#include "core/error.hpp"
#include "schemes/cuda/explicit_kernels.cuh"

namespace fhn::cuda {
namespace {

constexpr int kLanes = 32, kRows = 8;  // threads per block along x and y, a node each

// The node updates the kernel below applies: a tissue mask (the masked updates, interior nodes
// branch-free as on the CPU) and per-node parameters or anisotropy (the heterogeneous update).
struct MaskedNode {
  const std::uint8_t* quadrants;
  template <class K>
  __device__ ExplicitPointUpdate operator()(const real* v, const real* w, real current, index_t i,
                                            index_t j, const NodeParams& q, const K& kin) const {
    const bool interior = i > 0 && i < q.n[0] - 1 && j > 0 && j < q.n[1] - 1;
    return interior ? explicit_masked_interior_node(v, w, quadrants, current, i + q.n[0] * j, q, kin)
                    : explicit_masked_sheet_node(v, w, quadrants, current, i, j, q, kin);
  }
};
struct MediumNode {
  MediumView medium;
  template <class K>
  __device__ ExplicitPointUpdate operator()(const real* v, const real* w, real current, index_t i,
                                            index_t j, const NodeParams& q, const K& kin) const {
    return explicit_medium_node(v, w, current, i, j, q, medium, kin);
  }
};

// One step, a node per thread: the stimulus current at the node, then `node`'s update.
template <class K, class Node>
__global__ void __launch_bounds__(kLanes * kRows)
    sheet_node_step_kernel(const real* __restrict__ v, const real* __restrict__ w,
                           real* __restrict__ v_next, real* __restrict__ w_next,
                           const __grid_constant__ Node node, const __grid_constant__ NodeParams q,
                           const __grid_constant__ K kin, StimulusTable st, real t) {
  const index_t i = blockIdx.x * static_cast<index_t>(kLanes) + threadIdx.x;
  const index_t j = blockIdx.y * static_cast<index_t>(kRows) + threadIdx.y;
  if (i >= q.n[0] || j >= q.n[1]) return;
  const index_t c = i + q.n[0] * j;
  const real current = st.count > 0 ? stimulus_current(st, i, j, t, 1.0, 0.0) : 0.0;
  const ExplicitPointUpdate out = node(v, w, current, i, j, q, kin);
  v_next[c] = out.v;
  w_next[c] = out.w;
}

// Checks the arguments, then launches the kernel for the run's form over the whole sheet.
template <class Node>
void launch_node_steps(const char* kernels, const real* v, const real* w, real* v_next,
                       real* w_next, const std::uint8_t* quadrants, const Node& node,
                       const NodeParams& q, const Kinetics& kinetics,
                       const StimulusTable& stimuli, index_t step, cudaStream_t stream) {
  FHN_VERIFY(q.dims == 2 && q.plane0 == 0 && q.planes == q.n[1] && quadrants != nullptr &&
                 q.n[0] >= 3 && q.n[1] >= 3,
             InternalError, std::string(kernels) + ": the whole sheet (3 x 3 nodes or more) and "
                                                   "its quadrant bytes");
  verify_explicit_arrays(kernels, v, w, v_next, w_next, q.n[0] * q.n[1], 9, stimuli);
  const dim3 grid(static_cast<unsigned>((q.n[0] + kLanes - 1) / kLanes),
                  static_cast<unsigned>((q.n[1] + kRows - 1) / kRows));
  const real t = step_time(step, q.k);
  with_kinetics(kinetics, [&](const auto& kin) {
    sheet_node_step_kernel<<<grid, dim3(kLanes, kRows), 0, stream>>>(v, w, v_next, w_next, node,
                                                                     q, kin, stimuli, t);
  });
  FHN_CUDA_CHECK_LAUNCH();
}

}  // namespace

void launch_explicit_sheet_masked_step(const real* v, const real* w, real* v_next, real* w_next,
                                       const std::uint8_t* quadrants, const NodeParams& q,
                                       const Kinetics& kinetics, const StimulusTable& stimuli,
                                       index_t step, cudaStream_t stream) {
  launch_node_steps("masked sheet kernel", v, w, v_next, w_next, quadrants,
                    MaskedNode{quadrants}, q, kinetics, stimuli, step, stream);
}

void launch_explicit_sheet_medium_step(const real* v, const real* w, real* v_next, real* w_next,
                                       const MediumView& medium, const NodeParams& q,
                                       const Kinetics& kinetics, const StimulusTable& stimuli,
                                       index_t step, cudaStream_t stream) {
  launch_node_steps("heterogeneous sheet kernel", v, w, v_next, w_next, medium.quadrants,
                    MediumNode{medium}, q, kinetics, stimuli, step, stream);
}

}  // namespace fhn::cuda
