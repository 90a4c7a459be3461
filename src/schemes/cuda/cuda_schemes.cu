// scheme.backend: cuda: checks for a device, then builds the requested scheme.
#include "config/names.hpp"
#include "core/cuda/device_buffer.hpp"
#include "schemes/cuda/cuda_scheme_factories.hpp"
#include "schemes/cuda_schemes.hpp"

namespace fhn {

std::unique_ptr<Scheme> make_cuda_scheme(const Config& config, const Problem& problem,
                                         NewtonLog* newton_log) {
  cuda::require_device();
  switch (config.scheme.type) {
    case SchemeType::explicit_euler:
      return cuda::make_explicit_cuda(problem);
    case SchemeType::crank_nicolson:
      if (config.scheme.crank_nicolson.formulation == Formulation::adi)
        return cuda::make_adi_cuda(problem, config.scheme.crank_nicolson, newton_log);
      return cuda::make_crank_nicolson_cuda(problem, config.scheme.crank_nicolson, newton_log);
    case SchemeType::adaptive_explicit:
      break;  // refused by the config loader: the adaptive scheme is CPU only
  }
  throw InternalError("no CUDA implementation of scheme '" +
                      name_of(scheme_type_names(), config.scheme.type) + "'");
}

}  // namespace fhn
