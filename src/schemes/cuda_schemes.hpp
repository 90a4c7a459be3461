#pragma once
// The schemes of scheme.backend: cuda. Implemented in src/schemes/cuda/ when CUDA is built;
// otherwise src/schemes/cuda_unavailable.cpp provides this factory and says why it cannot run.
#include <memory>

#include "schemes/member_batch.hpp"
#include "schemes/scheme.hpp"

namespace fhn {

// The scheme `spec` names (a combination the capability table runs in one process,
// config/capabilities.hpp; make_scheme asks it). Throws DeviceError (exit code 5) without a
// usable device or when CUDA is not compiled in.
std::unique_ptr<Scheme> make_cuda_scheme(const Problem& problem, const SchemeSpec& spec,
                                         NewtonLog* newton_log);

// The CUDA scheme of one rank's slab (make_slab_scheme in scheme.hpp, which has asked the
// capability table: explicit and ADI on a sheet or a box, Crank-Nicolson/Newton on a cable):
// rank r uses GPU comm.local_rank() mod (GPUs on its machine); halos and transposes move through
// NCCL between GPUs, or through host memory where ranks share a GPU
// (parallel/cuda/device_transport.hpp). Collective.
std::unique_ptr<Scheme> make_cuda_slab_scheme(const Problem& problem, const SchemeSpec& spec,
                                              Communicator& comm, NewtonLog* newton_log);

// The CUDA backend of `fhn sweep`: all members in one set of kernels (member_batch_cuda.cu), of
// a combination the capability table batches (make_member_batch asks it). Throws ConfigError
// for a tridiagonal solver without a batched GPU form, DeviceError without a usable device or
// when CUDA is not compiled in.
std::unique_ptr<MemberBatch> make_cuda_member_batch(const std::vector<Problem>& problems,
                                                    const SchemeSpec& spec);

}  // namespace fhn
