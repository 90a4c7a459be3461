#include "schemes/scheme.hpp"

#include <cmath>

#include "config/capability_key.hpp"
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

void Scheme::record_activation(real, bool) {
  throw ConfigError("output.activation",
                    name() + " does not record activation times in its steps (the schemes of sheets "
                                 "and boxes on a fixed grid do)");
}

void Scheme::read_nodes(const std::vector<index_t>& nodes, std::vector<real>& v,
                        std::vector<real>& w) const {
  Snapshot snap;
  snapshot(snap);
  v.resize(nodes.size());
  w.resize(nodes.size());
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    v[k] = snap.v[static_cast<std::size_t>(nodes[k])];
    w[k] = snap.w[static_cast<std::size_t>(nodes[k])];
  }
}

void Scheme::iso_cells(real v_iso, real w_iso, const std::uint8_t* skip,
                       const std::uint8_t* outside, std::vector<IsoCell>& cells,
                       index_t& excited) const {
  Snapshot snap;
  snapshot(snap);
  cells.clear();
  excited = 0;
  if (snap.v.empty()) return;  // a distributed run's other ranks
  straddling_cells(snap.domain, snap.v.data(), snap.w.data(), skip, v_iso, w_iso, cells);
  excited = excited_nodes(snap.v.data(), static_cast<index_t>(snap.v.size()), outside, v_iso);
}

// The factories ask the capability table first (config/capabilities.hpp), so that a refused
// combination says why before any device is touched; below them only constructors are called.
std::unique_ptr<Scheme> make_scheme(const Problem& problem, const SchemeSpec& spec,
                                    NewtonLog* newton_log) {
  capability::require(capability_key(spec, problem.domain.dims, capability::Mode::one_process,
                                     medium_of(problem.fields)));
  if (spec.backend == Backend::cuda) return make_cuda_scheme(problem, spec, newton_log);
  switch (spec.type) {
    case SchemeType::explicit_euler:
      return std::make_unique<ExplicitCpu>(problem);
    case SchemeType::adaptive_explicit:
      return std::make_unique<AdaptiveExplicitCpu>(problem, spec.adaptive);
    case SchemeType::crank_nicolson:
      if (spec.crank_nicolson.formulation == Formulation::adi)
        return std::make_unique<AdiCpu>(problem, spec.crank_nicolson, newton_log);
      return std::make_unique<CrankNicolsonCpu>(problem, spec.crank_nicolson, newton_log);
  }
  return nullptr;
}

std::unique_ptr<Scheme> make_scheme(const Config& config, const Problem& problem,
                                    NewtonLog* newton_log) {
  return make_scheme(problem, config.scheme, newton_log);
}

namespace {

// The CPU scheme of one rank's slab, of a combination the table runs on slabs: the explicit
// scheme and ADI on a sheet (rows) or a box (z planes), Crank-Nicolson/Newton on a cable.
std::unique_ptr<Scheme> make_cpu_slab_scheme(const Problem& problem, const SchemeSpec& spec,
                                             Communicator& comm, NewtonLog* newton_log) {
  if (spec.type == SchemeType::explicit_euler) return std::make_unique<ExplicitCpu>(problem, comm);
  if (spec.crank_nicolson.formulation == Formulation::adi)
    return std::make_unique<AdiCpu>(problem, spec.crank_nicolson, newton_log, comm);
  return std::make_unique<CrankNicolsonCpu>(problem, spec.crank_nicolson, newton_log, comm);
}

}  // namespace

// The slab schemes' refusals (what several ranks cannot run, a grid too small to share) name
// their key; located here, where the Config is.
std::unique_ptr<Scheme> make_slab_scheme(const Config& config, const Problem& problem,
                                         Communicator& comm, NewtonLog* newton_log) {
  try {
    capability::require(
        capability_key(config, capability::Mode::slabs, medium_of(problem.fields)));
    if (config.scheme.backend == Backend::cuda)
      return make_cuda_slab_scheme(problem, config.scheme, comm, newton_log);
    return make_cpu_slab_scheme(problem, config.scheme, comm, newton_log);
  } catch (const ConfigError& e) {
    if (e.key().empty()) throw;
    throw ConfigError(config.where(e.key()) + ": " + e.what());
  }
}

}  // namespace fhn
