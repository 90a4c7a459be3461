#include "schemes/cuda/explicit_tissue_kernels.cuh"

#include <algorithm>
#include <string>

#include "core/cuda/cuda_check.hpp"
#include "core/error.hpp"
#include "schemes/cuda/activation_record.cuh"
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
    const index_t c = i + q.n[0] * j;
    const MaskedMedium medium{quadrants};
    return interior ? explicit_interior_update(v, w, current, c, q, medium, kin)
                    : explicit_update(v, w, current, i, j, q, medium, kin);
  }
};
struct MediumNode {
  MediumView medium;
  template <class K>
  __device__ ExplicitPointUpdate operator()(const real* v, const real* w, real current, index_t i,
                                            index_t j, const NodeParams& q, const K& kin) const {
    return explicit_update(v, w, current, i, j, q, medium, field_kinetics(kin, medium));
  }
};

// Which blocks a launch covers: the whole 2-D grid of blocks (ids nullptr), or the listed ones,
// block (bx, by) as the id bx + across by, one per thread block of a 1-D grid.
struct BlockList {
  const std::uint32_t* ids = nullptr;
  unsigned across = 0;
};

// One step, a node per thread: the stimulus current at the node, then `node`'s update (and the
// crossing test of its old and new v when recording activation, `act`).
template <class K, class Node>
__global__ void __launch_bounds__(kLanes * kRows)
    sheet_node_step_kernel(const real* __restrict__ v, const real* __restrict__ w,
                           real* __restrict__ v_next, real* __restrict__ w_next,
                           const __grid_constant__ Node node, const __grid_constant__ NodeParams q,
                           const __grid_constant__ K kin, StimulusTable st, real t,
                           BlockList list, ActivationArrays act) {
  unsigned bx = blockIdx.x, by = blockIdx.y;
  if (list.ids != nullptr) {
    const std::uint32_t id = list.ids[blockIdx.x];
    bx = id % list.across;
    by = id / list.across;
  }
  const index_t i = bx * static_cast<index_t>(kLanes) + threadIdx.x;
  const index_t j = by * static_cast<index_t>(kRows) + threadIdx.y;
  if (i >= q.n[0] || j >= q.n[1]) return;
  const index_t c = i + q.n[0] * j;
  const real current = st.count > 0 ? stimulus_current(st, i, j, t, 0.0) : 0.0;
  const ExplicitPointUpdate out = node(v, w, current, i, j, q, kin);
  v_next[c] = out.v;
  w_next[c] = out.w;
  if (act.on()) record_crossing_in_kernel(act, c, v[c], out.v, t, q.k);
}

// The heterogeneous step on the blocks [bx0, bx0 + gridDim.x) x [by0, by0 + gridDim.y), every
// node of which is off the sheet's sides: each node's four-quadrant update is computed (its loads
// wait for nothing) and stored where its block is full (`full`, one flag per block of the grid,
// `across` blocks a row); the other blocks are the partial kernel's.
template <class K>
__global__ void __launch_bounds__(kLanes * kRows)
    sheet_full_step_kernel(const real* __restrict__ v, const real* __restrict__ w,
                           real* __restrict__ v_next, real* __restrict__ w_next,
                           const __grid_constant__ MediumView m,
                           const std::uint8_t* __restrict__ full, unsigned across, unsigned bx0,
                           unsigned by0, const __grid_constant__ NodeParams q,
                           const __grid_constant__ K kin, StimulusTable st, real t,
                           ActivationArrays act) {
  const unsigned bx = bx0 + blockIdx.x, by = by0 + blockIdx.y;
  const index_t i = bx * static_cast<index_t>(kLanes) + threadIdx.x;
  const index_t j = by * static_cast<index_t>(kRows) + threadIdx.y;
  const index_t c = i + q.n[0] * j;
  const real current = st.count > 0 ? stimulus_current(st, i, j, t, 0.0) : 0.0;
  const ExplicitPointUpdate out =
      explicit_interior_update(v, w, current, c, q, m, field_kinetics(kin, m));
  if (full[bx + across * by] == 0) return;
  v_next[c] = out.v;
  w_next[c] = out.w;
  if (act.on()) record_crossing_in_kernel(act, c, v[c], out.v, t, q.k);
}

// The step kernels' grid of blocks over the whole sheet.
dim3 sheet_grid(const NodeParams& q) {
  return dim3(static_cast<unsigned>((q.n[0] + kLanes - 1) / kLanes),
              static_cast<unsigned>((q.n[1] + kRows - 1) / kRows));
}

// The checks every launcher makes (InternalError naming `kernels`).
void check_sheet(const char* kernels, const real* v, const real* w, const real* v_next,
                 const real* w_next, const std::uint8_t* quadrants, const NodeParams& q,
                 const StimulusTable& stimuli) {
  FHN_VERIFY(q.dims == 2 && q.plane0 == 0 && q.planes == q.n[1] && quadrants != nullptr &&
                 q.n[0] >= 3 && q.n[1] >= 3,
             InternalError, std::string(kernels) + ": the whole sheet (3 x 3 nodes or more) and "
                                                   "its quadrant bytes");
  verify_explicit_arrays(kernels, v, w, v_next, w_next, q.n[0] * q.n[1], 9, stimuli);
}

