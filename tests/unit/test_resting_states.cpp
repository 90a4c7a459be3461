// Resting states, excursions and initial states (issue 45, items 4, 6, 9 and 21): each node
// rests at its own parameters' resting state, every form's rest() is a fixed point across its
// parameters' intervals (or says why there is none), a spiral start's excursion stays within
// bounded memory and steps, and an initial state that is not finite is refused at its key.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "config/loader.hpp"
#include "model/excursion.hpp"
#include "model/initial.hpp"
#include "model/problem.hpp"
#include "support.hpp"

namespace {

using fhn::test::contains;

// The issue's small sheet, with FitzHugh's form and `extra` YAML.
std::string fitzhugh_sheet(const std::string& extra) {
  return "model: {form: fitzhugh}\ndomain: {length: [20, 20], dx: 0.5}\n"
         "time: {end: 1, dt: 0.01}\noutput: {every: 0.5}\n" +
         extra;
}

// `s` lies on both of FitzHugh's nullclines, F(v) = w and v + a = b w, to round-off relative to
// the terms of each.
void check_fixed_point(const fhn::FitzHughKinetics& k, const fhn::NodeState& s) {
  REQUIRE(std::isfinite(s.v));
  REQUIRE(std::isfinite(s.w));
  const double f = fhn::FitzHughKinetics::cubic(s.v);
  CHECK(std::abs(f - s.w) <= 1e-13 * std::max({1.0, std::abs(f), std::abs(s.w)}));
  CHECK(std::abs(s.v + k.a - k.b * s.w) <=
        1e-13 * std::max({1.0, std::abs(s.v), std::abs(k.a), std::abs(k.b * s.w)}));
}

}  // namespace

TEST_CASE("initial: rest starts every node at the resting state of its own parameters") {
  // a from 0.7 at x = 0 to 1.5 at x = 20: the rest moves with it; a uniform rest (a = 0.7's,
  // v = -1.1994) leaves the far side out of equilibrium, v drifting to -1.63 there.
  const std::string gradient =
      "fields:\n  - {parameter: a, type: gradient, axis: x, start: 0, end: 20, from: 0.7, to: 1.5}\n"
      "initial: {v: {type: rest}, w: {type: rest}}\n";
  for (const std::string tissue : {"", "tissue:\n  - {shape: disc, center: [5, 15], radius: 3, op: remove}\n"}) {
    CAPTURE(tissue);
    const fhn::Config config = fhn::test::config_from(fitzhugh_sheet(gradient + tissue));
    const fhn::Problem problem = fhn::make_problem(config);
    const auto& uniform = std::get<fhn::FitzHughKinetics>(config.model.kinetics);
    bool at_rest = true;
    for (fhn::index_t node = 0; node < config.domain.node_count(); ++node) {
      const fhn::FitzHughKinetics k = fhn::kinetics_at(uniform, problem.fields, node);
      const auto i = static_cast<std::size_t>(node);
      at_rest = at_rest && std::abs(k.f(problem.v0[i], problem.w0[i])) < 1e-12 &&
                std::abs(k.g(problem.v0[i], problem.w0[i])) < 1e-12;
    }
    CHECK(at_rest);
    // The far side rests where a = 1.5 does, not at a = 0.7's rest.
    const fhn::index_t far = config.domain.nodes[0] - 1;
    CHECK(problem.v0[static_cast<std::size_t>(far)] ==
          doctest::Approx(fhn::FitzHughKinetics{1.5, 0.8, 1.0, 12.5}.rest().v).epsilon(1e-14));
    CHECK(problem.v0[static_cast<std::size_t>(far)] < -1.6);
  }
}

