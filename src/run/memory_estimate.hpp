#pragma once
// How much memory a run needs, counted from the arrays its scheme, time loop and writers
// allocate, and whether this machine has it: `fhn validate` prints the estimate, `fhn run` and
// `fhn sweep` refuse a config that does not fit before allocating anything.
//
// Host memory available: core/host_memory.hpp.
// Device memory: the free memory of the CUDA device (cudaMemGetInfo, core/cuda/cuda_devices.cpp).
#include <string>
#include <vector>

#include "config/config.hpp"
#include "core/host_memory.hpp"

namespace fhn {

struct MemoryItem {
  std::string what;  // "scheme: v, w and the next v, w (4 arrays)"
  real bytes = 0.0;
};

// The peak of one process: the arrays that live through the run, plus the largest of the
// temporary ones (a checkpoint being written, a frame being converted for VTK).
struct MemoryEstimate {
  std::vector<MemoryItem> host;    // alive for the whole run
  MemoryItem host_peak_temporary;  // the largest temporary, on top of `host`
  std::vector<MemoryItem> device;  // scheme.backend: cuda only
  real host_total() const;
  real device_total() const;
};

// The estimate for `c` run by one process (ranks = 1), or for rank 0 of `ranks` (which holds the
// whole domain's frames besides its slab) and for one other rank (`worker`, may be null).
// With `tissue:`, `fields:` or `anisotropy:` it counts the pictures kept with the config, the
// per-node arrays of the parameter fields (model/problem.hpp field_arrays), held in the Problem,
// the scheme's copy of it, a slab's parts of them and on the device, and the schemes' quadrant
// bytes and ADI's rows.
MemoryEstimate estimate_run_memory(const Config& c, int ranks = 1,
                                   MemoryEstimate* worker = nullptr);

// What `fhn validate` prints: the estimate for `c` on `ranks` ranks item by item, and what this
// machine has available ("host memory: 1.2 GiB at most", "  800 MiB  the problem: ...", ...).
std::vector<std::string> describe_run_memory(const Config& c, int ranks);

// Bytes one Config holds: the struct and what its strings, vectors and map keep on the heap.
real config_bytes(const Config& c);

// Host bytes of a run's problem, the scheme's copy of it and the scheme's host arrays: what a
// sweep member holds in a batch, and each rank of a distributed run besides its frames.
real member_host_bytes(const Config& c);

// Throws when the run cannot fit: ConfigError (exit 2) naming the bytes needed against those
// available on the host (`host_processes` processes of the run on this machine: one, or the
// ranks sharing it), DeviceError (exit 5) against the free memory of the CUDA device. Nothing is
// allocated before. `check_device`: whether this process queries the device.
void check_run_fits(const Config& c, int ranks, int host_processes, bool check_device);

}  // namespace fhn
