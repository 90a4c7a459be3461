#pragma once
// Constructors of the CUDA schemes (one translation unit each), used by make_cuda_scheme.
#include <memory>

#include "schemes/explicit_step.hpp"
#include "schemes/scheme.hpp"

namespace fhn::cuda {

// The explicit scheme (explicit_cuda.cu) on a cable, a sheet or a box; `path`: its fast path
// (the hand-tuned kernels) or the generic one (the GPU tests compare the two).
std::unique_ptr<Scheme> make_explicit_cuda(const Problem& problem,
                                           ExplicitPath path = ExplicitPath::fast);
// The explicit scheme on rank comm.rank()'s slab of a sheet (rows) or a box (z planes), on the
// current device.
std::unique_ptr<Scheme> make_explicit_slab_cuda(const Problem& problem, Communicator& comm);
// How the whole cable's Crank-Nicolson runs a Newton iteration with the partitioned solver:
// fused (J and F built inside the solver's passes, crank_nicolson_cuda.cu) or generic (the
// kernels of crank_nicolson_kernels.cuh around the solver on stored arrays, as every other
// solver runs; the GPU tests compare the two).
enum class NewtonPath { fused, generic };
// use_graphs: with the fused path, each Newton iteration is replayed as a CUDA graph (false: its
// kernels are launched one by one; `fhn bench` compares the two).
std::unique_ptr<Scheme> make_crank_nicolson_cuda(const Problem& problem,
                                                 const CrankNicolsonSpec& spec,
                                                 NewtonLog* newton_log, bool use_graphs = true,
                                                 NewtonPath path = NewtonPath::fused);
// Crank-Nicolson/Newton on rank comm.rank()'s slab of a cable, on the current device: the Newton
// systems solved across the ranks (crank_nicolson_cuda.cu). Collective.
std::unique_ptr<Scheme> make_crank_nicolson_slab_cuda(const Problem& problem,
                                                      const CrankNicolsonSpec& spec,
                                                      NewtonLog* newton_log, Communicator& comm);

// scheme.crank_nicolson.formulation: adi (adi_cuda.cu).
std::unique_ptr<Scheme> make_adi_cuda(const Problem& problem, const CrankNicolsonSpec& spec,
                                      NewtonLog* newton_log);
// The same on rank comm.rank()'s slab of a sheet (rows) or a box (z planes), on the current
// device; newton_log: the root's, nullptr on the other ranks. Collective (the device transport).
std::unique_ptr<Scheme> make_adi_slab_cuda(const Problem& problem, const CrankNicolsonSpec& spec,
                                           NewtonLog* newton_log, Communicator& comm);

}  // namespace fhn::cuda
