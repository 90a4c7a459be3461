// The CUDA explicit scheme's fast paths (the hand-tuned kernels registered per dimension and
// medium: the blocked cable, sheet and box passes, the masked and heterogeneous sheet kernels)
// against its generic path (for_each_node over the point layer's update, one step per launch),
// and the generic path against the CPU's generic path: bit for bit, but the cable's blocked kernel
// to rounding (its translation unit contracts FMAs, explicit_kernels.cu).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "model/problem.hpp"
#include "schemes/cuda/cuda_scheme_factories.hpp"
#include "schemes/explicit_cpu.hpp"
#include "sheet_support.hpp"
#include "support.hpp"

namespace {

using fhn::index_t;
using fhn::test::bit_differences;
using fhn::test::state_after;

// `steps` steps (not a multiple of any pass: a shorter pass ends the run) of the CUDA scheme's
// fast path, its generic path and the CPU's generic path for `yaml`. `fast_exact`: the fast path
// equals the generic one bit for bit (else to 1e-12).
void check_paths(const std::string& yaml, index_t steps, bool fast_exact = true) {
  const fhn::Problem p = fhn::make_problem(fhn::test::config_from(yaml));
  const auto fast = fhn::cuda::make_explicit_cuda(p, fhn::ExplicitPath::fast);
  const auto generic = fhn::cuda::make_explicit_cuda(p, fhn::ExplicitPath::generic);
  CHECK(fast->steps_per_pass() >= 1);
  CHECK(generic->steps_per_pass() == 1);
  fhn::ExplicitCpu cpu(p, fhn::ExplicitPath::generic);
  const fhn::Snapshot f = state_after(*fast, steps), g = state_after(*generic, steps),
                      c = state_after(cpu, steps);
  REQUIRE(f.v.size() == p.v0.size());
  CHECK(f.v != p.v0);
  const std::size_t n = p.v0.size();
  CHECK(bit_differences(g.v.data(), c.v.data(), n) == 0);
  CHECK(bit_differences(g.w.data(), c.w.data(), n) == 0);
  if (fast_exact) {
    CHECK(bit_differences(f.v.data(), g.v.data(), n) == 0);
    CHECK(bit_differences(f.w.data(), g.w.data(), n) == 0);
  } else {
    CHECK(fhn::test::max_state_difference(f, g) < 1e-12);
  }
}

// A stimulus at the low x end (and low y end: `kSheetStimulus`), on for the first time unit.
const std::string kStimulus =
    "stimulus:\n  - {x_min: 0, x_max: 2, start: 0, duration: 1, amplitude: 0.5}\n";
const std::string kSheetStimulus =
    "stimulus:\n  - {x_min: 0, x_max: 2, y_min: 0, y_max: 3, start: 0, duration: 1, "
    "amplitude: 0.5}\noutput: {probes: []}\n";

const std::string kSheet =
    "domain: {length: [40, 30], dx: 0.5}\ntime: {dt: 0.02}\n"
    "initial: {v: {type: rectangle, x_min: 0, x_max: 3, y_min: 0, y_max: 12, value: 1}}\n"
    "boundary: {left: {type: dirichlet, value: 0.2}, top: {type: dirichlet, value: 0.5}}\n" +
    kSheetStimulus;

}  // namespace

TEST_CASE("GPU explicit: the cable's blocked kernel against the generic path") {
  const std::string cable = "domain: {length: 200, dx: 0.25}\ntime: {dt: 0.02}\n"
                            "initial: {v: {type: rectangle, x_min: 0, x_max: 3, value: 1}}\n" +
                            kStimulus;
  check_paths(cable, 77, false);
  check_paths(cable + "boundary: {no_flux_order: 1, right: {type: dirichlet, value: 0.3}}\n", 77,
              false);
}

TEST_CASE("GPU explicit: the sheet's blocked, masked and heterogeneous kernels against the "
          "generic path") {
  check_paths(kSheet, 41);
  check_paths(kSheet + "tissue:\n  - {shape: disc, center: [20, 15], radius: 5, op: remove}\n", 41);
  check_paths(
      kSheet + "fields: [{parameter: diffusion, shape: rectangle, x_min: 25, value: 2.5}]\n", 41);
  check_paths(kSheet + "anisotropy: {longitudinal: 1.0, transverse: 0.25, angle: 30}\n", 41);
}

TEST_CASE("GPU explicit: the box's blocked kernel against the generic path") {
  check_paths("domain: {length: [20, 12, 9], dx: 0.5}\ntime: {dt: 0.01}\n"
              "initial: {v: {type: rectangle, x_min: 0, x_max: 1.5, value: 1}}\n"
              "boundary: {front: {type: dirichlet, value: 0.1}}\n" +
                  kSheetStimulus,
              23);
}
