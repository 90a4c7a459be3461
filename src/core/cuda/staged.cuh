#pragma once
// A value staged in a block's shared memory: for types with constructors (which a __shared__
// variable cannot have), copied in as 8-byte words.
namespace fhn::cuda {

// A member's parameters (a NodeParams, a kinetics form) staged in shared memory by its block:
// one read of global memory per block, then shared loads (a copy per thread in registers costs
// the explicit members' one-step kernel 3x: measured 1.76 ms against the copy's 0.52 ms at
// 1024 x 256^2, H200).
template <class T>
struct Staged {
  static_assert(sizeof(T) % sizeof(unsigned long long) == 0, "staged in 8-byte words");
  alignas(16) unsigned long long words[sizeof(T) / sizeof(unsigned long long)];

  // Every thread of the block calls it; a barrier follows before the first use.
  __device__ void load(const T& from, int thread, int threads) {
    const auto* source = reinterpret_cast<const unsigned long long*>(&from);
    for (int k = thread; k < static_cast<int>(sizeof(T) / sizeof(unsigned long long)); k += threads)
      words[k] = source[k];
  }
  __device__ const T& get() const { return *reinterpret_cast<const T*>(words); }
};

}  // namespace fhn::cuda
