#include "tests/mpi/gpu_world.hpp"

#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include "parallel/cuda/device_halo_exchange.hpp"

namespace fhn::test {

bool every_rank_has_a_device(Communicator& comm) {
  int count = 0;
  const bool visible = cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
  if (!visible) cudaGetLastError();
  if (comm.any(!visible)) {
    MESSAGE("no CUDA device on some rank: skipped");
    return false;
  }
  cuda::use_rank_device(comm);
  return true;
}

}  // namespace fhn::test
