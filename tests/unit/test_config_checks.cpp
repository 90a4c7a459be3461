// The checks of fhn validate and fhn run that name the key a problem lies at: a scroll ring's
// centre is checked against the box on every axis, before its radius; what fhn run refused only
// after it had created its output folder (a spiral start in an oscillatory medium, a diffusion
// tensor lost to round-off, anisotropy with ADI) fhn validate refuses too, at the key's
// file:line:column, and fhn run before it writes anything; a value that overflows the rates is
// named at its key rather than as an explicit limit of dt = 0. And an ADI line solve that breaks
// down names its step, its node and why.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "config/loader.hpp"
#include "model/problem.hpp"
#include "schemes/scheme.hpp"
#include "support.hpp"

using fhn::test::config_error;
using fhn::test::contains;
using fhn::test::run_cli;
using fhn::test::TempDir;
using fhn::test::write_text;

namespace {

// A box with a scroll ring centred at `centre`.
std::string ring(const std::string& centre) {
  return "domain: {length: [20, 20, 20], dx: 1}\n"
         "time: {end: 1, dt: 0.05}\n"
         "output: {every: 0.5}\n"
         "initial:\n"
         "  v: {type: scroll_ring, center: " + centre + ", radius: 4}\n"
         "  w: {type: scroll_ring, center: " + centre + ", radius: 4}\n";
}

// The small sheet, with `rest` appended (its model: replaced where `rest` gives one);
// no frames, so that a build without VTK loads it too (the problem's checks follow the others').
std::string sheet(const std::string& rest, const std::string& model =
                                               "model: {a: 0.01, epsilon: 0.01, gamma: 2.0}\n") {
  return model +
         "domain: {length: [20, 20], dx: 0.5}\n"
         "time: {end: 1, dt: 0.05}\n"
         "output: {every: 0.5, vtk: false}\n" +
         rest;
}

// A spiral start in FitzHugh's oscillatory medium (a = 0.3, b = 0.8: no excursion to lay out).
const std::string kOscillatorySpiral =
    sheet("initial: {v: {type: spiral}, w: {type: spiral}}\n",
          "model: {form: fitzhugh, a: 0.3, b: 0.8}\n");

}  // namespace

TEST_CASE("a scroll ring's centre is checked against the box on every axis, before its radius") {
  // Outside in z only: accepted before.
  CHECK(contains(config_error(ring("[10, 10, 30]")),
                 "test.yaml:5:43: initial.v.center[2]: z = 30 lies outside the box (0 <= z <= 20)"));
  // Outside in x: the centre is named, not "a radius below -88".
  const std::string x = config_error(ring("[-88, 10, 10]"));
  CHECK(contains(x, "initial.v.center[0]: x = -88 lies outside the box (0 < x < 20)"));
  CHECK_FALSE(contains(x, "radius below"));
  // Inside, the radius is checked as before; on a face in z the ring lies in the box's plane.
  CHECK(contains(config_error(ring("[10, 3, 10]")),
                 "initial.v.radius: a ring of radius 4 about y = 3 leaves the box"));
  CHECK(config_error(ring("[10, 10, 20]")).empty());
}

TEST_CASE("validate refuses a spiral start in an oscillatory medium at initial.v, and run writes nothing") {
  // Line 5 holds initial: (the model, domain, time and output lines first).
  const std::string loaded = config_error(kOscillatorySpiral);
  CHECK(contains(loaded, "test.yaml:5:"));
  CHECK(contains(loaded, ": initial.v: a spiral or scroll-ring start"));
  CHECK(contains(loaded, "does not return to rest"));

  TempDir dir;
  const std::string path = write_text(dir / "spiral.yaml", kOscillatorySpiral);
  const fhn::test::CliResult validate = run_cli({"validate", path});
  CHECK(validate.code == 2);
  CHECK(contains(validate.err, path + ":5:"));
  CHECK(contains(validate.err, "does not return to rest"));
  // fhn run refuses it the same way, before it creates the output folder (exit 2 writes nothing).
  const fhn::test::CliResult run =
      run_cli({"run", path, "--quiet", "--output", (dir / "out").string()});
  CHECK(run.code == 2);
  CHECK(contains(run.err, path + ":5:"));
  CHECK_FALSE(std::filesystem::exists(dir / "out"));
}

