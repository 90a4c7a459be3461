#pragma once
// The crossing test of the activation times in a kernel (schemes/point/activation_point.hpp's
// crosses_up and crossing_time), recorded without waiting for memory: the first crossing as the
// minimum of the times (atomicMin on the bits, a reduction that returns nothing, where the host
// reads `first` to see whether it is NaN), the last as a plain store (one thread writes a node,
// its steps in order). The same values as the host's record_crossing: times are positive
// (t* > t_n >= 0), and the bits of positive doubles order as the numbers, below NaN's (the arrays'
// "none yet").
#include <cuda_runtime.h>

#include "schemes/point/activation_point.hpp"

namespace fhn::cuda {

__device__ __forceinline__ void record_crossing_in_kernel(const ActivationArrays& a, index_t c, real v_old,
                                                real v_new, real t, real dt) {
  if (!crosses_up(a.threshold, v_old, v_new)) return;
  const real at = crossing_time(a.threshold, v_old, v_new, t, dt);
  atomicMin(reinterpret_cast<unsigned long long*>(a.first + c),
            static_cast<unsigned long long>(__double_as_longlong(at)));
  if (a.last) a.last[c] = at;
}

}  // namespace fhn::cuda
