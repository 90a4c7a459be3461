#include "study/convergence.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "core/error.hpp"
#include "grid/adaptive_grid.hpp"
#include "model/problem.hpp"
#include "schemes/scheme.hpp"

namespace fhn {

Snapshot final_state(const Config& config) {
  const Problem problem = make_problem(config);
  std::unique_ptr<Scheme> scheme = make_scheme(config, problem);
  scheme->advance(config.time.steps);
  Snapshot out;
  scheme->snapshot(out);
  return out;
}

namespace {

// For each coarse coordinate, the index of the fine coordinate at the same position (both
// sorted; every coarse node must be a fine node).
std::vector<std::size_t> matching_nodes(const std::vector<real>& coarse, const std::vector<real>& fine) {
  FHN_VERIFY(!coarse.empty() && fine.size() >= coarse.size(), InternalError,
             "restrict_to: inconsistent sizes");
  const real spacing = fine.size() > 1 ? fine[1] - fine[0] : 1.0;
  std::vector<std::size_t> match(coarse.size());
  std::size_t j = 0;
  for (std::size_t i = 0; i < coarse.size(); ++i) {
    // Advance in the fine grid to the node nearest coarse[i].
    while (j + 1 < fine.size() && std::abs(fine[j + 1] - coarse[i]) <= std::abs(fine[j] - coarse[i])) ++j;
    FHN_VERIFY(std::abs(fine[j] - coarse[i]) <= 1e-6 * spacing, InternalError,
               "restrict_to: coarse node at " + std::to_string(coarse[i]) + " is not on the fine grid");
    match[i] = j;
  }
  return match;
}

// An adaptive run's v (Snapshot::nodes) on its base grid, linear between its nodes as the scheme
// fills new nodes at a regrid: v(x) = v_i + (v_{i+1} - v_i)(x - x_i)/(x_{i+1} - x_i).
Snapshot on_base_grid(const Snapshot& s) {
  Snapshot out;
  out.domain = s.domain;
  const std::vector<real> x = s.coordinates(0);
  out.v = interpolate_onto(x.data(), s.v.data(), static_cast<index_t>(x.size()),
                           s.domain.coordinates(0));
  return out;
}

}  // namespace

std::vector<real> restrict_to(const Snapshot& coarse, const Snapshot& fine,
                              const std::vector<real>& fine_values) {
  // The fine node at each coarse node, axis by axis (a cable's x may be an adaptive grid's).
  const int dims = coarse.domain.dims;
  std::size_t fine_count = 1;
  std::vector<std::size_t> fine_n(kMaxAxes, 1);
  std::vector<std::vector<std::size_t>> match(kMaxAxes, std::vector<std::size_t>{0});
  for (int a = 0; a < dims; ++a) {
    const std::vector<real> fine_a = fine.coordinates(a);
    fine_n[static_cast<std::size_t>(a)] = fine_a.size();
    fine_count *= fine_a.size();
    match[static_cast<std::size_t>(a)] = matching_nodes(coarse.coordinates(a), fine_a);
  }
  FHN_VERIFY(dims == fine.domain.dims && fine_values.size() == fine_count, InternalError,
             "restrict_to: inconsistent grids");
  std::vector<real> values;
  values.reserve(match[0].size() * match[1].size() * match[2].size());
  for (std::size_t k : match[2])
    for (std::size_t j : match[1])
      for (std::size_t i : match[0]) values.push_back(fine_values[i + fine_n[0] * (j + fine_n[1] * k)]);
  return values;
}

real distance_on_common_nodes(const Snapshot& coarse_run, const Snapshot& fine_run, Norm norm) {
  // An adaptive run is measured on its base grid (its nodes sit where the error is largest).
  std::optional<Snapshot> coarse_base, fine_base;
  const Snapshot& coarse =
      coarse_run.nodes.empty() ? coarse_run : coarse_base.emplace(on_base_grid(coarse_run));
  const Snapshot& fine = fine_run.nodes.empty() ? fine_run : fine_base.emplace(on_base_grid(fine_run));
  const std::vector<real> fine_at_coarse = restrict_to(coarse, fine, fine.v);
  FHN_VERIFY(coarse.v.size() == fine_at_coarse.size(), InternalError,
             "distance_on_common_nodes: inconsistent sizes");
  real sum = 0.0, largest = 0.0;
  for (std::size_t i = 0; i < coarse.v.size(); ++i) {
    const real d = coarse.v[i] - fine_at_coarse[i];
    sum += d * d;
    largest = std::max(largest, std::abs(d));
  }
  return norm == Norm::rmse ? std::sqrt(sum / static_cast<real>(coarse.v.size())) : largest;
}

real observed_order(real error_coarse, real error_fine, real ratio) {
  return std::log(error_coarse / error_fine) / std::log(ratio);
}

std::vector<real> successive_orders(const std::vector<Snapshot>& levels, Norm norm, real ratio) {
  std::vector<real> differences;
  for (std::size_t k = 0; k + 1 < levels.size(); ++k)
    differences.push_back(distance_on_common_nodes(levels[k], levels[k + 1], norm));
  std::vector<real> orders;
  for (std::size_t k = 0; k + 1 < differences.size(); ++k)
    orders.push_back(observed_order(differences[k], differences[k + 1], ratio));
  return orders;
}

}  // namespace fhn
