#include "schemes/scheme.hpp"

#include <cmath>

#include "schemes/adaptive_explicit_cpu.hpp"
#include "schemes/crank_nicolson_cpu.hpp"
#include "schemes/cuda_schemes.hpp"
#include "schemes/explicit_cpu.hpp"

namespace fhn {

index_t first_non_finite(const std::vector<real>& v, const std::vector<real>& w) {
  const auto n = static_cast<index_t>(v.size());
  for (index_t i = 0; i < n; ++i)
    if (!std::isfinite(v[i]) || !std::isfinite(w[i])) return i;
  return -1;
}

std::unique_ptr<Scheme> make_scheme(const Config& config, const Problem& problem,
                                    NewtonLog* newton_log) {
  if (config.scheme.backend == Backend::cuda) return make_cuda_scheme(config, problem, newton_log);
  switch (config.scheme.type) {
    case SchemeType::explicit_euler:
      return std::make_unique<ExplicitCpu>(problem);
    case SchemeType::adaptive_explicit:
      return std::make_unique<AdaptiveExplicitCpu>(problem, config.scheme.adaptive);
    case SchemeType::crank_nicolson:
      return std::make_unique<CrankNicolsonCpu>(problem, config.scheme.crank_nicolson, newton_log);
  }
  return nullptr;
}

}  // namespace fhn
