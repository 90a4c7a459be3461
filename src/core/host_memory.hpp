#pragma once
// How much host memory this process may still take, and the refusal of an allocation that would
// not fit: what the memory estimate of a run (run/memory_estimate.hpp), a sweep's batches and the
// picture readers (model/png_image.hpp, model/vti_image.hpp) check before allocating.
//
// Host memory available: /proc/meminfo's MemAvailable, lowered to what a cgroup memory limit
// leaves (v2 memory.max, v1 memory.limit_in_bytes, less the usage that cannot be reclaimed) and
// to what this process's address-space or data limits leave.
#include <string>

#include "core/types.hpp"

namespace fhn {

// Host memory this process may still take, in bytes, and where the figure comes from: the
// smallest of MemAvailable, what the cgroup memory limit leaves and what this process's
// address-space or data limits (ulimit -v, -d) leave; a negative figure when none can be read.
struct AvailableMemory {
  real bytes = -1.0;
  std::string source;
};
AvailableMemory available_host_memory();

// Throws ConfigError (exit 2) when `bytes` exceed the host memory available: "<what> needs
// about 12.0 GB of host memory but this machine has 3.1 GB available (<source>); refused before
// allocating it. <remedy>". Does nothing when the available memory cannot be read.
void check_host_memory(real bytes, const std::string& what, const std::string& remedy);

}  // namespace fhn
