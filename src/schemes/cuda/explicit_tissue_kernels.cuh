#pragma once
// Forward Euler on a sheet with fields (tissue:, fields:, anisotropy:) on the GPU, one node per
// thread and one step per launch, evaluating the CPU's node updates of schemes/point/point_2d.hpp:
// the masked update (a tissue mask alone: MaskedMedium) and the heterogeneous one (per-node D or
// kinetics, anisotropy: MediumView, a TensorMedium with the per-node kinetics). Both read
// the nodes' quadrant bytes (model/tissue.hpp) instead of the mask. Compiled without FMA
// contraction, as ExplicitCpu's expressions: the GPU agrees with the CPU to round-off.
//
// Bytes per node and step (DRAM, the neighbours' values hit the caches): read v, w and the
// quadrant byte, write v+, w+: 33 B; the heterogeneous update reads besides 8 B per per-node
// array (D, or D_xx, D_xy, D_yy; each kinetics field).
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "core/cuda/device_buffer.hpp"
#include "model/stimulus.hpp"
#include "schemes/node_updates.hpp"
#include "schemes/point/activation_point.hpp"

namespace fhn::cuda {

// One step from t = step dt on the whole sheet with a tissue mask: `quadrants` (device, one byte
// per node) the nodes' quadrant bytes. Queued on `stream`, no sync. `activation` (arrays laid out
// like v; off by default): each node's crossing test (schemes/point/activation_point.hpp), here
// and in the heterogeneous step, fused into the update.
void launch_explicit_sheet_masked_step(const real* v, const real* w, real* v_next, real* w_next,
                                       const std::uint8_t* quadrants, const NodeParams& q,
                                       const Kinetics& kinetics, const StimulusTable& stimuli,
                                       index_t step, cudaStream_t stream,
                                       const ActivationArrays& activation = {});

// The thread blocks (32 x 8 nodes each) of the heterogeneous step, by what their nodes need: a
// block is full when its nodes all have four quadrants, lie off the sheet's sides and off any
// Dirichlet side; its update (explicit_interior_update of a TensorMedium) reads no quadrant
// byte. One kernel runs
// over the rectangle of blocks off the sides, [bx0, bx1) x [by0, by1), computing every node's
// four-quadrant update and storing it where the block is full (`full`, a flag per block of the
// grid, `across` a row); a second runs over the `partial` blocks (ids bx + across by) with the
// general update. Made once per run from the sheet's quadrant bytes (host). On an H100 at
// 4096 x 4096 (BENCHMARKS.md) this runs the anisotropic step at 0.8 of the copy bandwidth, against
// 0.6 for one kernel choosing each node's update from its byte (the loads then wait for the byte).
struct MediumBlocks {
  DeviceBuffer<std::uint8_t> full;
  DeviceBuffer<std::uint32_t> partial;
  unsigned across = 0, bx0 = 0, bx1 = 0, by0 = 0, by1 = 0;
};
MediumBlocks medium_blocks(const std::vector<std::uint8_t>& quadrants, const NodeParams& q);

// One step from t = step dt on the whole sheet with per-node parameters or anisotropy: `medium`
// holds device pointers (DeviceFields::medium), `blocks` medium_blocks of its quadrant bytes.
// Queued on `stream`, no sync.
void launch_explicit_sheet_medium_step(const real* v, const real* w, real* v_next, real* w_next,
                                       const MediumView& medium, const MediumBlocks& blocks,
                                       const NodeParams& q, const Kinetics& kinetics,
                                       const StimulusTable& stimuli, index_t step,
                                       cudaStream_t stream,
                                       const ActivationArrays& activation = {});

}  // namespace fhn::cuda
