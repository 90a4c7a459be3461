// scheme.backend: cuda: checks for a device, then builds the requested scheme (of the whole run,
// or of one rank's slab).
#include "config/names.hpp"
#include "core/cuda/device_buffer.hpp"
#include "parallel/cuda/device_halo_exchange.hpp"
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

// The explicit scheme and ADI (crank_nicolson with formulation: adi) on a sheet or a box, and
// Crank-Nicolson/Newton on a cable, run on slabs; the rest is refused before any device is
// touched. Then this rank takes its GPU, and only then allocates.
std::unique_ptr<Scheme> make_cuda_slab_scheme(const Config& config, const Problem& problem,
                                              Communicator& comm, NewtonLog* newton_log) {
  const int dims = problem.domain.dims;
  const bool cn = config.scheme.type == SchemeType::crank_nicolson;
  const bool adi = cn && config.scheme.crank_nicolson.formulation == Formulation::adi;
  std::string what;
  if (cn && adi != (dims >= 2))
    what = "crank_nicolson (formulation: " +
           name_of(formulation_names(), config.scheme.crank_nicolson.formulation) + ") on a " +
           problem.domain.kind();
  else if (config.scheme.type == SchemeType::adaptive_explicit)
    what = name_of(scheme_type_names(), config.scheme.type);
  else if (!cn && dims == 1)
    what = "explicit on a cable";
  if (!what.empty())  // located by make_slab_scheme
    throw ConfigError("scheme.type",
                      what + " with scheme.backend: cuda does not run on several ranks yet "
                             "(explicit and crank_nicolson with formulation: adi on a sheet or a "
                             "box, crank_nicolson with formulation: newton on a cable do); run it "
                             "as one process, without mpirun");
  cuda::use_rank_device(comm);
  if (adi) return cuda::make_adi_slab_cuda(problem, config.scheme.crank_nicolson, newton_log, comm);
  if (dims == 3) return cuda::make_explicit_box_slab_cuda(problem, comm);
  if (cn)
    return cuda::make_crank_nicolson_slab_cuda(problem, config.scheme.crank_nicolson, newton_log,
                                               comm);
  return cuda::make_explicit_sheet_slab_cuda(problem, comm);
}

}  // namespace fhn
