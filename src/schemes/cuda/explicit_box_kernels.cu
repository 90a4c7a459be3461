#include "schemes/cuda/explicit_box_kernels.cuh"

#include <string>

#include "core/cuda/cuda_check.hpp"
#include "core/error.hpp"
#include "schemes/cuda/explicit_kernels.cuh"

namespace fhn::cuda {
namespace {

// A block is 32 x 8 columns (i, j), each thread marching through kPlanes planes along z: enough
// blocks to fill the device at 256^3 (4096).
constexpr int kLanes = 32, kRows = 8, kPlanes = 16;

template <class K>
__global__ void __launch_bounds__(kLanes * kRows)
    box_step_kernel(const real* __restrict__ v, const real* __restrict__ w,
                    real* __restrict__ v_next, real* __restrict__ w_next,
                    const __grid_constant__ NodeParams q, const __grid_constant__ K kin,
                    StimulusTable st, real t, index_t k_begin, index_t k_end) {
  const index_t i = blockIdx.x * static_cast<index_t>(kLanes) + threadIdx.x;
  const index_t j = blockIdx.y * static_cast<index_t>(kRows) + threadIdx.y;
  if (i >= q.n[0] || j >= q.n[1]) return;
  const index_t k0 = k_begin + blockIdx.z * static_cast<index_t>(kPlanes);
  const index_t k1 = k0 + kPlanes < k_end ? k0 + kPlanes : k_end;
  // Off the x and y faces the column's nodes are interior but for the first and last plane.
  // The column's values below, at and above the node ride along in registers: each plane's v is
  // loaded once as `above` (the x and y neighbours come from the caches).
  const bool inner_column = i > 0 && i < q.n[0] - 1 && j > 0 && j < q.n[1] - 1;
  const index_t sy = q.stride[1], sz = q.stride[2];
  index_t c = box_index(i, j, k0, q);
  real below = k0 > 0 ? v[c - sz] : 0.0;
  real centre = v[c];
  for (index_t k = k0; k < k1; ++k, c += sz) {
    const real above = k + 1 < q.n[2] ? v[c + sz] : 0.0;
    const real current = st.count > 0 ? stimulus_current(st, i, j, k, t, 1.0, 0.0) : 0.0;
    const ExplicitPointUpdate out =
        inner_column && k > 0 && k < q.n[2] - 1
            ? explicit_box_point(v[c - 1], v[c + 1], v[c - sy], v[c + sy], below, above, centre,
                                 w[c], current, q, kin)
            : explicit_box_node(v, w, current, i, j, k, q, kin);
    v_next[c] = out.v;
    w_next[c] = out.w;
    below = centre;
    centre = above;
  }
}

}  // namespace

void launch_explicit_box_step(const real* v, const real* w, real* v_next, real* w_next,
                              const NodeParams& q, const Kinetics& kinetics,
                              const StimulusTable& stimuli, index_t step, cudaStream_t stream,
                              index_t k_begin, index_t k_end) {
  if (k_end < 0) {
    k_begin = q.plane0;
    k_end = q.plane0 + q.planes;
  }
  // The planes read: the range and, inside the box, one plane on each side.
  const index_t read_first = k_begin > 0 ? k_begin - 1 : 0;
  const index_t read_end = k_end < q.n[2] ? k_end + 1 : q.n[2];
  FHN_VERIFY(q.dims == 3 && q.n[0] >= 3 && q.n[1] >= 3 && q.n[2] >= 3 && k_begin <= k_end &&
                 read_first >= q.plane0 && read_end <= q.plane0 + q.planes,
             InternalError,
             "box kernel: 3 x 3 x 3 nodes or more, and planes [" + std::to_string(k_begin) + ", " +
                 std::to_string(k_end) + ") with their neighbours inside the arrays' [" +
                 std::to_string(q.plane0) + ", " + std::to_string(q.plane0 + q.planes) + ")");
  verify_explicit_arrays("box kernel", v, w, v_next, w_next, q.n[0] * q.n[1] * q.planes, 27,
                         stimuli);
  if (k_end == k_begin) return;
  const dim3 grid(static_cast<unsigned>((q.n[0] + kLanes - 1) / kLanes),
                  static_cast<unsigned>((q.n[1] + kRows - 1) / kRows),
                  static_cast<unsigned>((k_end - k_begin + kPlanes - 1) / kPlanes));
  const real t = step_time(step, q.k);
  with_kinetics(kinetics, [&](const auto& kin) {
    box_step_kernel<<<grid, dim3(kLanes, kRows), 0, stream>>>(v, w, v_next, w_next, q, kin,
                                                               stimuli, t, k_begin, k_end);
  });
  FHN_CUDA_CHECK_LAUNCH();
}

}  // namespace fhn::cuda
