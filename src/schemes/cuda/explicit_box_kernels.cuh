#pragma once
// Forward Euler on a box on the GPU: a one-step kernel and a temporally blocked one (2.5-D
// blocking: several steps per pass over memory). Both evaluate the CPU's node updates
// (explicit_interior_update_of<3> inside, explicit_update_of<3> on the faces; schemes/point/),
// compiled without FMA contraction as ExplicitCpu's expressions: the GPU agrees with the CPU bit
// for bit, and a node's bits do not depend on the kernel or the tile that computes it.
//
// One step per pass: a block streams a tile of columns along z, the planes copied ahead into a
// ring in shared memory (cp.async), where each node finds its six neighbours. Bytes per node
// and step (DRAM): read v, w, write v+, w+: 32 B, the copy of two arrays.
//
// Several steps per pass: explicit_box_kernels.cu says how, and what it costs.
#include <cuda_runtime.h>

#include "model/stimulus.hpp"
#include "schemes/node_updates.hpp"
#include "schemes/point/activation_point.hpp"

namespace fhn::cuda {

// One step from t = step dt on the planes [k_begin, k_end) of a box (q.dims == 3, at least 3
// nodes along each axis); device arrays of the planes [q.plane0, q.plane0 + q.planes) (the whole
// box, or a slab's with its halo planes), which must hold the planes next to the range that lie
// in the box (their v is read); the outputs overlapping neither the inputs nor each other. k_end
// < 0: every plane of the arrays (the whole box). Queued on `stream`, no sync. `activation`
// (arrays laid out like v; off by default): each written node's crossing test
// (schemes/point/activation_point.hpp), fused into the update, here and in the blocked pass.
void launch_explicit_box_step(const real* v, const real* w, real* v_next, real* w_next,
                              const NodeParams& q, const Kinetics& kinetics,
                              const StimulusTable& stimuli, index_t step, cudaStream_t stream,
                              index_t k_begin = 0, index_t k_end = -1,
                              const ActivationArrays& activation = {});

// The deepest pass of the blocked kernel, and the depth the box scheme takes: 2 steps per pass,
// the fastest per step from 32^3 to 512^3 on an H200 (fp64, `fhn bench` rows "box step";
// BENCHMARKS.md): 1.03x and 1.13x the one-step kernel at 256^3 and 512^3, more on small boxes
// (half the launches). The blocked kernel is instruction bound
// (about 86 instructions per node update, 1.6 times the useful updates for the tiles' halos and
// edges), not memory bound.
constexpr int kExplicitBoxMaxSteps = 4;
constexpr int kExplicitBoxStepsPerPass = 2;

// `steps` (1..kExplicitBoxMaxSteps) steps from t = first_step dt in one pass over memory on the
// planes [k_begin, k_end) (k_end < 0: every plane of the arrays); the same numbers, bit for bit,
// as `steps` launches of launch_explicit_box_step. The arrays must hold the `steps` planes next
// to the range on each side that lie in the box (a slab's halo of that depth). Queued on
// `stream`, no sync.
void launch_explicit_box_steps_blocked(const real* v, const real* w, real* v_next, real* w_next,
                                       const NodeParams& q, const Kinetics& kinetics,
                                       const StimulusTable& stimuli, index_t first_step,
                                       int steps, cudaStream_t stream, index_t k_begin = 0,
                                       index_t k_end = -1,
                                       const ActivationArrays& activation = {});

}  // namespace fhn::cuda
