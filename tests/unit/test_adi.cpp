// Crank-Nicolson by Strang splitting and ADI (scheme.crank_nicolson.formulation: adi): against
// the cable's run of the same formulation and the coupled Newton scheme, observed orders in dt
// and dx on a sheet, stability far beyond the explicit limit, Dirichlet sides and stimuli
// against the explicit scheme, Newton statistics, config rules and restarts.
#include <doctest/doctest.h>

#include <cmath>

#include "config/loader.hpp"
#include "core/error.hpp"
#include "io/vtk_writers.hpp"
#include "model/problem.hpp"
#include "run/checkpoint.hpp"
#include "run/run.hpp"
#include "schemes/scheme.hpp"
#include "study/convergence.hpp"
#include "study/study.hpp"
#include "support.hpp"

using fhn::test::config_error;
using fhn::test::config_from;
using fhn::test::contains;

namespace fs = std::filesystem;

namespace {

fhn::Snapshot run_steps(const fhn::Config& c, fhn::index_t steps) {
  return fhn::test::run_scheme(c, steps).state;
}

double max_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) d = std::max(d, std::abs(a[i] - b[i]));
  return d;
}

// The stimulus's edges on cells' faces at dx = 0.5: the nodes 30 to 32 take it whole.
const char* kPhysics =
    "initial: {v: {type: tanh_front, position: 10, width: 2, left: 1, right: 0}}\n"
    "stimulus: [{x_min: 29.75, x_max: 32.25, start: 5, duration: 1, amplitude: 0.8}]\n"
    "scheme: {type: crank_nicolson}\n"
    "time: {end: 20, dt: 0.2}\n";

}  // namespace

TEST_CASE("adi: a planar wave on a sheet equals the cable's adi run to round-off") {
  const fhn::Config cable_config =
      config_from(std::string("domain: {length: 40, dx: 0.5}\n") + kPhysics, {"scheme.crank_nicolson.formulation=adi"});
  CHECK(cable_config.scheme.crank_nicolson.formulation == fhn::Formulation::adi);
  const fhn::Snapshot cable = run_steps(cable_config, 100);
  const fhn::Snapshot sheet = run_steps(config_from(std::string("domain: {length: [40, 4], dx: 0.5}\n") + kPhysics), 100);
  const std::size_t nx = cable.v.size();
  REQUIRE(sheet.v.size() == nx * 9);
  CHECK(*std::max_element(cable.v.begin(), cable.v.end()) > 0.9);
  double largest = 0.0;
  for (std::size_t j = 0; j < 9; ++j)
    for (std::size_t i = 0; i < nx; ++i) largest = std::max(largest, std::abs(sheet.v[i + nx * j] - cable.v[i]));
  // The y-lines solve (I - (k/2) D dyy) x = b with b constant along the line: x = b up to the
  // rounding of the Thomas sweeps.
  CHECK(largest < 1e-12);
}

TEST_CASE("adi on a cable agrees with the coupled Newton scheme to the splitting error, O(dt^2)") {
  // Without the stimulus: the splitting's error alone.
  auto difference = [](const char* dt, fhn::index_t steps) {
    const std::string base = std::string("domain: {length: 40, dx: 0.5}\n") + kPhysics;
    const fhn::Snapshot newton = run_steps(config_from(base, {std::string("time.dt=") + dt, "stimulus=[]"}), steps);
    const fhn::Snapshot adi = run_steps(
        config_from(base, {std::string("time.dt=") + dt, "stimulus=[]", "scheme.crank_nicolson.formulation=adi"}), steps);
    return max_difference(newton.v, adi.v);
  };
  const double coarse = difference("0.2", 50), fine = difference("0.1", 100);
  MESSAGE("splitting error at t = 10: dt = 0.2: " << coarse << ", dt = 0.1: " << fine);
  CHECK(coarse < 0.05);
  CHECK(std::log2(coarse / fine) == doctest::Approx(2.0).epsilon(0.15));
}