TEST_CASE("FitzHugh's rest is its fixed point at the ends of the parameters' intervals") {
  // a = 0, b = 1: Newton from v = -a starts where h = h' = 0 (the root): the rest is (0, 0),
  // not NaN. b -> 0: v -> -a and w = (v + a) / b is 0/0; w comes from the v-nullcline then.
  const double cases[][2] = {{0.7, 0.8},  {0.0, 1.0},   {0.5, 1.0},   {-3.0, 1.0},
                             {0.7, 0.0},  {0.7, 1e-9},  {0.7, 1e-300}, {0.7, 5e-324},
                             {-0.7, 1e-20}, {1e300, 1.0}, {-1e300, 1.0}, {2.0, 3.0},
                             {1e-300, 1.0}, {0.3, 0.999999}, {1e6, 1e-6}, {30.0, 40.0}};
  for (const auto& c : cases) {
    const fhn::FitzHughKinetics k{c[0], c[1], 1.0, 12.5};
    CAPTURE(c[0]);
    CAPTURE(c[1]);
    CHECK(k.rest_issue().key.empty());
    check_fixed_point(k, k.rest());
  }
  const fhn::NodeState zero = fhn::FitzHughKinetics{0.0, 1.0, 1.0, 12.5}.rest();
  CHECK(zero.v == 0.0);
  CHECK(zero.w == 0.0);
  // b -> 0: w is F(-a), the v-nullcline's, not the 0 that (v + a) / b rounds to.
  CHECK(fhn::FitzHughKinetics{0.7, 1e-300, 1.0, 12.5}.rest().w ==
        doctest::Approx(-0.7 + 0.343 / 3.0).epsilon(1e-15));

  // `initial: rest` with a = 0, b = 1 rests at 0 (before, NaN everywhere, blamed on time.dt).
  const fhn::Problem problem = fhn::make_problem(fhn::test::config_from(
      "model: {form: fitzhugh, a: 0, b: 1}\ndomain: {length: [20, 20], dx: 0.5}\n"
      "time: {end: 1, dt: 0.01}\ninitial: {v: {type: rest}, w: {type: rest}}\n"));
  CHECK(problem.v0 == std::vector<double>(problem.v0.size(), 0.0));
  CHECK(problem.w0 == std::vector<double>(problem.w0.size(), 0.0));
}

TEST_CASE("a spiral start with FitzHugh's a = 0, b = 1 says why, with numbers, not NaN") {
  // The rest (0, 0) lies on the activation level: nothing to kick (before: "kicked to v = -nan").
  const std::string spiral = fhn::test::config_error(
      "model: {form: fitzhugh, a: 0, b: 1}\ndomain: {length: [20, 20], dx: 0.5}\n"
      "time: {end: 1, dt: 0.01}\ninitial: {v: {type: spiral}, w: {type: spiral}}\n");
  CHECK(contains(spiral, "test.yaml:4:"));
  CHECK(contains(spiral, "its resting state v = 0 is not below the activation level v = 0"));
  CHECK_FALSE(contains(spiral, "nan"));
}

TEST_CASE("FitzHugh with b > 1 and three fixed points has no single rest, said at model.b") {
  // b = 2: s = sqrt(1/2), (2/3) b s^3 = 0.4714: |a| <= that gives three crossings.
  const fhn::FitzHughKinetics three{0.1, 2.0, 1.0, 12.5};
  const fhn::RestIssue issue = three.rest_issue();
  CHECK(issue.key == "model.b");
  CHECK(contains(issue.text, "model.a = 0.1, model.b = 2: the nullclines"));
  CHECK(contains(issue.text, "cross three times"));
  CHECK(fhn::FitzHughKinetics{0.5, 2.0, 1.0, 12.5}.rest_issue().key.empty());  // one crossing
  check_fixed_point(fhn::FitzHughKinetics{0.5, 2.0, 1.0, 12.5},
                    fhn::FitzHughKinetics{0.5, 2.0, 1.0, 12.5}.rest());
}

