// Stimuli on the GPU as on the CPU (issue 47): regions whose edges fall inside cells, so that the
// nodes there take fractions of the amplitude (coverage: overlap), and pulses that switch inside
// a step, which Crank-Nicolson and ADI take by their exact time average. The kernels evaluate
// stimulus_current (model/stimulus.hpp) where the CPU fills StimulusSchedule::currents.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "sheet_support.hpp"
#include "support.hpp"

namespace {

using fhn::test::max_state_difference;
using fhn::test::run_scheme;
using fhn::test::SchemeRun;

// `yaml` with `scheme` to time.end on the CPU and the GPU; the GPU's state within `tolerance` of
// the CPU's, and a pulse launched (still on the grid at the end, t = 20).
void check_against_cpu(const std::string& yaml, const std::vector<std::string>& scheme,
                       double tolerance) {
  std::vector<std::string> gpu_overrides = scheme;
  gpu_overrides.push_back("scheme.backend=cuda");
  const fhn::Config config = fhn::test::config_from(yaml, scheme);
  const SchemeRun cpu = run_scheme(config, config.time.steps);
  const SchemeRun gpu = run_scheme(fhn::test::config_from(yaml, gpu_overrides), config.time.steps);
  CHECK(gpu.scheme->name().find("cuda") != std::string::npos);
  if (tolerance == 0.0)
    CHECK(max_state_difference(cpu.state, gpu.state) == 0.0);
  else
    CHECK(max_state_difference(cpu.state, gpu.state) < tolerance);
  CHECK(*std::max_element(gpu.state.v.begin(), gpu.state.v.end()) > 0.5);
}

// Edges inside cells at dx = 0.5 (x 2.3 and 4.1 or 8.1, y 3.2 and 6.9 or 12.9), two stimuli
// overlapping on the cable, pulses on from 1.037 (inside a step at dt = 0.02 and 0.1); on the
// sheet and in the box regions large enough to launch a wave (a smaller one decays).
const std::string kCable =
    "domain: {length: 60, dx: 0.5}\n"
    "initial: {v: {type: constant, value: 0}}\n"
    "stimulus:\n"
    "  - {x_min: 2.3, x_max: 4.1, start: 1.037, duration: 1.5, amplitude: 0.5, period: 7.013, count: 2}\n"
    "  - {x_min: 3.9, x_max: 9.7, start: 0.011, duration: 0.73, amplitude: 0.25}\n"
    "output: {vtk: false, spacetime: false}\n";
const std::string kSheet =
    "domain: {length: [30, 20], dx: 0.5}\n"
    "initial: {v: {type: constant, value: 0}}\n"
    "stimulus:\n"
    "  - {x_min: 2.3, x_max: 8.1, y_min: 3.2, y_max: 12.9, start: 1.037, duration: 1.5, amplitude: 1}\n"
    "  - {x_min: 20.1, x_max: 29.9, y_min: 0, y_max: 0.3, start: 0.011, duration: 3, amplitude: 0.4}\n"
    "output: {vtk: false, spacetime: false}\n";

}  // namespace

TEST_CASE("partly covered nodes and a switch inside a step: GPU explicit matches the CPU") {
  check_against_cpu(kCable, {"time.dt=0.02", "time.end=20"}, 1e-10);
  check_against_cpu(kSheet, {"time.dt=0.02", "time.end=20"}, 1e-10);
  // A box: the box kernels evaluate the CPU's expressions without FMA contraction, so to the bit
  // (the fractions' product along x, y and z included).
  check_against_cpu("domain: {length: [12, 8, 6], dx: 0.5}\n"
                    "initial: {v: {type: constant, value: 0}}\n"
                    "stimulus: [{x_min: 2.3, x_max: 6.1, y_min: 1.2, y_max: 6.9, z_min: 0.1, "
                    "z_max: 4.6, start: 1.037, duration: 1.5, amplitude: 1}]\n"
                    "output: {vtk: false, spacetime: false}\n",
                    {"time.dt=0.02", "time.end=20"}, 0.0);
}

TEST_CASE("partly covered nodes and a switch inside a step: GPU Crank-Nicolson and ADI match the CPU") {
  check_against_cpu(kCable, {"scheme.type=crank_nicolson", "time.dt=0.1", "time.end=20"}, 1e-10);
  check_against_cpu(kCable, {"scheme.type=crank_nicolson", "scheme.crank_nicolson.formulation=adi",
                             "time.dt=0.1", "time.end=20"},
                    1e-10);
  check_against_cpu(kSheet, {"scheme.type=crank_nicolson", "time.dt=0.1", "time.end=20"}, 1e-10);
}
