#pragma once
// For the GPU cases of the MPI tests (fhn_mpi_gpu_tests).
#include "parallel/communicator.hpp"

namespace fhn::test {

// Whether every rank sees a CUDA device (a collective: where one does not, every rank skips the
// case alike and the collectives stay matched); when they do, this rank takes its GPU
// (use_rank_device).
bool every_rank_has_a_device(Communicator& comm);

}  // namespace fhn::test