TEST_CASE("a rest profile or a spiral start without a single rest is refused at model.b") {
  const std::string rest = fhn::test::config_error(
      "model: {form: fitzhugh, a: 0.1, b: 2}\ndomain: {length: [20, 20], dx: 0.5}\n"
      "time: {end: 1, dt: 0.01}\ninitial: {v: {type: rest}, w: {type: constant, value: 0}}\n");
  CHECK(contains(rest, "test.yaml:1:"));
  CHECK(contains(rest, "model.b: model.a = 0.1, model.b = 2: the nullclines"));
  CHECK(contains(rest, "no single resting state; a `rest` profile (initial:) takes it"));
  const std::string spiral = fhn::test::config_error(
      "model: {form: fitzhugh, a: 0.1, b: 2}\ndomain: {length: [20, 20], dx: 0.5}\n"
      "time: {end: 1, dt: 0.01}\ninitial: {v: {type: spiral}, w: {type: spiral}}\n");
  CHECK(contains(spiral, "model.b: model.a = 0.1, model.b = 2: the nullclines"));
  CHECK(contains(spiral, "which starts from rest"));
  // A start that does not take the rest runs in the bistable medium.
  CHECK(fhn::test::config_error("model: {form: fitzhugh, a: 0.1, b: 2}\n"
                                "domain: {length: [20, 20], dx: 0.5}\ntime: {end: 1, dt: 0.01}\n")
            .empty());
}

TEST_CASE("the cubic and Barkley forms rest at (0, 0), a fixed point at their intervals' ends") {
  for (const double a : {0.0, 1.0})
    for (const double epsilon : {0.0, 1e300})
      for (const double gamma : {0.0, 1e300}) {
        const fhn::CubicKinetics k{a, epsilon, gamma};
        CHECK(k.rest_issue().key.empty());
        CHECK(k.rest().v == 0.0);
        CHECK(k.rest().w == 0.0);
        CHECK(k.f(0.0, 0.0) == 0.0);
        CHECK(k.g(0.0, 0.0) == 0.0);
      }
  for (const double a : {5e-324, 1e300})
    for (const double b : {-1e300, 0.0, 1e300})
      for (const double eps : {5e-324, 1e300}) {
        const fhn::BarkleyKinetics k{a, b, eps};
        CHECK(k.rest_issue().key.empty());
        CHECK(k.rest().v == 0.0);
        CHECK(k.rest().w == 0.0);
        CHECK(k.g(0.0, 0.0) == 0.0);
      }
}

TEST_CASE("a stiff Barkley spiral start is refused at model.eps in bounded time and memory") {
  // eps = 1e-6: RK4 steps of 7e-8; the path back to rest took 10^8 states (over 4 GB) before.
  // eps = 1e-300: 10^305 steps; the count overflowed and the message said "oscillatory".
  // eps = 1e-300 overflows the kinetics' rates first (check_rates): refused at model.eps too.
  for (const char* eps : {"1e-06", "1e-300"}) {
    CAPTURE(eps);
    const std::string yaml = std::string("model: {form: barkley, eps: ") + eps +
                             "}\ndomain: {length: [20, 20], dx: 0.5}\ntime: {end: 1, dt: 0.05}\n"
                             "scheme: {type: crank_nicolson}\n"
                             "initial: {v: {type: spiral}, w: {type: spiral}}\n";
    const auto started = std::chrono::steady_clock::now();
    const std::string message = fhn::test::config_error(yaml);
    CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() < 20.0);
    CHECK(contains(message, "test.yaml:1:"));
    if (std::string(eps) == "1e-300") {
      CHECK(contains(message, "model.eps: 1e-300 overflows a double in the rates of the 'barkley' "
                              "kinetics"));
    } else {
      CHECK(contains(message, "model.eps: a spiral or scroll-ring start lays out the 'barkley' "
                              "form's excursion, but its state kicked to v = 0.75 does not return "
                              "to rest within 16777216 RK4 steps"));
      CHECK(contains(message, std::string("eps = ") + eps + ")"));
      CHECK(contains(message, "model.eps makes v too fast for the start: raise it"));
    }
    CHECK_FALSE(contains(message, "oscillatory"));
  }
  // A sweep's member builds it in make_problem: the same refusal there.
  const fhn::Config member = fhn::ConfigText("model: {form: barkley, eps: 1e-6}\n"
                                             "domain: {length: [20, 20], dx: 0.5}\n"
                                             "time: {end: 1, dt: 0.05}\nscheme: {type: crank_nicolson}\n"
                                             "initial: {v: {type: spiral}, w: {type: spiral}}\n",
                                             "member.yaml")
                                 .load({});
  CHECK(contains(fhn::test::thrown_message<fhn::ConfigError>([&] { fhn::make_problem(member); }),
                 "model.eps: a spiral or scroll-ring start"));
  // eps = 0.01: v comes within round-off of 1, which f keeps for every w, and a step no longer
  // moves the state (before, it ran to 10^4 time units and blamed an oscillation).
  const std::string stopped = fhn::test::config_error(
      "model: {form: barkley, eps: 0.01}\ndomain: {length: [20, 20], dx: 0.5}\n"
      "time: {end: 1, dt: 0.05}\nscheme: {type: crank_nicolson}\n"
      "initial: {v: {type: spiral}, w: {type: spiral}}\n");
  CHECK(contains(stopped, "model.eps: a spiral or scroll-ring start"));
  CHECK(contains(stopped, "it stops at v = 0.99999999999999"));
  CHECK(contains(stopped, "a fixed point of the kinetics to round-off (a = 0.75, b = 0.02, "
                          "eps = 0.01); a larger model.eps keeps it off it"));
  // Barkley's default eps = 0.02 still lays out its excursion (2048 samples, back near rest).
  const fhn::Excursion e = fhn::form_excursion(fhn::BarkleyKinetics{});
  CHECK(e.states.size() == 2048);
  CHECK(e.states.front().v == 0.75);
  CHECK(std::abs(e.states.back().v) < 0.01);
}

