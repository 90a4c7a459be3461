#pragma once
// Basic numeric types and the host/device annotation shared by CPU and CUDA code.
#include <cstdint>

#if defined(__CUDACC__)
#define FHN_HOST_DEVICE __host__ __device__
#else
#define FHN_HOST_DEVICE
#endif

namespace fhn {

using real = double;          // every state array and coefficient is fp64
using index_t = std::int64_t; // node counts reach 2^26 and step counts exceed 2^31

constexpr real kTwoPi = 6.283185307179586476925286766559;

// Where the pointers handed to a solver or kernel live.
enum class MemorySpace { host, device };

}  // namespace fhn
