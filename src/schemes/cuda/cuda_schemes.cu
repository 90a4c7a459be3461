// scheme.backend: cuda: checks for a device, then builds the requested scheme (of the whole run,
// or of one rank's slab), a combination the capability table has let run
// (config/capabilities.hpp; make_scheme and make_slab_scheme ask it).
#include "config/names.hpp"
#include "core/cuda/device_buffer.hpp"
#include "parallel/cuda/device_halo_exchange.hpp"
#include "schemes/cuda/cuda_scheme_factories.hpp"
#include "schemes/cuda_schemes.hpp"

namespace fhn {

std::unique_ptr<Scheme> make_cuda_scheme(const Problem& problem, const SchemeSpec& spec,
                                         NewtonLog* newton_log) {
  cuda::require_device();
  switch (spec.type) {
    case SchemeType::explicit_euler:
      return cuda::make_explicit_cuda(problem);
    case SchemeType::crank_nicolson:
      if (spec.crank_nicolson.formulation == Formulation::adi)
        return cuda::make_adi_cuda(problem, spec.crank_nicolson, newton_log);
      return cuda::make_crank_nicolson_cuda(problem, spec.crank_nicolson, newton_log);
    case SchemeType::adaptive_explicit:
      break;  // refused by the capability table: the adaptive scheme is CPU only
  }
  throw InternalError("no CUDA implementation of scheme '" +
                      name_of(scheme_type_names(), spec.type) + "'");
}

// This rank takes its GPU, and only then allocates: ADI on a sheet (rows) or a box (z planes),
// the explicit scheme on a box (z planes) or a sheet (rows), Crank-Nicolson/Newton on a cable.
std::unique_ptr<Scheme> make_cuda_slab_scheme(const Problem& problem, const SchemeSpec& spec,
                                              Communicator& comm, NewtonLog* newton_log) {
  cuda::use_rank_device(comm);
  if (spec.type == SchemeType::crank_nicolson) {
    if (spec.crank_nicolson.formulation == Formulation::adi)
      return cuda::make_adi_slab_cuda(problem, spec.crank_nicolson, newton_log, comm);
    return cuda::make_crank_nicolson_slab_cuda(problem, spec.crank_nicolson, newton_log, comm);
  }
  return cuda::make_explicit_slab_cuda(problem, comm);
}

}  // namespace fhn
