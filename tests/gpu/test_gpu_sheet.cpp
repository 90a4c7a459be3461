// The explicit scheme on a sheet on the GPU (explicit_sheet_kernels.cu, ExplicitCuda):
// against the CPU oracle (ExplicitCpu on a sheet) after 1000 steps on odd and tile-straddling sizes,
// with no-flux sides, Dirichlet sides meeting at corners and periodic rectangle stimuli; the
// blocked kernel against the one-step kernel bit for bit at every depth; results independent of
// how advance() splits the steps; save/restore continuing bit for bit.
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "config/loader.hpp"
#include "schemes/cuda/device_fields.cuh"
#include "schemes/cuda/explicit_sheet_kernels.cuh"
#include "schemes/scheme.hpp"
#include "sheet_support.hpp"
#include "support.hpp"

namespace {

using fhn::index_t;

fhn::Snapshot run(const fhn::Config& c, const std::vector<index_t>& pieces) {
  const fhn::Problem problem = fhn::make_problem(c);
  auto scheme = fhn::make_scheme(c, problem);
  for (const index_t steps : pieces) scheme->advance(steps);
  fhn::Snapshot s;
  scheme->snapshot(s);
  return s;
}

double max_difference(const std::vector<double>& a, const std::vector<double>& b) {
  REQUIRE(a.size() == b.size());
  double worst = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(a[i] - b[i]));
  return worst;
}

double max_difference(const fhn::Snapshot& a, const fhn::Snapshot& b) {
  return std::max(max_difference(a.v, b.v), max_difference(a.w, b.w));
}

using fhn::test::DeviceState;
using fhn::test::kSheetSides;
using fhn::test::sheet_yaml;

}  // namespace

TEST_CASE("Sheet on the GPU: explicit matches the CPU after 1000 steps") {
  const int sizes[][2] = {{3, 3}, {5, 7}, {33, 17}, {130, 67}, {257, 255}, {1000, 3}, {3, 301}};
  for (const auto& size : sizes)
    for (const char* sides : kSheetSides) {
      CAPTURE(size[0]);
      CAPTURE(size[1]);
      CAPTURE(sides);
      const std::string yaml = sheet_yaml(size[0], size[1], sides);
      const fhn::Config cpu_config = fhn::test::config_from(yaml);
      const fhn::Snapshot start = run(cpu_config, {0});
      const fhn::Snapshot cpu = run(cpu_config, {1000});
      const fhn::Snapshot gpu = run(fhn::test::config_from(yaml, {"scheme.backend=cuda"}), {1000});
      // The run is not trivial: the state moved by more than 0.05 somewhere.
      CHECK(max_difference(start, cpu) > 0.05);
      CHECK(max_difference(cpu, gpu) < 1e-10);
    }
}

TEST_CASE("Sheet on the GPU: the scheme is picked for sheets and names itself") {
  const fhn::Config c = fhn::test::config_from(sheet_yaml(9, 7, "{}"), {"scheme.backend=cuda"});
  const fhn::Problem problem = fhn::make_problem(c);
  const auto scheme = fhn::make_scheme(c, problem);
  CHECK(fhn::test::contains(scheme->name(), "explicit forward Euler on a sheet (cuda, "));
  CHECK(scheme->node_count() == 63);
}

