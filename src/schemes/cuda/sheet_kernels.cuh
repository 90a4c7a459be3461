#pragma once
// Forward Euler on a sheet, on the GPU: a one-step kernel and a temporally blocked kernel that
// advances several steps per pass over memory. Both evaluate the sheet node functions of
// schemes/node_updates.hpp (5-point Laplacian, mirrored ghost nodes at no-flux sides, Dirichlet
// sides held, corner precedence left, right, bottom, top), so they agree with ExplicitSheetCpu
// to rounding; the blocked kernel gives the one-step kernel's numbers bit for bit.
//
// Arrays: device pointers of q.nx * q.ny values (node i + nx j); outputs must not overlap inputs.
#include "model/stimulus.hpp"
#include "schemes/node_updates.hpp"

namespace fhn::cuda {

// Steps fused by the blocked kernel (the halo of its tiles). Measured: see sheet_kernels.cu.
constexpr int kSheetStepsPerPass = 8;

// One step from t = step*dt: (v, w) -> (v_next, w_next); default stream, no sync.
void launch_sheet_step(const real* v, const real* w, real* v_next, real* w_next,
                       const SheetParams& q, const StimulusTable& stimuli, index_t step);

// `steps` (1..kSheetStepsPerPass) steps from t = first_step*dt in one pass over memory; the same
// numbers as `steps` calls of launch_sheet_step. Default stream, no sync.
void launch_sheet_steps_blocked(const real* v, const real* w, real* v_next, real* w_next,
                                const SheetParams& q, const StimulusTable& stimuli,
                                index_t first_step, int steps);

}  // namespace fhn::cuda
