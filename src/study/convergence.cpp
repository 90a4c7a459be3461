#include "study/convergence.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "model/problem.hpp"

namespace fhn {

Snapshot final_state(const Config& config) {
  const Problem problem = make_problem(config);
  std::unique_ptr<Scheme> scheme = make_scheme(config, problem);
  scheme->advance(config.time.steps);
  Snapshot out;
  scheme->snapshot(out);
  return out;
}

std::vector<real> restrict_to(const std::vector<real>& coarse_x, const std::vector<real>& fine_x,
                              const std::vector<real>& fine_values) {
  FHN_VERIFY(!coarse_x.empty() && fine_x.size() == fine_values.size() &&
                 fine_x.size() >= coarse_x.size(),
             InternalError, "restrict_to: inconsistent sizes");
  const real spacing = fine_x.size() > 1 ? fine_x[1] - fine_x[0] : 1.0;
  std::vector<real> values(coarse_x.size());
  std::size_t j = 0;
  for (std::size_t i = 0; i < coarse_x.size(); ++i) {
    // Advance in the fine grid to the node nearest coarse_x[i] (both sorted).
    while (j + 1 < fine_x.size() &&
           std::abs(fine_x[j + 1] - coarse_x[i]) <= std::abs(fine_x[j] - coarse_x[i]))
      ++j;
    FHN_VERIFY(std::abs(fine_x[j] - coarse_x[i]) <= 1e-6 * spacing, InternalError,
               "restrict_to: coarse node x = " + std::to_string(coarse_x[i]) +
                   " is not on the fine grid");
    values[i] = fine_values[j];
  }
  return values;
}

real distance_on_common_nodes(const std::vector<real>& coarse_x, const std::vector<real>& coarse_v,
                              const std::vector<real>& fine_x, const std::vector<real>& fine_v,
                              Norm norm) {
  FHN_VERIFY(coarse_x.size() == coarse_v.size(), InternalError,
             "distance_on_common_nodes: inconsistent sizes");
  const std::vector<real> fine_at_coarse = restrict_to(coarse_x, fine_x, fine_v);
  real sum = 0.0, largest = 0.0;
  for (std::size_t i = 0; i < coarse_x.size(); ++i) {
    const real d = coarse_v[i] - fine_at_coarse[i];
    sum += d * d;
    largest = std::max(largest, std::abs(d));
  }
  return norm == Norm::rmse ? std::sqrt(sum / static_cast<real>(coarse_x.size())) : largest;
}

real observed_order(real error_coarse, real error_fine, real ratio) {
  return std::log(error_coarse / error_fine) / std::log(ratio);
}

std::vector<real> successive_orders(const std::vector<Snapshot>& levels, Norm norm, real ratio) {
  std::vector<real> differences;
  for (std::size_t k = 0; k + 1 < levels.size(); ++k)
    differences.push_back(distance_on_common_nodes(levels[k].x, levels[k].v, levels[k + 1].x,
                                                   levels[k + 1].v, norm));
  std::vector<real> orders;
  for (std::size_t k = 0; k + 1 < differences.size(); ++k)
    orders.push_back(observed_order(differences[k], differences[k + 1], ratio));
  return orders;
}

}  // namespace fhn
