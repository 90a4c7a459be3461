// The forward Euler kernels of src/schemes/cuda/explicit_kernels.cu: the temporally blocked
// kernel against repeated one-step launches (same expressions: equal to rounding), and both
// against the CPU scheme after 1000+ steps, at sizes around the kernel's tile, with every end
// condition and stimuli that switch on and off in the middle of a pass. The state is fresh
// random data; every output is poisoned (NaN) before each launch, so a node a kernel forgets to
// write shows up as non-finite.
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "core/cuda/cuda_check.hpp"
#include "core/cuda/device_buffer.hpp"
#include "core/error.hpp"
#include "model/problem.hpp"
#include "schemes/cuda/explicit_kernels.cuh"
#include "schemes/cuda/device_fields.cuh"
#include "schemes/scheme.hpp"
#include "sheet_support.hpp"
#include "support.hpp"

namespace {

using fhn::index_t;
using fhn::NodeStimulus;
using fhn::real;
using fhn::cuda::DeviceBuffer;
using fhn::cuda::kStepsPerPass;
using fhn::StimulusTable;
using fhn::test::DeviceState;

// The blocked kernel's geometry (explicit_kernels.cu): a block holds kRegion = kBlockedThreads x
// kBlockedNodes nodes and writes the interior left by a halo of `steps` + 1 nodes (rounded up to
// even) on each side: the tile.
constexpr index_t kRegion = 512;
constexpr index_t tile(int steps) { return kRegion - 2 * ((steps + 2) & ~1); }
constexpr index_t kTile = tile(kStepsPerPass);

// Sizes around a full pass's tile and the region, halos crossing both domain ends, n below one
// tile.
const std::vector<index_t> kSizes = {3,           5,           17,          kTile - 1,
                                     kTile,       kTile + 1,   kRegion - 1, kRegion,
                                     kRegion + 1, 3 * kTile + 5, 3 * kRegion + 5,
                                     (index_t{1} << 20) + 3};

// The same around the tile of a pass of `steps`: with n - 1 = a multiple of the tile the right
// end is the first node of a block's interior, whose halo must hold its whole dependence.
std::vector<index_t> sizes_for(int steps) {
  const index_t t = tile(steps);
  return {t - 1, t, t + 1, t + 2, 2 * t + 1, 3 * t + 5};
}

// End conditions and stimuli. dx = 0.5, dt = 0.1 (stable: dt <= dx^2 / 2D = 0.125).
struct Variant {
  const char* name;
  const char* left;
  const char* right;
  int no_flux_order;
  bool stimuli;
};
const Variant kVariants[] = {
    {"no-flux order 1, stimuli", "{type: no_flux}", "{type: no_flux}", 1, true},
    {"no-flux order 2", "{type: no_flux}", "{type: no_flux}", 2, false},
    {"Dirichlet left, no-flux order 1 right, stimuli", "{type: dirichlet, value: 1.0}",
     "{type: no_flux}", 1, true},
    {"no-flux order 2 left, Dirichlet right", "{type: no_flux}", "{type: dirichlet, value: 0.2}",
     2, false},
};

// Stimulus edges (dt = 0.1): the first is on for steps 5..11, 18..24, 31..37 and covers the left
// end; the second, steps 3..6 (0.3 <= t < 0.7), overlaps it (the order of the sum matters) and
// reaches the right end. A pass from step 3 sees both switch on and off.
constexpr index_t kFirstStep = 3;

std::string yaml_for(const Variant& variant, index_t n) {
  const real length = 0.5 * static_cast<real>(n - 1);
  std::string yaml = "domain: {length: " + std::to_string(length) +
                     ", nodes: " + std::to_string(n) + "}\n" +
                     "boundary: {left: " + variant.left + ", right: " + variant.right +
                     ", no_flux_order: " + std::to_string(variant.no_flux_order) + "}\n" +
                     "time: {end: 200, dt: 0.1}\n"
                     "output: {vtk: false, spacetime: false}\n";
  if (variant.stimuli) {
    const real middle = 0.5 * std::floor(0.4 * static_cast<real>(n - 1));
    yaml += "stimulus:\n"
            "  - {x_min: 0, x_max: 3, start: 0.5, duration: 0.7, amplitude: 0.5, period: 1.3, "
            "count: 3}\n"
            "  - {x_min: " + std::to_string(middle) + ", x_max: " + std::to_string(length) +
            ", start: 0.3, duration: 0.4, amplitude: -0.25}\n";
  }
  return yaml;
}

// A problem with fresh random state, its node parameters and its stimulus table on the device.
struct Setup {
  Setup(const Variant& variant, index_t n, std::mt19937_64& rng)
      : config(fhn::test::config_from(yaml_for(variant, n))),
        problem(fhn::make_problem(config)),
        q(fhn::node_params(problem)),
        table(problem.stimuli.stimuli().size(), "test stimulus table") {
    std::uniform_real_distribution<real> v_dist(-0.1, 1.1), w_dist(-0.05, 0.25);
    for (real& x : problem.v0) x = v_dist(rng);
    for (real& x : problem.w0) x = w_dist(rng);
    const auto& stimuli = problem.stimuli.stimuli();
    if (!stimuli.empty()) table.upload(stimuli.data(), stimuli.size());
    view = StimulusTable{table.data(), static_cast<int>(stimuli.size()), problem.stimuli.dt(),
                         problem.stimuli.tolerance()};
  }
  index_t n() const { return problem.domain.node_count(); }
  const fhn::Kinetics& kinetics() const { return problem.model.kinetics; }

