#pragma once
// Forward Euler on an N_x x N_y sheet on the GPU: a one-step kernel at the copy bandwidth and a
// temporally blocked kernel that advances several steps per pass over memory. Both compute the
// stimulus current in the kernel (stimulus_current(st, i, j, t, 1, 0)) and evaluate the sheet
// node functions of schemes/node_updates.hpp, interior nodes as explicit_sheet_interior_node and
// side nodes as explicit_sheet_node (5-point Laplacian, mirrored ghost nodes at no-flux sides,
// Dirichlet sides held, corners left, right, bottom, top first), so they agree with
// ExplicitCpu on a sheet to rounding and with each other bit for bit (compiled without FMA
// contraction, so a node's bits do not depend on the kernel or tile that computes it).
//
// Per node (i, j) and step, t = step dt:
//   v+ = v + k (r [(v_W - 2 v + v_E) + (v_S - 2 v + v_N)] + f(v) - w + I(t)),
//   w+ = w + k eps (v - gamma w).
//
// Arrays: device pointers of N_x N_y values (node i + N_x j), 16-byte aligned (as cudaMalloc
// returns them); the outputs must not overlap the inputs. N_x, N_y >= 3.
#include "model/stimulus.hpp"
#include "schemes/node_updates.hpp"

namespace fhn::cuda {

// The deepest pass the blocked kernel takes (its halo is the depth rounded up to even, at most
// 12 of the 64 x 64 region's nodes per side).
constexpr int kExplicitSheetMaxSteps = 12;

// Steps per pass of the sheet scheme (ExplicitSheetCuda), the fastest per step at 4096 x 4096
// fp64 on an H100 (explicit_sheet_kernels.cu; `fhn bench` rows "sheet explicit step").
constexpr int kExplicitSheetStepsPerPass = 6;

// One step from t = step dt: (v, w) -> (v_next, w_next); default stream, no sync.
void launch_explicit_sheet_step(const real* v, const real* w, real* v_next, real* w_next,
                                const SheetParams& q, const StimulusTable& stimuli, index_t step);

// `steps` (1..kExplicitSheetMaxSteps) steps from t = first_step dt in one pass over memory; the
// same numbers as `steps` calls of launch_explicit_sheet_step. Default stream, no sync.
void launch_explicit_sheet_steps_blocked(const real* v, const real* w, real* v_next, real* w_next,
                                         const SheetParams& q, const StimulusTable& stimuli,
                                         index_t first_step, int steps);

}  // namespace fhn::cuda
