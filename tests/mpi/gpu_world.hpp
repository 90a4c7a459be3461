#pragma once
// For the distributed GPU tests (fhn_mpi_gpu_tests): whether every rank sees a CUDA device, so
// that every rank skips a case alike where one does not (the collectives stay matched).
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include "parallel/cuda/device_halo_exchange.hpp"

namespace fhn::test {

// Collective. When every rank sees a device, this rank takes its GPU (use_rank_device).
inline bool every_rank_has_a_device(Communicator& comm) {
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