TEST_CASE("Sheet on the GPU: one step = the CPU node update; blocked = one-step at every depth") {
  // Odd sizes, sizes below one region, and sizes with regions away from every side (> 3 regions
  // per axis), so both blocked variants (inner and side) run.
  const int sizes[][2] = {{3, 3}, {5, 7}, {37, 41}, {101, 67}, {203, 197}, {131, 3}};
  for (const auto& size : sizes) {
    CAPTURE(size[0]);
    CAPTURE(size[1]);
    const fhn::Config c = fhn::test::config_from(sheet_yaml(size[0], size[1], kSheetSides[3]));
    const fhn::Problem p = fhn::make_problem(c);
    const fhn::NodeParams q = fhn::node_params(p);
    const fhn::cuda::DeviceStimuli stimuli(p.stimuli);
    const std::size_t n = p.v0.size();
    std::mt19937_64 rng(20261123u + n);
    std::uniform_real_distribution<double> value(-0.2, 1.0);
    std::vector<double> v(n), w(n);
    for (std::size_t i = 0; i < n; ++i) {
      v[i] = value(rng);
      w[i] = 0.2 * value(rng);
    }
    // Steps 100.. (t = 5..): the first stimulus is on for the first 20 of them.
    const index_t first = 100;
    DeviceState a(n), b(n), blocked_in(n), blocked_out(n);

    // One step against the CPU node function (its stimulus current from the schedule).
    std::vector<double> current(n, 0.0);
    p.stimuli.currents(p.time.t(first), 0.0, current.data());
    REQUIRE(*std::max_element(current.begin(), current.end()) > 0.5);
    a.upload(v, w);
    b.poison();
    fhn::cuda::launch_explicit_sheet_step(a.v.data(), a.w.data(), b.v.data(), b.w.data(), q,
                                          p.model.kinetics, stimuli.view(), first);
    std::vector<double> cpu_v(n), cpu_w(n);
    for (index_t j = 0; j < q.n[1]; ++j)
      for (index_t i = 0; i < q.n[0]; ++i) {
        const auto c_ij = static_cast<std::size_t>(i + q.n[0] * j);
        const fhn::ExplicitPointUpdate u =
            fhn::explicit_update(v.data(), w.data(), current[c_ij], i, j, q,
                                 p.model.form<fhn::CubicKinetics>());
        cpu_v[c_ij] = u.v;
        cpu_w[c_ij] = u.w;
      }
    CHECK(max_difference(fhn::cuda::to_host(b.v), cpu_v) < 1e-14);
    CHECK(max_difference(fhn::cuda::to_host(b.w), cpu_w) < 1e-14);

    // depth single steps (a -> b -> a ...) against one blocked pass of depth steps.
    a.upload(v, w);
    for (int depth = 1; depth <= fhn::cuda::kExplicitSheetMaxSteps; ++depth) {
      CAPTURE(depth);
      b.poison();
      fhn::cuda::launch_explicit_sheet_step(a.v.data(), a.w.data(), b.v.data(), b.w.data(), q,
                                            p.model.kinetics, stimuli.view(), first + depth - 1);
      std::swap(a, b);  // a: the state after depth steps
      blocked_in.upload(v, w);
      blocked_out.poison();
      fhn::cuda::launch_explicit_sheet_steps_blocked(blocked_in.v.data(), blocked_in.w.data(),
                                                     blocked_out.v.data(), blocked_out.w.data(),
                                                     q, p.model.kinetics, stimuli.view(), first,
                                                     depth);
      const std::vector<double> one_v = fhn::cuda::to_host(a.v), one_w = fhn::cuda::to_host(a.w);
      CHECK(fhn::cuda::to_host(blocked_out.v) == one_v);
      CHECK(fhn::cuda::to_host(blocked_out.w) == one_w);
      CHECK(std::all_of(one_v.begin(), one_v.end(), [](double x) { return std::isfinite(x); }));
    }
  }
}

TEST_CASE("Sheet on the GPU: the result does not depend on how advance() splits the steps") {
  for (const auto& size : {std::pair<int, int>{71, 45}, {211, 203}}) {
    CAPTURE(size.first);
    const fhn::Config c = fhn::test::config_from(sheet_yaml(size.first, size.second, kSheetSides[1]),
                                                 {"scheme.backend=cuda"});
    const fhn::Snapshot whole = run(c, {1000});
    const fhn::Snapshot start = run(c, {0});
    CHECK(max_difference(start, whole) > 0.05);
    for (const std::vector<index_t>& pieces :
         {std::vector<index_t>(1000, 1), {333, 333, 334}, {1, 7, 333, 9, 650}}) {
      CAPTURE(pieces.size());
      const fhn::Snapshot split = run(c, pieces);
      CHECK(split.v == whole.v);
      CHECK(split.w == whole.w);
    }
  }
}

TEST_CASE("Sheet on the GPU: save_state / restore_state continue bit for bit") {
  const fhn::Config c = fhn::test::config_from(sheet_yaml(77, 53, kSheetSides[2]), {"scheme.backend=cuda"});
  const fhn::Problem problem = fhn::make_problem(c);
  const fhn::Snapshot whole = run(c, {1000});
  auto first = fhn::make_scheme(c, problem);
  first->advance(437);
  const fhn::SchemeState saved = first->save_state();
  first->advance(100);  // moves on; the restored copy must not see it
  auto second = fhn::make_scheme(c, problem);
  second->restore_state(saved);
  CHECK(second->steps_done() == 437);
  second->advance(563);
  fhn::Snapshot s;
  second->snapshot(s);
  CHECK(s.v == whole.v);
  CHECK(s.w == whole.w);
  // Restoring into the scheme that moved on rewinds it too.
  first->restore_state(saved);
  first->advance(563);
  first->snapshot(s);
  CHECK(s.v == whole.v);
}