// Launches the kernel of `node` for the run's form over `grid` (blocks `list`), no checks.
template <class Node>
void launch_node_steps(const real* v, const real* w, real* v_next, real* w_next, const Node& node,
                       const NodeParams& q, const Kinetics& kinetics, const StimulusTable& stimuli,
                       index_t step, cudaStream_t stream, dim3 grid, BlockList list,
                       const ActivationArrays& activation) {
  const real t = step_time(step, q.k);
  with_kinetics(kinetics, [&](const auto& kin) {
    sheet_node_step_kernel<<<grid, dim3(kLanes, kRows), 0, stream>>>(
        v, w, v_next, w_next, node, q, kin, stimuli, t, list, activation);
  });
  FHN_CUDA_CHECK_LAUNCH();
}

}  // namespace

MediumBlocks medium_blocks(const std::vector<std::uint8_t>& quadrants, const NodeParams& q) {
  const dim3 grid = sheet_grid(q);
  FHN_VERIFY(quadrants.size() == static_cast<std::size_t>(q.n[0] * q.n[1]), InternalError,
             "medium_blocks: one quadrant byte per node of the sheet");
  MediumBlocks blocks;
  blocks.across = grid.x;
  // The blocks whose nodes are all off the sides: columns [1, (N_x - 1) / 32), rows likewise.
  blocks.bx0 = blocks.by0 = 1;
  blocks.bx1 = std::max(1u, static_cast<unsigned>((q.n[0] - 1) / kLanes));
  blocks.by1 = std::max(1u, static_cast<unsigned>((q.n[1] - 1) / kRows));
  std::vector<std::uint8_t> full(static_cast<std::size_t>(grid.x) * grid.y, 0);
  std::vector<std::uint32_t> partial;
  for (unsigned by = 0; by < grid.y; ++by)
    for (unsigned bx = 0; bx < grid.x; ++bx) {
      bool all = bx >= blocks.bx0 && bx < blocks.bx1 && by >= blocks.by0 && by < blocks.by1;
      for (index_t j = by * kRows; all && j < (by + 1) * static_cast<index_t>(kRows); ++j)
        for (index_t i = bx * kLanes; all && i < (bx + 1) * static_cast<index_t>(kLanes); ++i) {
          real held = 0.0;
          all = quadrants[static_cast<std::size_t>(i + q.n[0] * j)] == kAllQuadrants &&
                !sheet_dirichlet(i, j, q, held);
        }
      full[bx + grid.x * by] = all ? 1 : 0;
      if (!all) partial.push_back(bx + grid.x * by);
    }
  blocks.full = to_device(full, "full blocks");
  if (!partial.empty()) blocks.partial = to_device(partial, "partial blocks");
  return blocks;
}

void launch_explicit_sheet_masked_step(const real* v, const real* w, real* v_next, real* w_next,
                                       const std::uint8_t* quadrants, const NodeParams& q,
                                       const Kinetics& kinetics, const StimulusTable& stimuli,
                                       index_t step, cudaStream_t stream,
                                       const ActivationArrays& activation) {
  check_sheet("masked sheet kernel", v, w, v_next, w_next, quadrants, q, stimuli);
  launch_node_steps(v, w, v_next, w_next, MaskedNode{quadrants}, q, kinetics, stimuli, step,
                    stream, sheet_grid(q), BlockList{}, activation);
}

void launch_explicit_sheet_medium_step(const real* v, const real* w, real* v_next, real* w_next,
                                       const MediumView& medium, const MediumBlocks& blocks,
                                       const NodeParams& q, const Kinetics& kinetics,
                                       const StimulusTable& stimuli, index_t step,
                                       cudaStream_t stream, const ActivationArrays& activation) {
  check_sheet("heterogeneous sheet kernel", v, w, v_next, w_next, medium.quadrants, q, stimuli);
  const dim3 grid = sheet_grid(q);
  FHN_VERIFY(blocks.across == grid.x &&
                 blocks.full.size() == static_cast<std::size_t>(grid.x) * grid.y,
             InternalError, "heterogeneous sheet kernel: blocks of another sheet");
  if (blocks.bx1 > blocks.bx0 && blocks.by1 > blocks.by0) {
    const real t = step_time(step, q.k);
    const dim3 inner(blocks.bx1 - blocks.bx0, blocks.by1 - blocks.by0);
    with_kinetics(kinetics, [&](const auto& kin) {
      sheet_full_step_kernel<<<inner, dim3(kLanes, kRows), 0, stream>>>(
          v, w, v_next, w_next, medium, blocks.full.data(), blocks.across, blocks.bx0,
          blocks.by0, q, kin, stimuli, t, activation);
    });
    FHN_CUDA_CHECK_LAUNCH();
  }
  if (blocks.partial.size() > 0)
    launch_node_steps(v, w, v_next, w_next, MediumNode{medium}, q, kinetics, stimuli, step,
                      stream, dim3(static_cast<unsigned>(blocks.partial.size())),
                      BlockList{blocks.partial.data(), blocks.across}, activation);
}

}  // namespace fhn::cuda