  fhn::Config config;
  fhn::Problem problem;
  fhn::NodeParams q;
  DeviceBuffer<NodeStimulus> table;
  StimulusTable view;
};

struct HostState {
  std::vector<real> v, w;
};

HostState download(const DeviceState& s) {
  return {fhn::cuda::to_host(s.v), fhn::cuda::to_host(s.w)};
}

// `steps` steps from `first_step`, one launch per step; the output poisoned before each launch.
HostState one_step_run(const Setup& s, index_t first_step, index_t steps) {
  DeviceState a(s.n()), b(s.n());
  a.upload(s.problem.v0, s.problem.w0);
  for (index_t k = 0; k < steps; ++k) {
    b.poison();
    fhn::cuda::launch_explicit_step(a.v.data(), a.w.data(), b.v.data(), b.w.data(), s.q,
                                    s.kinetics(), s.view, first_step + k);
    std::swap(a, b);
  }
  FHN_CUDA_CHECK(cudaDeviceSynchronize());
  return download(a);
}

// The same with the blocked kernel: full passes of kStepsPerPass, then the rest in one pass.
HostState blocked_run(const Setup& s, index_t first_step, index_t steps) {
  DeviceState a(s.n()), b(s.n());
  a.upload(s.problem.v0, s.problem.w0);
  for (index_t done = 0; done < steps;) {
    const int pass = static_cast<int>(std::min<index_t>(steps - done, kStepsPerPass));
    b.poison();
    fhn::cuda::launch_explicit_steps_blocked(a.v.data(), a.w.data(), b.v.data(), b.w.data(), s.q,
                                             s.kinetics(), s.view, first_step + done, pass);
    std::swap(a, b);
    done += pass;
  }
  FHN_CUDA_CHECK(cudaDeviceSynchronize());
  return download(a);
}

// The CPU scheme (ExplicitCpu) from step 0.
HostState cpu_run(const Setup& s, index_t steps) {
  const auto scheme = fhn::make_scheme(s.config, s.problem);
  scheme->advance(steps);
  fhn::Snapshot snap;
  scheme->snapshot(snap);
  return {snap.v, snap.w};
}

struct Comparison {
  double max_difference = 0.0;
  index_t non_finite = 0;  // nodes of `a` not written (NaN left by the poison) or not finite
};

Comparison compare(const HostState& a, const HostState& b) {
  REQUIRE(a.v.size() == b.v.size());
  Comparison c;
  for (std::size_t i = 0; i < a.v.size(); ++i) {
    if (!std::isfinite(a.v[i]) || !std::isfinite(a.w[i])) {
      ++c.non_finite;
      continue;
    }
    c.max_difference = std::max({c.max_difference, std::abs(a.v[i] - b.v[i]), std::abs(a.w[i] - b.w[i])});
  }
  return c;
}

}  // namespace