TEST_CASE("adi on a sheet is second order in dt and in dx") {
  const std::string smooth =
      "domain: {length: [8, 6]}\n"
      "initial: {v: {type: gaussian, center: [4, 2.5], width2: 3, amplitude: 0.8}}\n"
      "scheme: {type: crank_nicolson}\n"
      "time: {end: 2}\n";
  std::vector<fhn::Snapshot> dt_levels;
  for (const char* dt : {"0.2", "0.1", "0.05", "0.025"})
    dt_levels.push_back(fhn::final_state(config_from(smooth, {"domain.dx=0.25", std::string("time.dt=") + dt})));
  for (double p : fhn::successive_orders(dt_levels, fhn::Norm::max)) CHECK(p >= 1.8);
  std::vector<fhn::Snapshot> dx_levels;
  for (const char* dx : {"0.5", "0.25", "0.125", "0.0625"})
    dx_levels.push_back(fhn::final_state(config_from(smooth, {std::string("domain.dx=") + dx, "time.dt=0.01"})));
  for (double p : fhn::successive_orders(dx_levels, fhn::Norm::max)) CHECK(p >= 1.8);
}

TEST_CASE("adi on a sheet stays bounded and smooth at dt/dx^2 = 20, with quadratic Newton") {
  // dx = 0.5, dt = 5: 80 times the explicit limit dx^2/(4 D) (configs/studies/stability_sheet_adi.yaml).
  const fhn::Config c = config_from("domain: {length: [60, 60], dx: 0.5}\n"
                                    "initial: {v: {type: gaussian, center: [30, 30], width2: 20}}\n"
                                    "scheme: {type: crank_nicolson}\n"
                                    "time: {end: 60, dt: 5}\n"
                                    "output: {every: 5}\n");
  const fhn::test::SchemeRun run = fhn::test::run_scheme(c, 12);
  const fhn::Snapshot& s = run.state;
  const fhn::NewtonStats* stats = run.stats;
  double largest = 0.0;
  for (double v : s.v) largest = std::max(largest, std::abs(v));
  const double zigzag = fhn::zigzag_amplitude(s);  // along every row and column
  CHECK(largest < 1.5);
  CHECK(zigzag < 1e-6);
  REQUIRE(stats != nullptr);
  CHECK(stats->steps() == 24);  // two reaction half-steps per step
  CHECK(stats->max_iterations() <= 8);
  if (stats->order_samples() > 0) CHECK(stats->convergence_order() > 1.7);
}

TEST_CASE("adi with Dirichlet sides and a stimulus follows the explicit scheme to first order in dt") {
  const std::string sheet =
      "domain: {length: [20, 14], dx: 0.5}\n"
      "boundary: {left: {type: dirichlet, value: 0.2}, top: {type: dirichlet, value: 0}}\n"
      "initial: {v: {type: rectangle, x_min: 8, x_max: 12, y_min: 5, y_max: 9}}\n"
      "stimulus: [{x_min: 2, x_max: 4, y_min: 2, y_max: 4, start: 1, duration: 1, amplitude: 0.6}]\n"
      "time: {end: 4}\n";
  const fhn::Snapshot adi = run_steps(config_from(sheet, {"scheme.type=crank_nicolson", "time.dt=0.01"}), 400);
  const fhn::Snapshot coarse = run_steps(config_from(sheet, {"time.dt=0.01"}), 400);
  const fhn::Snapshot fine = run_steps(config_from(sheet, {"time.dt=0.005"}), 800);
  // Explicit: error ~ C dt; the two explicit runs bracket the limit, adi (O(dt^2)) sits at it.
  const double explicit_error = max_difference(coarse.v, fine.v);  // about C dt / 2
  CHECK(max_difference(adi.v, fine.v) < 3.0 * explicit_error);
  CHECK(explicit_error < 5e-3);
  CHECK(adi.v[0] == 0.2);            // the left side holds its value
  CHECK(adi.v[41 * 28 + 5] == 0.0);  // the top side too
}