TEST_CASE("a start that is not finite is refused at its initial.* key, not blamed on dt") {
  // wavelength 5e-324: rho / wavelength is infinite away from the centre, the phase NaN.
  const std::string yaml =
      "domain: {length: [20, 20], dx: 0.5}\ntime: {end: 1, dt: 0.05}\n"
      "initial:\n  v: {type: spiral, wavelength: 5e-324}\n  w: {type: spiral, wavelength: 5e-324}\n";
  const std::string message = fhn::test::config_error(yaml);
  CHECK(contains(message, "test.yaml:4:"));
  CHECK(contains(message, "initial.v: {type: spiral, center: [10, 10], wavelength: 5e-324} gives "
                          "v = -nan at the node (0, 0)"));
  CHECK(contains(message, "every initial value must be a finite number"));
  // make_problem checks what it builds (a sweep's member reaches it without the loader's check;
  // the loader leaves it to make_problem on grids of more than kStartNodesChecked nodes), at the
  // key's place in the file.
  const fhn::Config member = fhn::ConfigText(yaml, "member.yaml").load({});
  CHECK(contains(fhn::test::thrown_message<fhn::ConfigError>([&] { fhn::make_problem(member); }),
                 "member.yaml:4:6: initial.v: {type: spiral"));
  // A Gaussian whose background and amplitude overflow together.
  const std::string gaussian = fhn::test::config_error(
      "domain: {length: 10, dx: 0.5}\ntime: {end: 1, dt: 0.05}\n"
      "initial:\n  v: {type: gaussian, center: 5, width2: 1, amplitude: 1e308, background: 1e308}\n");
  CHECK(contains(gaussian, "test.yaml:4:"));
  CHECK(contains(gaussian, "initial.v: {type: gaussian, width2: 1, amplitude: 1e+308, "
                           "background: 1e+308} gives v = inf at the node (5)"));
}

TEST_CASE("validate and run refuse a stiff spiral start alike, before the run writes anything") {
  fhn::test::TempDir dir;
  const std::string config = fhn::test::write_text(
      dir.path() / "stiff.yaml",
      "model: {form: barkley, eps: 1e-6}\ndomain: {length: [20, 20], dx: 0.5}\n"
      "time: {end: 1, dt: 0.05}\nscheme: {type: crank_nicolson}\n"
      "initial: {v: {type: spiral}, w: {type: spiral}}\noutput: {vtk: false}\n");
  const fhn::test::CliResult validate = fhn::test::run_cli({"validate", config});
  const fhn::test::CliResult run =
      fhn::test::run_cli({"run", config, "--output", (dir.path() / "out").string()});
  CHECK(validate.code == 2);
  CHECK(run.code == 2);
  CHECK(contains(validate.err, "stiff.yaml:1:"));
  CHECK(contains(validate.err, "model.eps: a spiral or scroll-ring start"));
  CHECK(validate.err == run.err);
  CHECK_FALSE(std::filesystem::exists(dir.path() / "out"));
}
