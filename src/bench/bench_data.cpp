#include "bench/bench_data.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <utility>
#include <variant>

#include "model/stability.hpp"
#include "schemes/node_updates.hpp"
#include "solvers/cpu/thomas.hpp"

namespace fhn::bench {

HostSystem random_system(index_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<real> unit(-1.0, 1.0), margin(1.0, 2.0);
  HostSystem s;
  const auto size = static_cast<std::size_t>(n);
  s.lower.resize(size);
  s.diag.resize(size);
  s.upper.resize(size);
  s.rhs.resize(size);
  for (std::size_t i = 0; i < size; ++i) {
    s.lower[i] = i == 0 ? 0.0 : unit(rng);
    s.upper[i] = i + 1 == size ? 0.0 : unit(rng);
    const real magnitude = std::abs(s.lower[i]) + std::abs(s.upper[i]) + margin(rng);
    s.diag[i] = unit(rng) < 0.0 ? -magnitude : magnitude;
    s.rhs[i] = unit(rng);
  }
  return s;
}

std::vector<real> thomas_solution(const HostSystem& s) {
  std::vector<real> x = s.rhs;
  solvers::ThomasSolver thomas(s.size());
  thomas.solve({s.size(), s.lower.data(), s.diag.data(), s.upper.data()}, x.data());
  return x;
}

HostBatch random_batch(const solvers::BatchLayout& layout, std::uint64_t seed) {
  HostBatch b{layout, random_system(layout.n, seed + 1), random_system(layout.span(), seed)};
  // Entries between systems (a padded layout) hold zeros, which a solve leaves alone.
  std::vector<char> used(static_cast<std::size_t>(layout.span()), 0);
  for (index_t s = 0; s < layout.count; ++s) {
    for (index_t k = 0; k < layout.n; ++k) used[static_cast<std::size_t>(layout.at(s, k))] = 1;
    b.systems.lower[static_cast<std::size_t>(layout.at(s, 0))] = 0.0;
    b.systems.upper[static_cast<std::size_t>(layout.at(s, layout.n - 1))] = 0.0;
  }
  for (std::size_t i = 0; i < used.size(); ++i)
    if (!used[i]) b.systems.lower[i] = b.systems.diag[i] = b.systems.upper[i] = b.systems.rhs[i] = 0.0;
  return b;
}

std::vector<real> batch_thomas_solution(const HostBatch& b, bool constant) {
  const solvers::BatchLayout& l = b.layout;
  const auto n = static_cast<std::size_t>(l.n);
  std::vector<real> x(b.systems.rhs.size());
  HostSystem one{std::vector<real>(n), std::vector<real>(n), std::vector<real>(n),
                 std::vector<real>(n)};
  for (index_t s = 0; s < l.count; ++s) {
    for (std::size_t k = 0; k < n; ++k) {
      const auto at = static_cast<std::size_t>(l.at(s, static_cast<index_t>(k)));
      const HostSystem& m = constant ? b.matrix : b.systems;
      const std::size_t from = constant ? k : at;
      one.lower[k] = m.lower[from];
      one.diag[k] = m.diag[from];
      one.upper[k] = m.upper[from];
      one.rhs[k] = b.systems.rhs[at];
    }
    const std::vector<real> y = thomas_solution(one);
    for (std::size_t k = 0; k < n; ++k) x[static_cast<std::size_t>(l.at(s, static_cast<index_t>(k)))] = y[k];
  }
  return x;
}

double max_relative_error(const std::vector<real>& x, const std::vector<real>& truth) {
  if (x.size() != truth.size()) return std::numeric_limits<double>::infinity();
  double scale = 0.0, worst = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double error = std::abs(x[i] - truth[i]);
    if (std::isnan(error)) return std::numeric_limits<double>::infinity();
    worst = std::max(worst, error);
    scale = std::max(scale, std::abs(truth[i]));
  }
  return scale > 0.0 ? worst / scale : worst;
}

State pulse_state(index_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<real> noise(-1.0, 1.0);
  State s;
  s.v.resize(static_cast<std::size_t>(n));
  s.w.resize(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < s.v.size(); ++i) {
    s.v[i] = 0.5 + 0.4 * std::sin(static_cast<real>(i) / 40.0) + 0.05 * noise(rng);
    s.w[i] = 0.1 + 0.05 * noise(rng);
  }
  return s;
}

