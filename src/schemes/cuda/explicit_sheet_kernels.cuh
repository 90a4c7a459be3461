#pragma once
// Forward Euler on an N_x x N_y sheet on the GPU: a one-step kernel at the copy bandwidth and a
// temporally blocked kernel that advances several steps per pass over memory. Both compute the
// stimulus current in the kernel (stimulus_current(st, i, j, t, 1, 0)) and evaluate the point
// layer's sheet updates (schemes/point/point_2d.hpp), interior nodes as
// explicit_interior_update<2> and side nodes as explicit_update (5-point Laplacian, mirrored
// ghost nodes at no-flux sides, Dirichlet sides held, corners left, right, bottom, top first), so
// they agree with ExplicitCpu on a sheet to rounding and with each other bit for bit (compiled
// without FMA contraction, so a node's bits do not depend on the kernel or tile that computes it).
//
// Per node (i, j) and step, t = step dt:
//   v+ = v + k (r [(v_W - 2 v + v_E) + (v_S - 2 v + v_N)] + f(v, w) + I(t)),
//   w+ = w + k g(v, w).
//
// Arrays: device pointers of N_x q.planes values holding the global rows [row0, row0 + rows) =
// [q.plane0, q.plane0 + q.planes) (the whole sheet: row0 = 0, rows = N_y; a rank's slab with its
// halo rows; node (i, j) at i + N_x (j - row0)), 16-byte aligned (as cudaMalloc returns them); the
// outputs must not overlap the inputs. N_x, N_y >= 3.
//
// Slabs: a launch computes the global rows [j_begin, j_end), which must lie inside the sheet and
// the arrays, and writes only those rows. It reads only rows the arrays hold and inside the sheet
// (rows beyond either count as zeros); sides are those of the whole N_x x N_y sheet (global j).
// A row is exact after `steps` steps when the arrays hold, exact, the `steps` rows beyond it on
// each side (or the sheet ends first): then it equals the whole-sheet launch bit for bit.
#include <cuda_runtime.h>

#include "model/stimulus.hpp"
#include "schemes/cuda/explicit_kernels.cuh"
#include "schemes/point/activation_point.hpp"
#include "schemes/node_updates.hpp"

namespace fhn::cuda {

// The deepest pass the blocked kernel takes (its halo is the depth rounded up to even, at most
// 12 of the 64 x 64 region's nodes per side).
constexpr int kExplicitSheetMaxSteps = 12;

// Steps per pass of the sheet scheme (ExplicitCuda's sheet fast path), the fastest per step at
// 4096 x 4096 fp64 on an H100 (explicit_sheet_kernels.cu; `fhn bench` rows "sheet explicit step").
constexpr int kExplicitSheetStepsPerPass = 6;

// One step from t = step dt: (v, w) -> (v_next, w_next) on global rows [j_begin, j_end), queued
// on `stream`, no sync. `activation` (arrays laid out like v; off by default): each written
// node's crossing test (schemes/point/activation_point.hpp), fused into the update.
void launch_explicit_sheet_step(const real* v, const real* w, real* v_next, real* w_next,
                                const NodeParams& q, const Kinetics& kinetics,
                                const StimulusTable& stimuli, index_t step, index_t j_begin,
                                index_t j_end, cudaStream_t stream,
                                const ActivationArrays& activation = {});

// `steps` (1..kExplicitSheetMaxSteps) steps from t = first_step dt in one pass over memory on
// global rows [j_begin, j_end); the same numbers as `steps` calls of launch_explicit_sheet_step
// (the activation times too: every step's crossing test at the written nodes). Queued on
// `stream`, no sync.
void launch_explicit_sheet_steps_blocked(const real* v, const real* w, real* v_next, real* w_next,
                                         const NodeParams& q, const Kinetics& kinetics,
                                         const StimulusTable& stimuli, index_t first_step,
                                         int steps, index_t j_begin, index_t j_end,
                                         cudaStream_t stream,
                                         const ActivationArrays& activation = {});

// The members of a sweep batch (MemberArrays, explicit_kernels.cuh: member m's sheet at entries
// [m pitch, m pitch + N_x N_y), its NodeParams, kinetics of `form`'s type and stimuli; frozen
// members copied through), one launch for all (blockIdx.z = member): the same numbers per member
// as the single-sheet launchers with its parameters. `shape`: the members' common grid (whole
// sheets). Default stream, no sync.
void launch_explicit_sheet_members_step(const real* v, const real* w, real* v_next, real* w_next,
                                        const NodeParams& shape, const MemberArrays& members,
                                        const Kinetics& form, const StimulusTable& stimuli,
                                        index_t step);
void launch_explicit_sheet_members_blocked(const real* v, const real* w, real* v_next,
                                           real* w_next, const NodeParams& shape,
                                           const MemberArrays& members, const Kinetics& form,
                                           const StimulusTable& stimuli, index_t first_step,
                                           int steps);

// Every row the arrays hold, on the default stream (the whole sheet: every row).
inline void launch_explicit_sheet_step(const real* v, const real* w, real* v_next, real* w_next,
                                       const NodeParams& q, const Kinetics& kinetics,
                                       const StimulusTable& stimuli, index_t step) {
  launch_explicit_sheet_step(v, w, v_next, w_next, q, kinetics, stimuli, step, q.plane0,
                             q.plane0 + q.planes, nullptr);
}
inline void launch_explicit_sheet_steps_blocked(const real* v, const real* w, real* v_next,
                                                real* w_next, const NodeParams& q,
                                                const Kinetics& kinetics,
                                                const StimulusTable& stimuli, index_t first_step,
                                                int steps) {
  launch_explicit_sheet_steps_blocked(v, w, v_next, w_next, q, kinetics, stimuli, first_step,
                                      steps, q.plane0, q.plane0 + q.planes, nullptr);
}

}  // namespace fhn::cuda
