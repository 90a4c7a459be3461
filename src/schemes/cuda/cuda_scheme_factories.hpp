#pragma once
// Constructors of the CUDA schemes (one translation unit each), used by make_cuda_scheme.
#include <memory>

#include "schemes/scheme.hpp"

namespace fhn::cuda {

std::unique_ptr<Scheme> make_explicit_cuda(const Problem& problem);
std::unique_ptr<Scheme> make_crank_nicolson_cuda(const Problem& problem,
                                                 const CrankNicolsonSpec& spec,
                                                 NewtonLog* newton_log);

}  // namespace fhn::cuda
