#pragma once
// Forward Euler on a sheet with fields (tissue:, fields:, anisotropy:) on the GPU, one node per
// thread and one step per launch, evaluating the CPU's node updates of schemes/node_updates.hpp:
// the masked update (a tissue mask alone: explicit_masked_interior_node, explicit_masked_sheet_node)
// and the heterogeneous one (per-node D or kinetics, anisotropy: explicit_medium_node). Both read
// the nodes' quadrant bytes (model/tissue.hpp) instead of the mask. Compiled without FMA
// contraction, as ExplicitCpu's expressions: the GPU agrees with the CPU to round-off.
//
// Bytes per node and step (DRAM, the neighbours' values hit the caches): read v, w and the
// quadrant byte, write v+, w+: 33 B; the heterogeneous update reads besides 8 B per per-node
// array (D, or D_xx, D_xy, D_yy; each kinetics field).
#include <cuda_runtime.h>

#include <cstdint>

#include "model/stimulus.hpp"
#include "schemes/node_updates.hpp"

namespace fhn::cuda {

// One step from t = step dt on the whole sheet with a tissue mask: `quadrants` (device, one byte
// per node) the nodes' quadrant bytes. Queued on `stream`, no sync.
void launch_explicit_sheet_masked_step(const real* v, const real* w, real* v_next, real* w_next,
                                       const std::uint8_t* quadrants, const NodeParams& q,
                                       const Kinetics& kinetics, const StimulusTable& stimuli,
                                       index_t step, cudaStream_t stream);

// One step from t = step dt on the whole sheet with per-node parameters or anisotropy: `medium`
// holds device pointers (DeviceFields::medium). Queued on `stream`, no sync.
void launch_explicit_sheet_medium_step(const real* v, const real* w, real* v_next, real* w_next,
                                       const MediumView& medium, const NodeParams& q,
                                       const Kinetics& kinetics, const StimulusTable& stimuli,
                                       index_t step, cudaStream_t stream);

}  // namespace fhn::cuda
