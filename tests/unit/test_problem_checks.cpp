// The loader's physics checks run on the Problem's parameter fields, built once per load
// (ProblemFields, config/checks.hpp): the stability limit of a Problem, and what the loader
// reports when the fields cannot be built beside what reads the tissue mask.
#include <doctest/doctest.h>

#include <string>

#include "model/problem.hpp"
#include "model/stability.hpp"
#include "support.hpp"

namespace {

const std::string kSheet = "domain: {length: [20, 10], dx: 1}\ntime: {dt: 0.05}\n";
// An obstacle at (5, 5), and a probe on it: refused by the tissue checks.
const std::string kObstacleProbe =
    "tissue: [{shape: disc, center: [5, 5], radius: 2}]\noutput: {probes: [[5, 5]]}\n";
// D_l D_t = 1e-300 lost to round-off at 30 degrees: the fields cannot be built.
const std::string kLostTensor = "anisotropy: {longitudinal: 1, transverse: 1e-300, angle: 30}\n";

}  // namespace

TEST_CASE("a Problem with a tissue mask alone has the uniform medium's stability limit, bit for bit") {
  const fhn::Config c = fhn::test::config_from(
      kSheet + "tissue: [{shape: disc, center: [5, 5], radius: 2}]\n");
  const fhn::Problem p = fhn::make_problem(c);
  REQUIRE_FALSE(p.fields.node_type.empty());
  const fhn::ExplicitLimit problem = fhn::explicit_limit(p.model, p.boundary, p.domain, p.fields);
  const fhn::ExplicitLimit uniform = fhn::explicit_limit(c.model, c.boundary, 2, c.domain.dx);
  CHECK(problem.dt == uniform.dt);
  CHECK(problem.diffusion == uniform.diffusion);
  CHECK(problem.diffusion_dt == uniform.diffusion_dt);
  CHECK(problem.rate == "4 d D/dx^2");
}

TEST_CASE("fields that cannot be built leave the tissue checks their mask") {
  using fhn::test::config_error;
  using fhn::test::contains;
  // Explicit: the stability limit reports the tensor, and the tissue checks the probe, together.
  const std::string both = config_error(kSheet + kLostTensor + kObstacleProbe);
  CHECK(contains(both, "anisotropy.transverse: 1e-300 beside anisotropy.longitudinal = 1"));
  CHECK(contains(both, "output.probes[0]: (5, 5) lies outside the tissue"));
  // ADI reads no stability limit: the probe is refused first, and the tensor (check_problem,
  // after every cross-field rule holds) is not reached.
  const std::string adi =
      config_error(kSheet + kLostTensor + kObstacleProbe + "scheme: {type: crank_nicolson}\n");
  CHECK(contains(adi, "output.probes[0]: (5, 5) lies outside the tissue"));
  CHECK_FALSE(contains(adi, "1e-300 beside"));
  // Without the probe the tensor is what ADI's config is refused for, at its key.
  CHECK(contains(config_error(kSheet + kLostTensor +
                              "tissue: [{shape: disc, center: [5, 5], radius: 2}]\n"
                              "scheme: {type: crank_nicolson}\n"),
                 "anisotropy.transverse: 1e-300 beside"));
}