TEST_CASE("adi config: formulation rules are located errors") {
  const std::string sheet = "domain: {length: [20, 10], dx: 0.5}\nscheme: {type: crank_nicolson}\n";
  CHECK(config_from(sheet).scheme.crank_nicolson.formulation == fhn::Formulation::adi);
  CHECK(contains(config_error(sheet, {"scheme.crank_nicolson.formulation=newton"}),
                 "formulation: newton (the coupled system of a step) is for cables"));
  CHECK(contains(config_error(sheet, {"scheme.crank_nicolson.w_update=leapfrog"}),
                 "leapfrog needs the coupled Newton formulation"));
  CHECK(contains(config_error("scheme: {type: crank_nicolson, crank_nicolson: {formulation: adi}}\n"
                              "boundary: {no_flux_order: 1}\n"),
                 "boundary.no_flux_order: 1 needs scheme.crank_nicolson.formulation: newton"));
  CHECK(contains(config_error(sheet + "", {"scheme.backend=cuda", "scheme.crank_nicolson.tridiagonal=cyclic_reduction"}),
                 "'cyclic_reduction' has no batched form"));
  // The resolved copy names the formulation on sheets and re-loads to the same config.
  const fhn::Config c = config_from(sheet);
  CHECK(contains(fhn::to_yaml(c), "formulation: adi"));
  CHECK(fhn::to_yaml(fhn::load_config_text(fhn::to_yaml(c), "config.yaml")) == fhn::to_yaml(c));
  CHECK_FALSE(contains(fhn::to_yaml(config_from("scheme: {type: crank_nicolson}\n")), "formulation"));
}

TEST_CASE("an adi run restarted from a checkpoint writes the same files, newton.csv with stages") {
  const std::string config =
      "name: adi\n"
      "domain: {length: [12, 8], dx: 0.5}\n"
      "initial: {v: {type: rectangle, x_min: 0, x_max: 1.5}}\n"
      "scheme: {type: crank_nicolson}\n"
      "time: {end: 20, dt: 0.25}\n"
      "output: {every: 1, probes: [[3, 3]], checkpoint_every: 5, newton_log: true}\n";
  auto run = [&](const std::vector<std::string>& extra, const fs::path& dir, const fs::path& restart = {}) {
    fhn::RunOptions options;
    options.output_dir = dir;
    options.quiet = true;
    options.restart = restart;
    std::vector<std::string> overrides = extra;
    if (!fhn::vtk_compiled()) overrides.push_back("output.vtk=false");
    fhn::run_simulation(config_from(config, overrides), options);
  };
  fhn::test::TempDir dir;
  run({}, dir / "a");
  run({"time.end=13"}, dir / "b");
  const fs::path checkpoint = fhn::checkpoint_path(dir / "b", "adi", 40);
  REQUIRE(fs::exists(checkpoint));
  run({}, dir / "b", checkpoint);
  for (const char* file : {"probes.csv", "newton.csv"}) {
    CAPTURE(file);
    CHECK(fhn::test::read_text(dir / "a" / file) == fhn::test::read_text(dir / "b" / file));
  }
  const std::string newton = fhn::test::read_text(dir / "a" / "newton.csv");
  CHECK(newton.rfind("step,iteration,du_inf,residual_inf,stage\n0,1,", 0) == 0);
  CHECK(contains(newton, ",1\n"));  // the second reaction half-step
  CHECK(contains(fhn::test::read_text(dir / "a" / "summary.json"), "\"convergence_order\""));
}

TEST_CASE("adi: a reaction Newton iteration that does not converge is a numerical failure with its history") {
  const fhn::Config c = config_from("domain: {length: [10, 6], dx: 0.5}\n"
                                    "initial: {v: {type: gaussian, center: [5, 3], width2: 4}}\n"
                                    "scheme: {type: crank_nicolson, crank_nicolson: {newton: {max_iterations: 1}}}\n"
                                    "time: {end: 2, dt: 0.5}\n");
  const fhn::Problem problem = fhn::make_problem(c);
  auto scheme = fhn::make_scheme(c, problem);
  try {
    scheme->advance(1);
    FAIL("no NumericalError");
  } catch (const fhn::NumericalError& e) {
    CHECK(contains(e.what(), "Newton did not converge in step 0"));
    CHECK(contains(e.what(), "iteration 1: ||du||_inf = "));
  }
}