TEST_CASE("explicit kernels: blocked pass equals repeated one-step launches, 1..kStepsPerPass steps") {
  std::mt19937_64 rng(20240611);
  double worst = 0.0;
  int cases = 0;
  auto check = [&](const Setup& setup, int steps) {
    const HostState reference = one_step_run(setup, kFirstStep, steps);
    const HostState blocked = blocked_run(setup, kFirstStep, steps);
    const Comparison c = compare(blocked, reference);
    CHECK(c.non_finite == 0);
    CHECK(compare(reference, blocked).non_finite == 0);
    CHECK(c.max_difference <= 1e-13);
    worst = std::max(worst, c.max_difference);
    ++cases;
  };
  for (const Variant& variant : kVariants) {
    const std::string name = variant.name;
    CAPTURE(name);
    for (const index_t n : kSizes) {
      CAPTURE(n);
      const Setup setup(variant, n, rng);
      for (int steps = 1; steps <= kStepsPerPass; ++steps) {
        CAPTURE(steps);
        check(setup, steps);
      }
    }
    for (int steps = 1; steps <= kStepsPerPass; ++steps) {
      CAPTURE(steps);
      for (const index_t n : sizes_for(steps)) {
        CAPTURE(n);
        check(Setup(variant, n, rng), steps);
      }
    }
  }
  MESSAGE("largest |blocked - one-step| over " << cases << " cases: " << worst);
}

TEST_CASE("explicit kernels: one-step and blocked runs match the CPU scheme after 1007 steps") {
  // 1007 = 62 full passes and one of 15 steps; the stimuli switch inside passes.
  constexpr index_t kSteps = 1007;
  std::mt19937_64 rng(7);
  double worst_blocked = 0.0, worst_one_step = 0.0;
  for (const Variant& variant : kVariants) {
    const std::string name = variant.name;
    CAPTURE(name);
    for (const index_t n : kSizes) {
      CAPTURE(n);
      const Setup setup(variant, n, rng);
      const HostState cpu = cpu_run(setup, kSteps);
      const Comparison blocked = compare(blocked_run(setup, 0, kSteps), cpu);
      const Comparison one_step = compare(one_step_run(setup, 0, kSteps), cpu);
      CHECK(blocked.non_finite == 0);
      CHECK(one_step.non_finite == 0);
      CHECK(compare(cpu, cpu).non_finite == 0);  // the CPU run itself stays finite
      CHECK(blocked.max_difference <= 1e-10);
      CHECK(one_step.max_difference <= 1e-10);
      worst_blocked = std::max(worst_blocked, blocked.max_difference);
      worst_one_step = std::max(worst_one_step, one_step.max_difference);
    }
  }
  MESSAGE("largest |GPU - CPU| after " << kSteps << " steps: blocked " << worst_blocked
                                       << ", one-step " << worst_one_step);
}

TEST_CASE("explicit kernels: the CUDA scheme's state does not depend on how steps are split") {
  std::mt19937_64 rng(11);
  for (const Variant& variant : kVariants) {
    const std::string name = variant.name;
    CAPTURE(name);
    const Setup setup(variant, 3 * kRegion + 5, rng);
    fhn::Config gpu_config = setup.config;
    gpu_config.scheme.backend = fhn::Backend::cuda;
    const auto whole = fhn::make_scheme(gpu_config, setup.problem);
    const auto split = fhn::make_scheme(gpu_config, setup.problem);
    whole->advance(400);
    for (index_t part : {1, 5, 16, 17, 100, 261}) split->advance(part);
    fhn::Snapshot a, b;
    whole->snapshot(a);
    split->snapshot(b);
    CHECK(a.step == b.step);
    CHECK(a.v == b.v);
    CHECK(a.w == b.w);
    const HostState cpu = cpu_run(setup, 400);
    CHECK(compare({a.v, a.w}, cpu).max_difference <= 1e-10);
  }
}

TEST_CASE("explicit kernels: bad arguments are refused") {
  std::mt19937_64 rng(3);
  const Setup setup(kVariants[0], 100, rng);
  DeviceState a(100), b(100);
  auto blocked = [&](int steps) {
    fhn::cuda::launch_explicit_steps_blocked(a.v.data(), a.w.data(), b.v.data(), b.w.data(),
                                             setup.q, setup.kinetics(), setup.view, 0, steps);
  };
  CHECK_THROWS_AS(blocked(0), fhn::InternalError);
  CHECK_THROWS_AS(blocked(kStepsPerPass + 1), fhn::InternalError);
  CHECK_THROWS_AS(fhn::cuda::launch_explicit_step(a.v.data(), a.w.data(), a.v.data(), b.w.data(),
                                                  setup.q, setup.kinetics(), setup.view, 0),
                  fhn::InternalError);  // in place
  CHECK_THROWS_AS(fhn::cuda::launch_explicit_step(a.v.data() + 1, a.w.data(), b.v.data(),
                                                  b.w.data(), setup.q, setup.kinetics(),
                                                  setup.view, 0),
                  fhn::InternalError);  // not 16-byte aligned
  FHN_CUDA_CHECK(cudaDeviceSynchronize());
}
