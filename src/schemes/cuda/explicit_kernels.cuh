#pragma once
// Forward Euler on the GPU: a one-step kernel at the copy bandwidth and a temporally blocked
// kernel that advances several steps per pass over memory. Both compute the stimulus current
// in the kernel and evaluate the point layer's cable updates (schemes/point/point_1d.hpp), so
// their results agree with the CPU scheme (ExplicitCpu) to rounding (FMA contraction).
//
// Per node and step:  v+ = v + k (D L_h v + f(v, w) + I(t)),  w+ = w + k g(v, w) (the run's
// kinetics form: the kernels are templates over it, instantiated by the launchers),
// ends as point_1d.hpp explicit_update: mirrored ghost node (no-flux order 2), v+_0 = v+_1
// (order 1), or the Dirichlet value held.
//
// Arrays: device pointers of q.n[0] values, 16-byte aligned (as cudaMalloc returns them); the
// outputs must not overlap the inputs (one pass reads the inputs' halos while others write).
#include "model/stimulus.hpp"
#include "schemes/node_updates.hpp"

namespace fhn::cuda {

// Stimuli: a StimulusTable (model/stimulus.hpp) over the device copy of the table
// (DeviceStimuli::view()); step s runs from t = s dt.

// Steps fused by the blocked kernel. Measured at n = 2^24 fp64 on an H100: 16 steps per pass
// take 0.022 ms per step, 8.4x faster than the one-step kernel (0.185 ms, at the copy
// bandwidth); 24 or 32 steps gain under 5% (see explicit_kernels.cu): the pass is then bound by
// arithmetic and the overlap of load, compute and store phases, not by memory.
constexpr int kStepsPerPass = 16;

// The arguments every explicit kernel launcher checks (InternalError naming `kernels`
// otherwise): n >= `least` nodes; v, w, v_next, w_next device arrays of n values, 16-byte
// aligned, the outputs overlapping neither the inputs nor each other; a table where there are
// stimuli.
void verify_explicit_arrays(const char* kernels, const real* v, const real* w, const real* v_next,
                            const real* w_next, index_t n, index_t least,
                            const StimulusTable& stimuli);

// One forward Euler step from t = step*dt: (v,w) -> (v_next,w_next); default stream, no sync.
void launch_explicit_step(const real* v, const real* w, real* v_next, real* w_next,
                          const NodeParams& q, const Kinetics& kinetics,
                          const StimulusTable& stimuli, index_t step);

// `steps` (1..kStepsPerPass) steps from t = first_step*dt in ONE pass over memory (temporal
// blocking: each block loads a tile plus a halo of `steps` + 1 nodes per side, rounded up to an
// even count, advances it `steps` times in registers, exchanging tile edges through shared
// memory, and writes the tile's interior). Same results as `steps` calls of
// launch_explicit_step. Default stream, no sync.
void launch_explicit_steps_blocked(const real* v, const real* w, real* v_next, real* w_next,
                                   const NodeParams& q, const Kinetics& kinetics,
                                   const StimulusTable& stimuli, index_t first_step, int steps);

// The members of a sweep batch (cables of n nodes on one grid, with their own parameters and
// stimuli) as the blocked kernel sees them: member m owns entries [m pitch, m pitch + n) of every
// array (pitch >= n even, so that each member's nodes start 16-byte aligned), its NodeParams
// params[m], its kinetics kinetics[m] and the stimuli table[m count .. m count + count - 1]; a
// member with frozen[m] != 0 is copied through unchanged (its state stays valid in whichever
// buffer is current).
struct MemberArrays {
  index_t members = 0;
  index_t pitch = 0;
  const NodeParams* params = nullptr;  // device, one per member
  const void* kinetics = nullptr;      // device, one per member, of the launcher's form's type
  const int* frozen = nullptr;         // device, one per member
};

// launch_explicit_steps_blocked for every member at once (blockIdx.y = member; `form`: the
// members' kinetics form, members.kinetics of its type): `stimuli.table`
// holds members x stimuli.count entries, stimuli.count the same for every member. Same results
// per member as the single-member launcher with that member's parameters. Default stream, no sync.
void launch_explicit_members_blocked(const real* v, const real* w, real* v_next, real* w_next,
                                     index_t n, const MemberArrays& members, const Kinetics& form,
                                     const StimulusTable& stimuli, index_t first_step, int steps);

}  // namespace fhn::cuda