TEST_CASE("a sweep still runs the members that can be built when one cannot") {
  // The loader leaves make_problem's refusals to a sweep's members (test_sweep_sheets.cpp: the
  // member's row says "does not return to rest"): its configs load.
  const fhn::ConfigText text(kOscillatorySpiral, "member.yaml");
  const fhn::Config member = text.load({});
  CHECK(member.initial.v.type == fhn::ProfileType::spiral);
  CHECK(contains(fhn::test::thrown_message<fhn::ConfigError>([&] { fhn::make_problem(member); }),
                 "does not return to rest"));
}

TEST_CASE("a transverse diffusion lost to round-off in the tensor is refused at anisotropy.transverse") {
  // D_xx D_yy - D_xy^2 = D_l D_t = 1e-300 cancels at 30 degrees: the tensor computed is not
  // positive definite. Validate says so at the key (line 5), not run at "node 0" with no place.
  const std::string e = config_error(sheet(
      "anisotropy:\n  longitudinal: 1\n  transverse: 1e-300\n  angle: 30\n"));
  CHECK(contains(e, "test.yaml:7:15: anisotropy.transverse: 1e-300 beside anisotropy.longitudinal "
                    "= 1 leaves the diffusion tensor"));
  CHECK(contains(e, "at the fibre angle 30 degrees not positive definite"));
  // ADI does not take anisotropy, but the tensor is refused first, at its key, as for explicit.
  CHECK(contains(config_error(sheet("anisotropy: {longitudinal: 1, transverse: 1e-300, angle: 30}\n"
                                    "scheme: {type: crank_nicolson}\n")),
                 "test.yaml:5:43: anisotropy.transverse: 1e-300"));
  // A valid tensor with ADI, which does not read it: refused at load too, not after the run
  // has made its output folder (test_adi_medium.cpp: the factory's refusal).
  CHECK(contains(config_error(sheet("anisotropy: {longitudinal: 1, transverse: 0.25, angle: 30}\n"
                                    "scheme: {type: crank_nicolson}\n")),
                 "test.yaml:5:13: anisotropy: anisotropic diffusion is not supported by "
                 "crank_nicolson (formulation adi) on the cpu backend"));
  // A per-node angle names the node; a longitudinal far below the transverse is its key.
  CHECK(contains(config_error(sheet("anisotropy: {longitudinal: 1e-300, transverse: 1}\n"
                                    "fields:\n"
                                    "  - {parameter: fibre_angle, type: gradient, from: 10, to: 80}\n")),
                 "anisotropy.longitudinal: 1e-300 beside anisotropy.transverse = 1"));
  // Along an axis the tensor is exact (D_xy = 0): the same D_t is a valid, if extreme, medium.
  CHECK(config_error(sheet("anisotropy: {longitudinal: 1, transverse: 1e-300}\n")).empty());
}

