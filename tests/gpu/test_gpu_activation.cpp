// Activation times recorded at every step on the GPU (the crossing test fused into the explicit
// kernels: the sheet's blocked pass, the masked and heterogeneous sheet kernels, the box's
// blocked pass; a crossing kernel after the generic path's and ADI's steps) against the CPU
// schemes recording the same: the explicit ones bit for bit (the same v at every step and the
// same expression, no FMA contraction), ADI to rounding (other tridiagonal solvers); and across
// a checkpoint.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "model/problem.hpp"
#include "schemes/cuda/cuda_scheme_factories.hpp"
#include "schemes/explicit_cpu.hpp"
#include "sheet_support.hpp"
#include "support.hpp"

namespace {

using fhn::index_t;
using fhn::real;
using fhn::test::bit_differences;

// The recorded times (first and last crossings of v = 0.5) after `steps` steps, advanced in
// `chunks` calls (passes of different lengths).
fhn::Snapshot recorded(fhn::Scheme& scheme, index_t steps, index_t chunks) {
  scheme.record_activation(0.5, true);
  for (index_t c = 0; c < chunks; ++c) scheme.advance(steps / chunks + (c < steps % chunks ? 1 : 0));
  fhn::Snapshot s;
  scheme.snapshot(s);
  return s;
}

index_t activated(const std::vector<real>& first) {
  index_t n = 0;
  for (real t : first) n += std::isnan(t) ? 0 : 1;
  return n;
}

// The CUDA scheme's fast and generic paths against the CPU's fast path, bit for bit.
void check_explicit(const std::string& yaml, index_t steps) {
  const fhn::Problem p = fhn::make_problem(fhn::test::config_from(yaml));
  const auto fast = fhn::cuda::make_explicit_cuda(p, fhn::ExplicitPath::fast);
  const auto generic = fhn::cuda::make_explicit_cuda(p, fhn::ExplicitPath::generic);
  fhn::ExplicitCpu cpu(p);
  const fhn::Snapshot f = recorded(*fast, steps, 7), g = recorded(*generic, steps, 1),
                      c = recorded(cpu, steps, 3);
  const std::size_t n = p.v0.size();
  REQUIRE(f.activation_first.size() == n);
  REQUIRE(f.activation_last.size() == n);
  CHECK(activated(c.activation_first) > 20);
  CHECK(bit_differences(f.v.data(), c.v.data(), n) == 0);
  CHECK(bit_differences(f.activation_first.data(), c.activation_first.data(), n) == 0);
  CHECK(bit_differences(f.activation_last.data(), c.activation_last.data(), n) == 0);
  CHECK(bit_differences(g.activation_first.data(), c.activation_first.data(), n) == 0);
  CHECK(bit_differences(g.activation_last.data(), c.activation_last.data(), n) == 0);
}

const std::string kSheet =
    "domain: {length: [40, 30], dx: 0.5}\ntime: {dt: 0.02}\n"
    "initial: {v: {type: rectangle, x_min: 0, x_max: 3, y_min: 0, y_max: 12, value: 1}}\n"
    "stimulus:\n  - {x_min: 30, x_max: 33, y_min: 0, y_max: 3, start: 1, duration: 1, "
    "amplitude: 0.5}\noutput: {probes: []}\n";

}  // namespace

TEST_CASE("GPU activation: the explicit kernels record every step's crossings as the CPU does") {
  check_explicit(kSheet, 301);
  check_explicit(kSheet + "tissue:\n  - {shape: disc, center: [20, 15], radius: 5, op: remove}\n",
                 301);
  check_explicit(kSheet + "anisotropy: {longitudinal: 1.0, transverse: 0.25, angle: 30}\n", 301);
  check_explicit("domain: {length: [20, 12, 9], dx: 0.5}\ntime: {dt: 0.01}\n"
                 "initial: {v: {type: rectangle, x_min: 0, x_max: 1.5, value: 1}}\n"
                 "output: {probes: []}\n",
                 201);
}

TEST_CASE("GPU activation: ADI records the crossings of the CPU's ADI to rounding, and a "
          "checkpoint continues them exactly") {
  const fhn::Config c = fhn::test::config_from(
      kSheet, {"scheme.type=crank_nicolson", "time.dt=0.1", "scheme.backend=cuda"});
  const fhn::Config cpu_config = fhn::test::config_from(
      kSheet, {"scheme.type=crank_nicolson", "time.dt=0.1"});
  const fhn::Problem p = fhn::make_problem(c);
  auto gpu = fhn::make_scheme(c, p);
  auto cpu = fhn::make_scheme(cpu_config, fhn::make_problem(cpu_config));
  const fhn::Snapshot g = recorded(*gpu, 150, 4), h = recorded(*cpu, 150, 1);
  REQUIRE(g.activation_first.size() == h.activation_first.size());
  CHECK(activated(h.activation_first) > 100);
  real worst = 0.0;
  for (std::size_t i = 0; i < g.activation_first.size(); ++i) {
    REQUIRE(std::isnan(g.activation_first[i]) == std::isnan(h.activation_first[i]));
    if (!std::isnan(h.activation_first[i]))
      worst = std::max({worst, std::abs(g.activation_first[i] - h.activation_first[i]),
                        std::abs(g.activation_last[i] - h.activation_last[i])});
  }
  MESSAGE("largest difference of the ADI activation times, GPU - CPU: ", worst);
  CHECK(worst < 1e-9);

  // Half-way through a checkpoint, into a new scheme: the same times as straight on.
  auto first = fhn::make_scheme(c, p);
  first->record_activation(0.5, true);
  first->advance(60);
  const fhn::SchemeState state = first->save_state();
  auto second = fhn::make_scheme(c, p);
  second->record_activation(0.5, true);
  second->restore_state(state);
  second->advance(90);
  fhn::Snapshot resumed;
  second->snapshot(resumed);
  const std::size_t n = resumed.activation_first.size();
  CHECK(bit_differences(resumed.activation_first.data(), g.activation_first.data(), n) == 0);
  CHECK(bit_differences(resumed.activation_last.data(), g.activation_last.data(), n) == 0);
}