State front_state(const Domain& domain) {
  const auto n = static_cast<std::size_t>(domain.node_count());
  State s{std::vector<real>(n), std::vector<real>(n, 0.0)};
  const real middle = 0.5 * domain.length[0];
  for (std::size_t node = 0; node < n; ++node)
    s.v[node] = 0.5 + 0.5 * std::tanh((middle - domain.position(static_cast<index_t>(node))[0]) / 2.0);
  return s;
}

namespace {

// dt for the form (dx = 0.5, no-flux sides): `cubic_dt` for the cubic form (the figures before
// the forms), else at most 0.8 of the form's explicit limit.
real bench_dt(const ModelParams& model, int dims, real cubic_dt) {
  if (std::holds_alternative<CubicKinetics>(model.kinetics)) return cubic_dt;
  return std::min(cubic_dt, 0.8 * explicit_limit(model, BoundarySpec{}, dims, 0.5).dt);
}

}  // namespace

Problem bench_problem(index_t n, std::uint64_t seed, const Kinetics& kinetics) {
  Problem p;
  p.domain = cable(n, 0.5);
  p.model.kinetics = kinetics;
  p.time.dt = bench_dt(p.model, 1, 0.1);
  State state = pulse_state(n, seed);
  p.v0 = std::move(state.v);
  p.w0 = std::move(state.w);
  return p;
}

index_t sheet_side(index_t n) {
  index_t side = 1;
  while (side * side < n) side *= 2;
  return side * side == n && n >= (index_t{1} << 10) ? side : 0;
}

Problem bench_sheet_problem(index_t side, std::uint64_t seed, const Kinetics& kinetics,
                            const std::vector<Stimulus>& stimuli) {
  Config c;
  c.domain.dims = 2;
  c.domain.nodes = {side, side, 1};
  const real length = 0.5 * static_cast<real>(side - 1);
  c.domain.length = {length, length, 0.0};
  c.domain.dx = 0.5;
  c.model.kinetics = kinetics;
  c.time.dt = bench_dt(c.model, 2, 0.05);
  c.stimulus = stimuli;
  Problem p = make_problem(c);
  State state = pulse_state(side * side, seed);
  p.v0 = std::move(state.v);
  p.w0 = std::move(state.w);
  return p;
}

index_t box_side(index_t n) {
  index_t side = 1;
  while (side * side * side < n) side *= 2;
  return side * side * side == n && n >= (index_t{1} << 12) ? side : 0;
}

Problem bench_box_problem(index_t side, std::uint64_t seed, const Kinetics& kinetics) {
  Config c;
  c.domain.dims = 3;
  c.domain.nodes = {side, side, side};
  const real length = 0.5 * static_cast<real>(side - 1);
  c.domain.length = {length, length, length};
  c.domain.dx = 0.5;
  c.model.kinetics = kinetics;
  c.time.dt = bench_dt(c.model, 3, 0.03);
  Problem p = make_problem(c);
  State state = pulse_state(side * side * side, seed);
  p.v0 = std::move(state.v);
  p.w0 = std::move(state.w);
  return p;
}

State explicit_reference_step(const Problem& problem) {
  const index_t n = problem.domain.node_count();
  const NodeParams q = node_params(problem);
  State next;
  next.v.resize(problem.v0.size());
  next.w.resize(problem.w0.size());
  with_kinetics(problem.model.kinetics, [&](const auto& kin) {
    if (problem.domain.dims == 3) {  // a box: node (i, j, k) at box_index
      for (index_t k = 0; k < q.n[2]; ++k)
        for (index_t j = 0; j < q.n[1]; ++j)
          for (index_t i = 0; i < q.n[0]; ++i) {
            const ExplicitPointUpdate u =
                explicit_update(problem.v0.data(), problem.w0.data(), 0.0, i, j, k, q, kin);
            const auto c = static_cast<std::size_t>(box_index(i, j, k, q));
            next.v[c] = u.v;
            next.w[c] = u.w;
          }
      return;
    }
    for (index_t i = 0; i < n; ++i) {
      const ExplicitPointUpdate u =
          explicit_update(problem.v0.data(), problem.w0.data(), [](index_t) { return 0.0; }, i, q,
                          kin);
      next.v[static_cast<std::size_t>(i)] = u.v;
      next.w[static_cast<std::size_t>(i)] = u.w;
    }
  });
  return next;
}

}  // namespace fhn::bench