TEST_CASE("a value that overflows the rates is named at its key, not as a limit on time.dt") {
  // D from 1 to 1e308 along x: 4 d D/dx^2 overflows (explicit and ADI alike).
  const std::string gradient =
      "fields:\n  - {parameter: diffusion, type: gradient, from: 1, to: 1e308}\n";
  for (const std::string scheme : {"explicit", "crank_nicolson"}) {
    CAPTURE(scheme);
    const std::string e = config_error(sheet(gradient + "scheme: {type: " + scheme + "}\n"));
    CHECK(contains(e, "test.yaml:6:57: fields[0].to: D = 1e+308 overflows a double in the "
                      "odd-even rate 4 d D/dx^2 = inf"));
    CHECK_FALSE(contains(e, "exceeds the explicit stability limit"));
  }
  // A D field below that, whose face coefficient 2 D_a D_b/(D_a + D_b) still overflows (ADI's
  // rows; the explicit scheme's dt limit would refuse it as too large a dt).
  CHECK(contains(config_error(sheet(
                     "fields:\n  - {parameter: diffusion, type: gradient, from: 1, to: 1e200}\n"
                     "scheme: {type: crank_nicolson}\n")),
                 "fields[0].to: D = 1e+200 overflows a double in the coefficient 2 D_a D_b/(D_a "
                 "+ D_b) of a face"));
  // Barkley's threshold (w + b)/a with a = 1e-300, FitzHugh's recovery rate b/tau_w with b =
  // 1e300: the stiffest eigenvalue's discriminant overflows.
  const std::string barkley = config_error(sheet("", "model: {form: barkley, a: 1e-300}\n"));
  CHECK(contains(barkley, "test.yaml:1:27: model.a: 1e-300 overflows a double in the rates of "
                          "the 'barkley' kinetics"));
  CHECK_FALSE(contains(barkley, "exceeds the explicit stability limit"));
  const std::string fitzhugh = config_error(sheet("", "model: {form: fitzhugh, b: 1e300}\n"));
  CHECK(contains(fitzhugh, "model.b: 1e+300 overflows a double in the rates of the 'fitzhugh'"));
  CHECK_FALSE(contains(fitzhugh, "exceeds the explicit stability limit"));
  // ... also where a fields: entry gives the value.
  CHECK(contains(config_error(sheet("fields:\n  - {parameter: a, shape: disc, center: [5, 5], "
                                    "radius: 2, value: 1e-300}\nscheme: {type: crank_nicolson}\n",
                                    "model: {form: barkley}\n")),
                 "fields[0].value: 1e-300 overflows a double in the rates of the 'barkley'"));
  // A Dirichlet value widens the range of v the bound covers: its cube overflows the slope.
  CHECK(contains(config_error(sheet("boundary: {left: {type: dirichlet, value: 1e200}}\n")),
                 "boundary.left.value: 1e+200 overflows a double in the rates of the 'cubic'"));
  // A grid so fine that 1/dx^2 overflows.
  CHECK(contains(config_error("domain: {length: 1e-155, nodes: 101}\ntime: {end: 1, dt: 0.05}\n"
                              "scheme: {type: crank_nicolson}\n"),
                 "domain.dx: 1e-157: 1/dx^2 = inf overflows a double"));
  // The shipped values stay accepted.
  CHECK(config_error(sheet("fields:\n  - {parameter: diffusion, type: gradient, from: 0.5, to: 2}\n"
                           "scheme: {type: crank_nicolson}\n"))
            .empty());
}

TEST_CASE("an ADI line solve that breaks down names its step, its node and why") {
  // A D field that the config check would refuse, put in by hand: the face between two nodes
  // of D = 1e300 overflows, and Thomas refuses the row. The message says where and when.
  const fhn::Config c = fhn::test::config_from(
      sheet("fields:\n  - {parameter: diffusion, type: gradient, from: 1, to: 2}\n"
            "scheme: {type: crank_nicolson}\n"));
  fhn::Problem p = fhn::make_problem(c);
  REQUIRE_FALSE(p.fields.diffusion.uniform());
  p.fields.diffusion.values[1] = 1e300;
  p.fields.diffusion.values[2] = 1e300;
  const std::unique_ptr<fhn::Scheme> scheme = fhn::make_scheme(c, p, nullptr);
  const std::string e =
      fhn::test::thrown_message<fhn::NumericalError>([&] { scheme->advance(1); });
  INFO(e);
  CHECK(contains(e, "the diffusion solve along x of step 0 (t = 0 -> 0.05) failed on the line "
                    "through x = 0.5, y = 0 (node i = 1, j = 0): thomas: "));
  CHECK(contains(e, "Hint: the line matrices"));
}
