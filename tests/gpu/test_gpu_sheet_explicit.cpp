// The explicit scheme on a sheet on the GPU: against the CPU oracle (ExplicitSheetCpu) after
// 1000 steps on odd and tile-straddling sizes with no-flux and Dirichlet sides and stimuli; the
// blocked kernel against the one-step kernel bit for bit at every depth; results independent of
// how the steps are split, and restarts exact.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "config/loader.hpp"
#include "core/cuda/device_buffer.hpp"
#include "schemes/cuda/device_fields.cuh"
#include "schemes/cuda/sheet_kernels.cuh"
#include "schemes/scheme.hpp"
#include "support.hpp"

namespace {

fhn::Snapshot run(const fhn::Config& c, const std::vector<fhn::index_t>& pieces) {
  const fhn::Problem problem = fhn::make_problem(c);
  auto scheme = fhn::make_scheme(c, problem);
  for (fhn::index_t steps : pieces) scheme->advance(steps);
  fhn::Snapshot s;
  scheme->snapshot(s);
  return s;
}

double max_difference(const fhn::Snapshot& a, const fhn::Snapshot& b) {
  REQUIRE(a.v.size() == b.v.size());
  double worst = 0.0;
  for (std::size_t i = 0; i < a.v.size(); ++i)
    worst = std::max({worst, std::abs(a.v[i] - b.v[i]), std::abs(a.w[i] - b.w[i])});
  return worst;
}

// A sheet of (nx - 1) x (ny - 1) half units: a target wave, a stimulus that fires three times,
// and the given sides.
std::string sheet(int nx, int ny, const std::string& boundary) {
  const double lx = 0.5 * (nx - 1), ly = 0.5 * (ny - 1);
  return "domain: {length: [" + std::to_string(lx) + ", " + std::to_string(ly) + "], dx: 0.5}\n"
         "boundary: " + boundary + "\n"
         "initial: {v: {type: gaussian, center: [" + std::to_string(0.4 * lx) + ", " + std::to_string(0.6 * ly) +
         "], width2: 6}, w: {type: step, axis: y, position: " + std::to_string(0.5 * ly) + ", left: 0, right: 0.02}}\n"
         "stimulus: [{x_min: " + std::to_string(0.7 * lx) + ", x_max: " + std::to_string(lx) +
         ", y_min: 0, y_max: " + std::to_string(0.3 * ly) + ", start: 5, duration: 1, amplitude: 0.7, period: 15, count: 3}]\n"
         "time: {end: 50, dt: 0.05}\n"
         "output: {vtk: false, probes: []}\n";
}

}  // namespace

TEST_CASE("GPU sheet explicit matches the CPU after 1000 steps") {
  const char* sides[] = {"{}", "{left: {type: dirichlet, value: 0.3}, bottom: {type: dirichlet, value: 0.8}}",
                         "{right: {type: dirichlet, value: 1}, top: {type: dirichlet, value: 0}}"};
  const int sizes[][2] = {{3, 3}, {5, 7}, {33, 17}, {130, 67}, {257, 255}, {1000, 3}};
  for (const auto& size : sizes)
    for (const char* side : sides) {
      CAPTURE(size[0]);
      CAPTURE(size[1]);
      CAPTURE(side);
      const std::string yaml = sheet(size[0], size[1], side);
      const fhn::Snapshot cpu = run(fhn::test::config_from(yaml), {1000});
      const fhn::Snapshot gpu = run(fhn::test::config_from(yaml, {"scheme.backend=cuda"}), {1000});
      CHECK(max_difference(cpu, gpu) < 1e-10);
    }
}

TEST_CASE("GPU sheet: the blocked kernel gives the one-step kernel's numbers at every depth") {
  for (const auto& size : {std::pair<int, int>{3, 5}, {37, 41}, {100, 33}, {65, 129}}) {
    const fhn::Config c = fhn::test::config_from(
        sheet(size.first, size.second, "{left: {type: dirichlet, value: 0.3}, top: {type: dirichlet, value: 0.1}}"));
    const fhn::Problem p = fhn::make_problem(c);
    const fhn::SheetParams q = fhn::sheet_params(p.model, p.boundary, p.domain, p.dt);
    fhn::cuda::DeviceStimuli stimuli(p.stimuli);
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> value(-0.2, 1.0);
    std::vector<double> v(p.v0.size()), w(p.v0.size());
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = value(rng), w[i] = 0.2 * value(rng);
    for (int depth = 1; depth <= fhn::cuda::kSheetStepsPerPass; ++depth) {
      CAPTURE(depth);
      const fhn::index_t first = 99;  // the stimulus is on for some of these steps
      fhn::cuda::DeviceBuffer<double> a_v(v.size(), "v"), a_w(v.size(), "w"), b_v(v.size(), "v"), b_w(v.size(), "w");
      a_v.upload(v.data(), v.size());
      a_w.upload(w.data(), w.size());
      for (int s = 0; s < depth; ++s) {
        fhn::cuda::launch_sheet_step(a_v.data(), a_w.data(), b_v.data(), b_w.data(), q, stimuli.view(), first + s);
        std::swap(a_v, b_v);
        std::swap(a_w, b_w);
      }
      fhn::cuda::DeviceBuffer<double> c_v(v.size(), "v"), c_w(v.size(), "w"), d_v(v.size(), "v"), d_w(v.size(), "w");
      c_v.upload(v.data(), v.size());
      c_w.upload(w.data(), w.size());
      fhn::cuda::launch_sheet_steps_blocked(c_v.data(), c_w.data(), d_v.data(), d_w.data(), q, stimuli.view(), first, depth);
      CHECK(fhn::cuda::to_host(a_v) == fhn::cuda::to_host(d_v));
      CHECK(fhn::cuda::to_host(a_w) == fhn::cuda::to_host(d_w));
    }
  }
}

TEST_CASE("GPU sheet: the result does not depend on how the steps are split, restarts are exact") {
  const fhn::Config c = fhn::test::config_from(sheet(71, 45, "{bottom: {type: dirichlet, value: 0.5}}"),
                                               {"scheme.backend=cuda"});
  const fhn::Snapshot whole = run(c, {1000});
  const fhn::Snapshot pieces = run(c, {1, 7, 333, 9, 650});
  CHECK(whole.v == pieces.v);
  CHECK(whole.w == pieces.w);
  const fhn::Problem problem = fhn::make_problem(c);
  auto first = fhn::make_scheme(c, problem);
  first->advance(437);
  auto second = fhn::make_scheme(c, problem);
  second->restore_state(first->save_state());
  second->advance(563);
  fhn::Snapshot s;
  second->snapshot(s);
  CHECK(s.v == whole.v);
}
