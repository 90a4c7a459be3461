#pragma once
// Forward Euler on a box on the GPU, one step per launch: each thread owns a column of nodes
// (i, j) and marches along z through a chunk of planes, evaluating the CPU's node updates
// (explicit_box_interior_node inside, explicit_box_node on the faces; schemes/node_updates.hpp).
// Compiled without FMA contraction, as ExplicitCpu's expressions: the GPU agrees with the CPU
// bit for bit.
//
// Bytes per node and step (DRAM; the six neighbours' values come from the caches: the x and y
// ones are the block's own loads, the z ones the thread's previous and next planes): read v, w,
// write v+, w+: 32 B, the copy of two arrays.
#include <cuda_runtime.h>

#include "model/stimulus.hpp"
#include "schemes/node_updates.hpp"

namespace fhn::cuda {

// One step from t = step dt on the planes [k_begin, k_end) of a box (q.dims == 3, at least 3
// nodes along each axis); device arrays of the planes [q.plane0, q.plane0 + q.planes) (the whole
// box, or a slab's with its halo planes), which must hold the planes next to the range that lie
// in the box (their v is read); the outputs overlapping neither the inputs nor each other. k_end
// < 0: every plane of the arrays (the whole box). Queued on `stream`, no sync.
void launch_explicit_box_step(const real* v, const real* w, real* v_next, real* w_next,
                              const NodeParams& q, const Kinetics& kinetics,
                              const StimulusTable& stimuli, index_t step, cudaStream_t stream,
                              index_t k_begin = 0, index_t k_end = -1);

}  // namespace fhn::cuda
