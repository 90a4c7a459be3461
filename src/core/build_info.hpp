#pragma once
// What this binary is: version, source revision, compiled-in features, visible CUDA devices.
#include <cstddef>
#include <string>
#include <vector>

namespace fhn {

const char* version();
const char* git_revision();  // "unknown" outside a git checkout
const char* build_type();
const char* compiler();

bool cuda_compiled();
bool mpi_compiled();  // runs over several ranks under mpirun (src/parallel/mpi/)

struct CudaDevice {
  int index = 0;
  std::string name;
  std::size_t memory_bytes = 0;
  int compute_major = 0;
  int compute_minor = 0;
};

// Devices the CUDA runtime can see. When there are none (no driver, no GPU, CUDA not compiled),
// returns an empty list and puts the reason in *why_none.
std::vector<CudaDevice> cuda_devices(std::string* why_none);

}  // namespace fhn
