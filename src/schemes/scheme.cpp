#include "schemes/scheme.hpp"

#include <cmath>

#include "config/names.hpp"
#include "core/error.hpp"
#include "core/format.hpp"

#include "schemes/adaptive_explicit_cpu.hpp"
#include "schemes/adi_cpu.hpp"
#include "schemes/crank_nicolson_cpu.hpp"
#include "schemes/cuda_schemes.hpp"
#include "schemes/explicit_cpu.hpp"

namespace fhn {

index_t first_non_finite(const real* v, const real* w, index_t n) {
  for (index_t i = 0; i < n; ++i)
    if (!std::isfinite(v[i]) || !std::isfinite(w[i])) return i;
  return -1;
}

std::unique_ptr<Scheme> make_scheme(const Config& config, const Problem& problem,
                                    NewtonLog* newton_log) {
  require_uniform_fields(config, problem.fields, FieldsUse::one_process);
  if (config.scheme.backend == Backend::cuda) return make_cuda_scheme(config, problem, newton_log);
  switch (config.scheme.type) {
    case SchemeType::explicit_euler:
      return std::make_unique<ExplicitCpu>(problem);
    case SchemeType::adaptive_explicit:
      return std::make_unique<AdaptiveExplicitCpu>(problem, config.scheme.adaptive);
    case SchemeType::crank_nicolson:
      if (config.scheme.crank_nicolson.formulation == Formulation::adi)
        return std::make_unique<AdiCpu>(problem, config.scheme.crank_nicolson, newton_log);
      return std::make_unique<CrankNicolsonCpu>(problem, config.scheme.crank_nicolson, newton_log);
  }
  return nullptr;
}

namespace {

std::unique_ptr<Scheme> build_slab_scheme(const Config& config, const Problem& problem,
                                          Communicator& comm, NewtonLog* newton_log) {
  if (config.domain.dims == 3) {
    // A box: slabs of z planes, the explicit scheme with halo planes (CPU and GPU), ADI with a
    // halo plane and the transpose of the z lines (CPU).
    if (config.scheme.backend == Backend::cpu) {
      if (config.scheme.type == SchemeType::explicit_euler)
        return std::make_unique<ExplicitCpu>(problem, comm);
      return std::make_unique<AdiCpu>(problem, config.scheme.crank_nicolson, newton_log, comm);
    }
    return make_cuda_slab_scheme(config, problem, comm, newton_log);
  }
  if (config.scheme.backend == Backend::cuda)
    return make_cuda_slab_scheme(config, problem, comm, newton_log);
  if (config.domain.dims == 1 && config.scheme.type == SchemeType::crank_nicolson &&
      config.scheme.crank_nicolson.formulation == Formulation::newton)
    return std::make_unique<CrankNicolsonCpu>(problem, config.scheme.crank_nicolson, newton_log,
                                              comm);
  if (config.domain.dims == 2) {
    if (config.scheme.type == SchemeType::explicit_euler)
      return std::make_unique<ExplicitCpu>(problem, comm);
    if (config.scheme.type == SchemeType::crank_nicolson &&
        config.scheme.crank_nicolson.formulation == Formulation::adi)
      return std::make_unique<AdiCpu>(problem, config.scheme.crank_nicolson, newton_log, comm);
  }
  throw ConfigError("scheme.type",
                    scheme_kind(config) + " on a " + config.domain.kind() + " with the " +
                        name_of(backend_names(), config.scheme.backend) +
                        " backend does not run on several ranks yet (sheets and Crank-Nicolson "
                        "cables do); run it without mpirun, as one process");
}

}  // namespace

// The slab schemes' refusals (what several ranks cannot run, a grid too small to share) name
// their key; located here, where the Config is.
std::unique_ptr<Scheme> make_slab_scheme(const Config& config, const Problem& problem,
                                         Communicator& comm, NewtonLog* newton_log) {
  require_uniform_fields(config, problem.fields, FieldsUse::slabs);
  try {
    return build_slab_scheme(config, problem, comm, newton_log);
  } catch (const ConfigError& e) {
    if (e.key().empty()) throw;
    throw ConfigError(config.where(e.key()) + ": " + e.what());
  }
}

}  // namespace fhn
