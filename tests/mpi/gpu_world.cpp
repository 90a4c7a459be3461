// The requirement of the GPU cases of the MPI tests (fhn_mpi_gpu_tests): a CUDA device on every
// rank. Where one rank sees none, every rank skips alike (main exits 77 on all of them).
#include <cuda_runtime.h>

#include "parallel/cuda/device_halo_exchange.hpp"
#include "tests/mpi/world.hpp"

namespace fhn::test {

std::string missing_requirement(Communicator& comm) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  const bool visible = status == cudaSuccess && count > 0;
  if (!visible) cudaGetLastError();
  if (comm.any(!visible))
    return std::string("no CUDA device on some rank (") +
           (visible ? "another rank" : status != cudaSuccess ? cudaGetErrorString(status)
                                                             : "the CUDA runtime reports none") +
           ")";
  cuda::use_rank_device(comm);
  return "";
}

}  // namespace fhn::test
