// Every rejection rule of the config loader: the message names the place (file:line:column or
// the --set option), the key, the value and what is allowed.
#include <doctest/doctest.h>

#include <filesystem>
#include <variant>

#include "config/loader.hpp"
#include "core/error.hpp"
#include "model/stability.hpp"
#include "run/checkpoint.hpp"
#include "support.hpp"

using fhn::test::contains;

using fhn::test::config_error;
using fhn::test::config_from;

TEST_CASE("an empty config gives the documented defaults") {
  const fhn::Config c = config_from("");
  CHECK(c.name == "test");
  CHECK(c.model.form<fhn::CubicKinetics>().a == 0.01);
  CHECK(c.model.form<fhn::CubicKinetics>().epsilon == 0.01);
  CHECK(c.model.form<fhn::CubicKinetics>().gamma == 2.0);
  CHECK(c.domain.nodes[0] == 401);
  CHECK(c.domain.dx == 0.5);
  CHECK(c.time.steps == 3000);
  CHECK(c.output.every_steps == 10);
  CHECK(c.initial.v.type == fhn::ProfileType::gaussian);
  CHECK(c.initial.v.center[0] == 100.0);
  CHECK(c.boundary.no_flux_order == 2);
}

TEST_CASE("model.form names a kinetics form; the default cubic one is left out of the resolved config") {
  CHECK(std::holds_alternative<fhn::CubicKinetics>(config_from("model: {form: cubic}\n").model.kinetics));
  CHECK(contains(config_error("model:\n  form: cubik\n"),
                 "test.yaml:2:9: model.form: 'cubik' is not a kinetics form; expected one of: cubic, "
                 "fitzhugh, barkley, aliev_panfilov; did you mean 'cubic'?"));
  // A key of another form names the form it belongs to, at its line.
  CHECK(contains(config_error("model:\n  form: fitzhugh\n  epsilon: 0.1\n"),
                 "test.yaml:3:12: model.epsilon: a parameter of model.form 'cubic', not of 'fitzhugh'"));
  CHECK(contains(config_error("model:\n  tau_w: 3\n"),
                 "test.yaml:2:10: model.tau_w: a parameter of model.form 'fitzhugh', not of 'cubic'"));
  // The forms' own keys, their defaults and their ranges.
  const fhn::FitzHughKinetics fitzhugh =
      config_from("model: {form: fitzhugh, tau_w: 3}\ntime: {dt: 0.05}\n").model.form<fhn::FitzHughKinetics>();
  CHECK(fitzhugh.a == 0.7);
  CHECK(fitzhugh.b == 0.8);
  CHECK(fitzhugh.tau_v == 1.0);
  CHECK(fitzhugh.tau_w == 3.0);
  CHECK(contains(config_error("model: {form: fitzhugh, tau_v: 0}\n"),
                 "model.tau_v: value 0 is out of range; expected a number > 0"));
  const std::string resolved =
      fhn::to_yaml(config_from("model: {form: fitzhugh}\ntime: {dt: 0.05}\n"));
  CHECK(contains(resolved, "form: fitzhugh"));
  CHECK(contains(resolved, "tau_w: 12.5"));
  CHECK(config_from(resolved).model.form<fhn::FitzHughKinetics>().tau_w == 12.5);
  // The cubic form is the default: written out it would change the digests of checkpoints
  // written before the forms.
  const std::string yaml = fhn::to_yaml(config_from("model: {form: cubic, a: 0.2}\n"));
  CHECK(!contains(yaml, "form"));
  CHECK(contains(yaml, "a: 0.2"));
  CHECK(fhn::kinetics_parameters_text(config_from("model: {a: 0.2}\n").model.kinetics) ==
        "a = 0.2, epsilon = 0.01, gamma = 2");
}

TEST_CASE("unknown keys are reported with file:line:column and a did-you-mean") {
  const std::string message = config_error("model:\n  a: 0.01\n  gama: 2.0\n");
  CHECK(contains(message, "test.yaml:3:3: unknown key 'model.gama'"));
  CHECK(contains(message, "did you mean 'gamma'?"));
  CHECK(contains(message, "allowed in 'model': a, diffusion, epsilon, form, gamma"));

  CHECK(contains(config_error("tiem: {dt: 0.1}\n"), "test.yaml:1:1: unknown key 'tiem'; did you mean 'time'?"));
}

TEST_CASE("wrong types name the key, the value and the expected type") {
  CHECK(contains(config_error("model: {a: abc}\n"),
                 "test.yaml:1:12: model.a: expected a number in [0, 1], got 'abc'"));
  CHECK(contains(config_error("domain:\n  nodes: 40.5\n"),
                 "test.yaml:2:10: domain.nodes: expected a whole number in [3, 2147483648], got '40.5'"));
  CHECK(contains(config_error("output: {spacetime: maybe}\n"),
                 "output.spacetime: expected true or false, got 'maybe'"));
  CHECK(contains(config_error("model: [1, 2]\n"), "'model' must be a mapping of keys to values, got a list"));
  CHECK(contains(config_error("output: {probes: 5}\n"), "output.probes: expected a list of numbers, e.g. [0.0, 100.0], got '5'"));
}

TEST_CASE("out-of-range values are rejected with the allowed range") {
  CHECK(contains(config_error("model:\n  epsilon: -1\n"),
                 "test.yaml:2:12: model.epsilon: value -1 is out of range; expected a number >= 0"));
  CHECK(contains(config_error("model: {diffusion: 0}\n"), "model.diffusion: value 0 is out of range; expected a number > 0"));
  CHECK(contains(config_error("domain: {nodes: 1e15}\n"), "domain.nodes: value 1e15 is out of range"));
  CHECK(contains(config_error("boundary: {no_flux_order: 3}\n"), "boundary.no_flux_order: value 3 is out of range; expected a whole number in [1, 2]"));
}

TEST_CASE("non-finite numbers are rejected") {
  CHECK(contains(config_error("time: {dt: .nan}\n"), "time.dt: expected a finite number, got '.nan'"));
  CHECK(contains(config_error("model: {a: .inf}\n"), "model.a: expected a finite number, got '.inf'"));
}

TEST_CASE("bad enum values list the allowed values") {
  const std::string message = config_error("scheme:\n  type: explicitt\n");
  CHECK(contains(message, "test.yaml:2:9: scheme.type: 'explicitt' is not allowed; expected one of: explicit"));
  CHECK(contains(message, "did you mean 'explicit'?"));
  CHECK(contains(config_error("boundary: {left: {type: periodic}}\n"),
                 "boundary.left.type: 'periodic' is not allowed; expected one of: no_flux, dirichlet"));
}

TEST_CASE("nodes and dx are exclusive, and dx must divide the length") {
  const std::string both = config_error("domain:\n  nodes: 401\n  dx: 0.5\n");
  CHECK(contains(both, "test.yaml:3:7: domain.nodes and domain.dx are exclusive (nodes given at test.yaml:2:10)"));
  const std::string uneven = config_error("domain: {length: 10, dx: 0.3}\ntime: {dt: 0.01, end: 1}\n");
  CHECK(contains(uneven, "domain.dx: 0.3 does not divide domain.length = 10 into whole cells; nearest: dx = 0.30303030303030304 (34 nodes)"));
  const fhn::Config c = config_from("domain: {length: 10, dx: 0.25}\ntime: {dt: 0.01, end: 1}\n");
  CHECK(c.domain.nodes[0] == 41);
}

TEST_CASE("the explicit stability limit includes the reaction's slope and names the largest stable dt") {
  // dx = 0.5, D = 1, a = 0.01: the odd-even mode's rate 4 D/dx^2 = 16 plus |f'(1)| = 0.99, less
  // the w coupling's epsilon/|alpha|: dt <= 2/16.98941... = 0.11772038682239477.
  const std::string message = config_error("domain: {dx: 0.5}\ntime:\n  dt: 0.2\n");
  CHECK(contains(message, "test.yaml:3:7: time.dt = 0.2 exceeds the explicit stability limit: forward "
                          "Euler multiplies the odd-even mode by 1 - dt r per step, r = 16.989410704344763 "
                          "(diffusion 4 d D/dx^2 = 16 plus the reaction's slope, f'(v) >= -0.99 for v in "
                          "[-0.32666666666666666, 1], with the w coupling), and 1 - dt r >= -1 needs "
                          "dt <= 2/r = 0.11772038682239477"));
  CHECK(contains(message, "the largest stable dt is 0.11772038682239477"));
  // The diffusion limit itself is refused now (it blew up pulse_split at t = 50); the largest
  // stable dt passes, and scheme.explicit_limit: diffusion restores the diffusion-only check.
  CHECK(contains(config_error("time: {dt: 0.125, end: 1}\noutput: {every: 0.125}\n"),
                 "the largest stable dt is 0.11772038682239477"));
  CHECK_NOTHROW(config_from("time: {dt: 0.11772038682239477, end: 0.11772038682239477}\n"
                            "output: {every: 0.11772038682239477}\n"));
  const std::string relaxed = "scheme: {explicit_limit: diffusion}\n";
  CHECK(config_from(relaxed + "time: {dt: 0.125, end: 1}\noutput: {every: 0.125}\n").time.steps == 8);
  CHECK(contains(config_error(relaxed + "time: {dt: 0.2}\n"),
                 "time.dt = 0.2 exceeds the explicit stability limit dx^2/(2 D) = 0.125 of diffusion alone"));
  // The key survives the resolved copy, and is no part of the checkpoints' digest (the same
  // solution either way).
  const fhn::Config loose = config_from(relaxed);
  CHECK(fhn::load_config_text(fhn::to_yaml(loose), "config.yaml").scheme.explicit_limit ==
        fhn::ExplicitLimitCheck::diffusion);
  CHECK(fhn::config_digest(loose) == fhn::config_digest(config_from("")));
  CHECK(!contains(fhn::to_yaml(config_from("")), "explicit_limit"));  // digests of old runs kept
  // The adaptive grid's smallest spacing is the base dx: the same limit.
  CHECK(contains(config_error("scheme: {type: adaptive_explicit}\ntime: {dt: 0.12, end: 1.2}\n"
                              "output: {every: 1.2}\n"),
                 "the largest stable dt is 0.11772038682239477"));
  // The limit scales with the diffusion coefficient: 2/(4 D/dx^2 + 0.99) less the coupling.
  CHECK(contains(config_error("model: {diffusion: 2}\ntime: {dt: 0.1}\n"),
                 "the largest stable dt is 0.06062498902983493"));
  // Crank-Nicolson has no such limit.
  CHECK_NOTHROW(config_from("scheme: {type: crank_nicolson}\ntime: {dt: 0.5, end: 1}\noutput: {every: 0.5}\n"));
}

TEST_CASE("the explicit limit: its range of v, the w coupling, and one computation for check and hint") {
  fhn::ModelParams m;  // a = 0.01, epsilon = 0.01, gamma = 2, D = 1
  const fhn::BoundarySpec no_flux;
  // epsilon = 0: exactly 2/(4 D/dx^2 + 1 - a), the hint's old figure.
  fhn::ModelParams nagumo = m;
  nagumo.form<fhn::CubicKinetics>().epsilon = 0.0;
  CHECK(fhn::explicit_limit(nagumo, no_flux, 1, 0.5).dt == 2.0 / (16.0 + 0.99));
  const fhn::ExplicitLimit cable = fhn::explicit_limit(m, no_flux, 1, 0.5);
  CHECK(cable.dt == doctest::Approx(0.11772038682239477).epsilon(1e-15));
  CHECK(cable.diffusion_dt == 0.125);
  CHECK(cable.v_low == doctest::Approx(-0.98 / 3.0));
  CHECK(cable.v_high == 1.0);
  // A sheet: 8 D/dx^2.
  CHECK(fhn::explicit_limit(m, no_flux, 2, 0.5).diffusion == 32.0);
  // a > 1/2: the resting state's slope f'(0) = -a binds.
  fhn::ModelParams high = m;
  high.form<fhn::CubicKinetics>().a = 0.7;
  CHECK(fhn::explicit_limit(high, no_flux, 1, 0.5).slope == doctest::Approx(-0.7));
  // A Dirichlet end held at 1.5 keeps v there: f'(1.5) = -3.73.
  fhn::BoundarySpec held;
  held.right.type = fhn::BoundaryType::dirichlet;
  held.right.value = 1.5;
  CHECK(fhn::explicit_limit(m, held, 1, 0.5).slope == doctest::Approx(-3.73));
  // Recovery stiffer than the rest: epsilon gamma = 100 gives dt <= 2/100.
  fhn::ModelParams stiff = m;
  stiff.form<fhn::CubicKinetics>().epsilon = 100.0;
  stiff.form<fhn::CubicKinetics>().gamma = 1.0;
  CHECK(fhn::explicit_limit(stiff, no_flux, 1, 0.5).dt == 0.02);
  // The run's hint quotes the same limit as the check (both call explicit_limit).
  CHECK(contains(cable.explain(), "dt <= 2/r = 0.11772038682239477"));
}

TEST_CASE("the stability error is listed beside the other problems with time") {
  const std::string message = config_error("time: {end: 1.05, dt: 0.2}\n");
  CHECK(contains(message, "2 problems in the configuration"));
  CHECK(contains(message, "time.end = 1.05 is not a whole number of steps of time.dt = 0.2"));
  CHECK(contains(message, "time.dt = 0.2 exceeds the explicit stability limit"));
  // dt longer than end, and a cadence that is no multiple: all three together.
  const std::string three = config_error("time: {end: 0.1, dt: 0.2}\noutput: {every: 0.5}\n");
  CHECK(contains(three, "3 problems in the configuration"));
  CHECK(contains(three, "time.dt = 0.2 is longer than time.end = 0.1"));
  CHECK(contains(three, "output.every = 0.5 must be a whole multiple of time.dt = 0.2"));
}

TEST_CASE("time and output cadence must be whole numbers of steps") {
  CHECK(contains(config_error("time: {end: 1.05, dt: 0.1}\n"),
                 "time.end = 1.05 is not a whole number of steps of time.dt = 0.1"));
  CHECK(contains(config_error("time: {end: 10, dt: 0.1}\noutput: {every: 0.25}\n"),
                 "output.every = 0.25 must be a whole multiple of time.dt = 0.1"));
  CHECK(contains(config_error("time: {end: 0.05, dt: 0.1}\n"), "time.dt = 0.1 is longer than time.end = 0.05"));
  CHECK(config_from("time: {end: 300, dt: 0.1}\n").time.steps == 3000);
}

TEST_CASE("duplicate keys and keys of another profile type are errors") {
  CHECK(contains(config_error("model:\n  a: 0.1\n  a: 0.2\n"), "test.yaml:3:3: duplicate key 'model.a'"));
  CHECK(contains(config_error("initial:\n  w: {type: constant, value: 0, width2: 3}\n"),
                 "initial.w.width2: not a parameter of a 'constant' profile (its keys: type, value)"));
  CHECK(contains(config_error("initial:\n  v: {center: 3}\n"), "missing required key 'initial.v.type'"));
  CHECK(contains(config_error("boundary: {left: {type: no_flux, value: 1}}\n"),
                 "boundary.left.value: applies only to type: dirichlet"));
  CHECK(contains(config_error("boundary: {right: {type: dirichlet}}\n"),
                 "missing required key 'boundary.right.value'"));
}

TEST_CASE("stimuli need their keys and a region inside the domain") {
  CHECK(contains(config_error("stimulus:\n  - {x_min: 0, x_max: 5, start: 0, duration: 1}\n"),
                 "test.yaml:2:5: missing required key 'stimulus[0].amplitude'"));
  CHECK(contains(config_error("stimulus:\n  - {x_min: 5, x_max: 1, start: 0, duration: 1, amplitude: 1}\n"),
                 "stimulus[0].x_max: 1 is left of x_min = 5"));
  CHECK(contains(config_error("stimulus:\n  - {x_min: 300, x_max: 310, start: 0, duration: 1, amplitude: 1}\n"),
                 "stimulus[0]: the region [300, 310] lies outside the domain [0, 200]"));
  CHECK(contains(config_error("stimulus:\n  - {x_min: 0, x_max: 5, start: 0, duration: 2, amplitude: 1, period: 1, count: 3}\n"),
                 "stimulus[0].period: with count = 3 the period must be at least the duration (2)"));
  CHECK(contains(config_error("stimulus: {x_min: 0}\n"), "stimulus: expected a list of"));
  const fhn::Config c = config_from(
      "stimulus:\n  - {x_min: 0, x_max: 5, start: 1, duration: 2, amplitude: 0.5, period: 50, count: 2}\n");
  REQUIRE(c.stimulus.size() == 1);
  CHECK(c.stimulus[0].period == 50.0);
  CHECK(c.stimulus[0].count == 2);
}

TEST_CASE("a stimulus that would never act is refused at its entry, one that acts after the end warned of") {
  const std::string head = "time: {end: 10, dt: 0.1}\noutput: {every: 1}\nstimulus:\n";
  // A region between two nodes (dx = 0.5) with coverage: nodes; with overlap (the default) it
  // takes part of node 200's cell, and only a region of no width is refused.
  CHECK(contains(config_error(head + "  - {x_min: 100.1, x_max: 100.4, start: 0, duration: 1, amplitude: 1, "
                                     "coverage: nodes}\n"),
                 "test.yaml:4:13: stimulus[0]: the region [100.1, 100.4] holds no grid node (the nodes lie at "
                 "multiples of dx = 0.5): the stimulus would never act"));
  CHECK_NOTHROW(config_from(head + "  - {x_min: 100.1, x_max: 100.4, start: 0, duration: 1, amplitude: 1}\n"));
  CHECK(contains(config_error(head + "  - {x_min: 100.1, x_max: 100.1, start: 0, duration: 1, amplitude: 1}\n"),
                 "test.yaml:4:13: stimulus[0]: the region [100.1, 100.1] has no width along an axis, so no "
                 "node's cell overlaps it (coverage: overlap; a node takes the part of its cell, its position "
                 "+- dx/2 with dx = 0.5, inside the region): the stimulus would never act; widen it, or take "
                 "the nodes on it with coverage: nodes"));
  // A start at or after time.end acts only in a run continued past it (--restart with a larger
  // time.end, or a run shortened with --set time.end): accepted, with a warning at the entry.
  const fhn::Config late =
      config_from(head + "  - {x_min: 0, x_max: 5, start: 10, duration: 1, amplitude: 1}\n");
  REQUIRE(late.warnings.size() == 1);
  CHECK(contains(late.warnings[0], "test.yaml:4:33: stimulus[0].start = 10 is not before time.end = "
                                   "10: the stimulus does not act in this run, only in one continued "
                                   "past its end"));
  CHECK(config_from(head + "  - {x_min: 0, x_max: 5, start: 9.9, duration: 1, amplitude: 1}\n")
            .warnings.empty());
  // After the last step the explicit scheme evaluates it at (t = 9.9), in a window no later step
  // meets either (the next is t = 10)...
  CHECK(contains(config_error(head + "  - {x_min: 0, x_max: 5, start: 9.95, duration: 0.04, amplitude: 1}\n"),
                 "stimulus[0].start = 9.95 is after the last time the scheme applies a stimulus, t = 9.9 "
                 "(explicit evaluates stimuli at the start of each step, t = n dt (time.dt = 0.1))"));
  // ... and a window between two steps, every repetition of it too.
  CHECK(contains(config_error(head + "  - {x_min: 0, x_max: 5, start: 1.02, duration: 0.05, amplitude: 1}\n"),
                 "stimulus[0]: no time the scheme applies stimuli falls in its window [1.02, 1.07) (explicit "
                 "evaluates stimuli at the start of each step, t = n dt (time.dt = 0.1)): the stimulus would "
                 "never act; start it on a step or make its duration at least 0.1"));
  CHECK(contains(config_error(head + "  - {x_min: 0, x_max: 5, start: 1.02, duration: 0.05, amplitude: 1, "
                                     "period: 1, count: 3}\n"),
                 "falls in its window [1.02, 1.07) nor in any of its 2 repetitions"));
  // A later repetition that meets a step is enough (1.02 + 0.49 = 1.51 misses, 2.00 is a step).
  CHECK_NOTHROW(config_from(head + "  - {x_min: 0, x_max: 5, start: 1.02, duration: 0.05, amplitude: 1, "
                                   "period: 0.49, count: 3}\n"));
  // Crank-Nicolson takes the stimuli's means over each step (ADI over each half step): a window
  // inside a step acts, one from time.end on acts only in a run continued past it.
  for (const char* formulation : {"newton", "adi"}) {
    const std::vector<std::string> cn{"scheme.type=crank_nicolson",
                                      std::string("scheme.crank_nicolson.formulation=") + formulation};
    CHECK_NOTHROW(config_from(head + "  - {x_min: 0, x_max: 5, start: 1.04, duration: 0.02, amplitude: 1}\n", cn));
    const fhn::Config at_end =
        config_from(head + "  - {x_min: 0, x_max: 5, start: 10, duration: 1, amplitude: 1}\n", cn);
    REQUIRE(at_end.warnings.size() == 1);
    CHECK(contains(at_end.warnings[0], "stimulus[0].start = 10 is not before time.end = 10"));
    CHECK(config_from(head + "  - {x_min: 0, x_max: 5, start: 9.99, duration: 0.005, amplitude: 1}\n", cn)
              .warnings.empty());
  }
  // Amplitude 0 is a stimulus switched off (one a sweep axis switches on): not checked.
  CHECK_NOTHROW(config_from(head + "  - {x_min: 0, x_max: 5, start: 300, duration: 1, amplitude: 0}\n"));
  // An override names the --set option.
  CHECK(contains(config_from(head + "  - {x_min: 0, x_max: 5, start: 1, duration: 1, amplitude: 1}\n",
                             {"stimulus[0].start=20"})
                     .warnings.at(0),
                 "--set stimulus[0].start=20: stimulus[0].start = 20 is not before time.end = 10"));
  CHECK(contains(config_error(head + "  - {x_min: 0, x_max: 5, start: 1, duration: 1, amplitude: 1}\n",
                              {"stimulus[0].start=20.05", "stimulus[0].duration=0.02"}),
                 "--set stimulus[0].start=20.05: stimulus[0].start = 20.05 is after the last time"));
}

TEST_CASE("a --set list index beyond any list names the list's size, never an internal error") {
  const std::string one = "stimulus:\n  - {x_min: 0, x_max: 5, start: 1, duration: 1, amplitude: 0.5}\n";
  for (const std::string index : {"1", "99999999999999999999", "18446744073709551615", "18446744073709551616"}) {
    CAPTURE(index);
    CHECK(contains(config_error(one, {"stimulus[" + index + "].amplitude=1"}),
                   "--set stimulus[" + index + "].amplitude=1: 'stimulus[" + index +
                       "]' does not exist ('stimulus' has 1 entry: indices 0 to 0)"));
    CHECK(contains(config_error(one, {"stimulus." + index + ".amplitude=1"}),
                   "'stimulus[" + index + "]' does not exist"));
  }
  CHECK(contains(config_error("stimulus: []\n", {"stimulus[0].amplitude=1"}),
                 "'stimulus[0]' does not exist ('stimulus' is empty)"));
}

TEST_CASE("probes must lie in the domain") {
  CHECK(contains(config_error("output: {probes: [10, 250]}\n"),
                 "output.probes[1] = 250 is outside the domain [0, 200]"));
}

TEST_CASE("--set overrides any key with the same checks") {
  const fhn::Config c = config_from("model: {a: 0.01}\n", {"model.a=0.2", "time.dt=0.05", "output.probes=[1, 2]"});
  CHECK(c.model.form<fhn::CubicKinetics>().a == 0.2);
  CHECK(c.time.dt == 0.05);
  CHECK(c.output.probes == std::vector<fhn::Point>{{1.0, 0.0, 0.0}, {2.0, 0.0, 0.0}});

  CHECK(contains(config_error("", {"model.gama=2"}),
                 "--set model.gama=2: unknown key 'model.gama'; did you mean 'gamma'?"));
  CHECK(contains(config_error("", {"time.dt=fast"}), "--set time.dt=fast: time.dt: expected a number > 0, got 'fast'"));
  CHECK(contains(config_error("", {"time.dt=0.2"}), "--set time.dt=0.2: time.dt = 0.2 exceeds the explicit stability limit"));
  // model.a is absent from an empty config: the path is created and then fails the type check.
  CHECK(contains(config_error("", {"model.a.b=1"}), "--set model.a.b=1: model.a: expected a number in [0, 1], got a mapping"));
  CHECK(contains(config_error("model: {a: 0.1}\n", {"model.a.b=1"}),
                 "--set model.a.b=1: cannot set 'model.a.b': 'model.a' is '0.1', not a section"));
  CHECK(contains(config_error("", {"time.dt"}), "--set time.dt: expected KEY=VALUE"));
  CHECK(contains(config_error("", {"time..dt=1"}), "empty key in key path 'time..dt'"));
  CHECK(contains(config_error("", {"stimulus[0].amplitude=1"}), "'stimulus[0]' does not exist"));
  const fhn::Config s = config_from(
      "stimulus:\n  - {x_min: 0, x_max: 5, start: 1, duration: 2, amplitude: 0.5}\n",
      {"stimulus[0].amplitude=0.75", "stimulus.0.start=3"});
  CHECK(s.stimulus[0].amplitude == 0.75);
  CHECK(s.stimulus[0].start == 3.0);
  // KEY=~ removes a key, so the exclusive dx can replace nodes.
  const fhn::Config d = config_from("domain: {length: 10, nodes: 11}\ntime: {dt: 0.01, end: 1}\n",
                                    {"domain.nodes=~", "domain.dx=0.5"});
  CHECK(d.domain.nodes[0] == 21);
}

TEST_CASE("YAML syntax errors give the line") {
  CHECK(contains(config_error("model: {a: 0.1\ntime: {dt: 0.1}\n"), "test.yaml:"));
  CHECK(contains(config_error("model: {a: 0.1\ntime: {dt: 0.1}\n"), "YAML syntax error"));
  CHECK(contains(config_error("- 1\n- 2\n"), "the document must be a mapping of keys to values, got a list"));
}

TEST_CASE("a build without VTK rejects VTK output by key") {
  fhn::BuildCapabilities no_vtk;
  no_vtk.vtk = false;
  std::string message;
  try {
    fhn::load_config_text("output: {spacetime: false}\n", "test.yaml", {}, no_vtk);
  } catch (const fhn::ConfigError& e) {
    message = e.what();
  }
  CHECK(contains(message, "output.vtk: this build has no VTK (configured with -DFHN_WITH_VTK=OFF)"));
  CHECK(contains(message, "(true is the default)"));
  CHECK_FALSE(contains(message, "output.spacetime"));
  CHECK_NOTHROW(fhn::load_config_text("", "test.yaml", {"output.vtk=false", "output.spacetime=false"}, no_vtk));
}

TEST_CASE("all problems are reported together") {
  const std::string message = config_error("model: {a: 2, epsilon: -1}\nscheme: {type: implicit}\n");
  CHECK(contains(message, "3 problems in the configuration"));
  CHECK(contains(message, "model.a"));
  CHECK(contains(message, "model.epsilon"));
  CHECK(contains(message, "scheme.type"));
}

TEST_CASE("the resolved config reads back to the same config") {
  const fhn::Config original = fhn::load_config(fhn::test::source_path("configs/pulse_split.yaml"));
  const fhn::Config again = config_from(fhn::to_yaml(original));
  CHECK(again.name == original.name);
  CHECK(again.domain.nodes == original.domain.nodes);
  CHECK(again.domain.dx == original.domain.dx);
  CHECK(again.time.dt == original.time.dt);
  CHECK(again.time.steps == original.time.steps);
  CHECK(again.initial.v.center == original.initial.v.center);
  CHECK(again.initial.v.width2 == original.initial.v.width2);
  CHECK(again.output.probes == original.output.probes);
  CHECK(fhn::to_yaml(again) == fhn::to_yaml(original));
}

namespace {

const std::string kSheet = "domain: {length: [40, 20], dx: 1}\ntime: {dt: 0.05}\n";

// The message of a sheet whose `fields` list holds `entry` (a flow mapping) on line 4 (5 with a
// line `above`), from column 5: "test.yaml:4:<column>: ...".
std::string field_error(const std::string& entry, const std::string& above = "") {
  return config_error(kSheet + above + "fields:\n  - " + entry + "\n");
}

}  // namespace

TEST_CASE("fields: defaults of region and gradient entries, and anisotropy's") {
  const fhn::Config c = config_from(
      kSheet + "fields:\n"
               "  - {parameter: a, shape: rectangle, value: 0.2}\n"
               "  - {parameter: epsilon, type: gradient, from: 0.01, to: 0.03}\n"
               "  - {parameter: gamma, type: gradient, axis: y, from: 1, to: 3}\n"
               "  - {parameter: diffusion, shape: disc, center: [5, 5], radius: 2, value: 0}\n");
  REQUIRE(c.fields.size() == 4);
  const fhn::FieldSpec& region = c.fields[0];
  CHECK(region.parameter == "a");
  CHECK(region.type == fhn::FieldType::region);
  CHECK(region.region.shape == fhn::TissueShape::rectangle);
  CHECK(region.region.x_min == 0.0);  // the sheet's bounds
  CHECK(region.region.x_max == 40.0);
  CHECK(region.region.y_min == 0.0);
  CHECK(region.region.y_max == 20.0);
  CHECK(region.value == 0.2);
  CHECK(region.edge == 0.0);
  const fhn::FieldSpec& along_x = c.fields[1];
  CHECK(along_x.type == fhn::FieldType::gradient);
  CHECK(along_x.axis == 0);
  CHECK(along_x.start == 0.0);
  CHECK(along_x.end == 40.0);  // the sheet's length along x
  CHECK(along_x.from == 0.01);
  CHECK(along_x.to == 0.03);
  CHECK(c.fields[2].axis == 1);
  CHECK(c.fields[2].end == 20.0);  // along y
  CHECK(c.fields[3].value == 0.0);  // D = 0 in a field: a region cut off
  CHECK(c.fields[3].region.radius == 2.0);
  CHECK_FALSE(c.anisotropy.enabled);
  CHECK(config_from(kSheet).fields.empty());

  const fhn::Config a = config_from(kSheet + "anisotropy: {longitudinal: 2, transverse: 0.5}\n");
  CHECK(a.anisotropy.enabled);
  CHECK(a.anisotropy.longitudinal == 2.0);
  CHECK(a.anisotropy.transverse == 0.5);
  CHECK(a.anisotropy.angle == 0.0);
  CHECK(a.model.diffusion == 2.0);  // model.diffusion is D_l
  // A form's own parameters: fitzhugh's tau_w, in its interval (> 0).
  const std::string fitzhugh = "model: {form: fitzhugh}\n";
  const fhn::Config f = config_from(
      kSheet + fitzhugh + "fields: [{parameter: tau_w, type: gradient, from: 10, to: 15}]\n");
  CHECK(f.fields[0].parameter == "tau_w");
  CHECK(contains(field_error("{parameter: tau_w, type: gradient, from: 0, to: 15}", fitzhugh),
                 "test.yaml:5:46: fields[0].from: value 0 is out of range for model.tau_w; "
                 "expected a number > 0"));
}

TEST_CASE("fields: mistakes are located and name what is allowed") {
  CHECK(contains(config_error("fields: [{parameter: a, type: gradient, from: 0, to: 1}]\n"),
                 "test.yaml:1:9: fields: applies to sheets only (domain.length: [Lx, Ly]); this "
                 "domain is a cable"));
  CHECK(contains(config_error(kSheet + "fields: {parameter: a}\n"),
                 "test.yaml:3:9: fields: expected a non-empty list of fields {parameter, type: "
                 "region | gradient | image, ...}, got a mapping"));
  CHECK(contains(config_error(kSheet + "fields: []\n"),
                 "fields: expected a non-empty list of fields"));
  // One entry each: its text, and the message (with its place) it gives.
  const std::pair<std::string, std::string> entries[] = {
      // parameter: required; diffusion or a key of the form (fibre_angle with anisotropy).
      {"{type: gradient, from: 0, to: 1}",
       "test.yaml:4:5: missing required key 'fields[0].parameter' (one of: diffusion, a, "
       "epsilon, gamma)"},
      {"{parameter: [a], type: gradient, from: 0, to: 1}",
       "test.yaml:4:17: fields[0].parameter: expected a parameter name, got a list"},
      {"{parameter: gama, type: gradient, from: 0, to: 1}",
       "test.yaml:4:17: fields[0].parameter: 'gama' is not allowed; expected one of: "
       "diffusion, a, epsilon, gamma (model.form is 'cubic'); did you mean 'gamma'?"},
      {"{parameter: tau_w, type: gradient, from: 1, to: 2}",
       "fields[0].parameter: 'tau_w' is not allowed; expected one of: diffusion, a, epsilon, "
       "gamma (model.form is 'cubic')"},
      {"{parameter: fibre_angle, type: gradient, from: 0, to: 90}",
       "test.yaml:4:17: fields[0].parameter: 'fibre_angle' needs anisotropy: {longitudinal, "
       "transverse} (fibres in the sheet)"},
      // Values in the parameter's interval (diffusion: >= 0), reported at their key.
      {"{parameter: a, shape: disc, center: [5, 5], radius: 2, value: 2}",
       "test.yaml:4:67: fields[0].value: value 2 is out of range for model.a; expected a "
       "number in [0, 1]"},
      {"{parameter: diffusion, type: gradient, from: 1, to: -0.5}",
       "test.yaml:4:57: fields[0].to: value -0.5 is out of range for diffusion; expected a "
       "number >= 0"},
      {"{parameter: a, shape: disc, center: [5, 5], radius: 2}",
       "test.yaml:4:5: missing required key 'fields[0].value' (a number in [0, 1])"},
      {"{parameter: a, type: gradient, from: 0.1}",
       "test.yaml:4:5: missing required key 'fields[0].to' (a number in [0, 1])"},
      // A region's shape as a tissue region's; `op` is no key of a field.
      {"{parameter: a, value: 0.1}",
       "test.yaml:4:5: missing required key 'fields[0].shape' (one of: disc, rectangle, "
       "polygon, image)"},
      {"{parameter: a, shape: rectangle, radius: 2, value: 0.1}",
       "test.yaml:4:46: fields[0].radius: not a key of a 'rectangle' region"},
      {"{parameter: a, shape: polygon, points: [[0, 0], [1, 1]], value: 0}",
       "test.yaml:4:44: fields[0].points: expected a list of at least 3 corners [x, y], got a "
       "list"},
      {"{parameter: a, shape: rectangle, x_min: 5, x_max: 1, value: 0}",
       "test.yaml:4:55: fields[0]: an empty rectangle (x_max < x_min)"},
      {"{parameter: a, shape: rectangle, op: add, value: 0.1}",
       "test.yaml:4:42: fields[0].op: not a key of a field entry (a field sets a value in its "
       "region; tissue: adds and removes regions)"},
      {"{parameter: a, shape: rectangle, value: 0.1, edge: -1}",
       "test.yaml:4:56: fields[0].edge: value -1 is out of range; expected a number >= 0"},
      {"{parameter: a, type: ramp, from: 0, to: 1}",
       "test.yaml:4:26: fields[0].type: 'ramp' is not allowed; expected one of: region, "
       "gradient"},
      // The keys of the other type of entry.
      {"{parameter: a, shape: rectangle, value: 0.1, to: 1}",
       "test.yaml:4:54: fields[0].to: not a key of a region field entry (its keys: parameter, "
       "type, shape with the shape's keys, value, edge)"},
      {"{parameter: a, type: gradient, from: 0, to: 1, center: [1, 1]}",
       "test.yaml:4:60: fields[0].center: not a key of a gradient field entry (its keys: "
       "parameter, type, axis, start, end, from, to)"},
      {"{parameter: a, type: gradient, from: 0, to: 1, value: 1}",
       "fields[0].value: not a key of a gradient field entry"},
      {"{parameter: a, type: gradient, axis: z, from: 0, to: 1}",
       "test.yaml:4:42: fields[0].axis: 'z' is not allowed; expected x or y"},
      // start < end: reported at end, or at start when end is the default.
      {"{parameter: a, type: gradient, start: 20, end: 10, from: 0, to: 1}",
       "test.yaml:4:52: fields[0]: end = 10 is not beyond start = 20; a gradient runs from "
       "start to end (start < end)"},
      {"{parameter: a, type: gradient, start: 40, from: 0, to: 1}",
       "test.yaml:4:43: fields[0]: end = 40 (the sheet's length along x, the default) is not "
       "beyond start = 40; a gradient runs from start to end (start < end)"},
  };
  for (const auto& [entry, message] : entries) {
    CAPTURE(entry);
    CHECK(contains(field_error(entry), message));
  }
  // Overrides reach list entries with the same checks.
  const std::string one =
      kSheet + "fields: [{parameter: a, shape: disc, center: [5, 5], radius: 2, value: 0.1}]\n";
  CHECK(config_from(one, {"fields[0].value=0.3"}).fields[0].value == 0.3);
  CHECK(contains(config_error(one, {"fields[0].value=3"}),
                 "--set fields[0].value=3: fields[0].value: value 3 is out of range for model.a"));
}

TEST_CASE("anisotropy: sheets only, D_l and D_t > 0, and model.diffusion does not apply") {
  const std::string tensor = "anisotropy: {longitudinal: 1, transverse: 0.5}\n";
  // A config, and the message (with its place) it gives.
  const std::pair<std::string, std::string> configs[] = {
      {tensor,
       "test.yaml:1:13: anisotropy: applies to sheets only (domain.length: [Lx, Ly]); this "
       "domain is a cable"},
      {kSheet + "anisotropy: {longitudinal: 1}\n",
       "test.yaml:3:13: missing required key 'anisotropy.transverse' (a number > 0)"},
      {kSheet + "anisotropy: {longitudinal: 1, transverse: 0}\n",
       "test.yaml:3:43: anisotropy.transverse: value 0 is out of range; expected a number > 0"},
      {kSheet + "anisotropy: {longitudinal: 1, transverse: 1, angel: 3}\n",
       "unknown key 'anisotropy.angel'; did you mean 'angle'?"},
      {kSheet + "model: {diffusion: 2}\n" + tensor,
       "test.yaml:3:20: model.diffusion: anisotropy gives the diffusion tensor (longitudinal, "
       "transverse); model.diffusion does not apply"},
  };
  for (const auto& [yaml, message] : configs) {
    CAPTURE(yaml);
    CHECK(contains(config_error(yaml), message));
  }
  CHECK(contains(config_error(kSheet + tensor, {"model.diffusion=2"}),
                 "--set model.diffusion=2: model.diffusion: anisotropy gives the diffusion "
                 "tensor"));
  CHECK(config_from(kSheet + tensor, {"anisotropy.angle=-45"}).anisotropy.angle == -45.0);
  // With anisotropy a field varies the fibre angle, not D.
  CHECK(contains(field_error("{parameter: diffusion, type: gradient, from: 0, to: 1}", tensor),
                 "test.yaml:5:17: fields[0].parameter: 'diffusion' does not apply with "
                 "anisotropy: (it gives the diffusion tensor: longitudinal, transverse); vary "
                 "fibre_angle or remove anisotropy:"));
  CHECK(contains(field_error("{parameter: b, type: gradient, from: 0, to: 1}", tensor),
                 "expected one of: a, epsilon, gamma, fibre_angle (model.form is 'cubic')"));
  const fhn::Config c = config_from(
      kSheet + tensor +
      "fields: [{parameter: fibre_angle, shape: rectangle, x_max: 20, value: -400}]\n");
  CHECK(c.fields[0].value == -400.0);  // any finite angle
}

TEST_CASE("tissue, anisotropy and fields read back from the resolved config as they were") {
  const fhn::Config original = config_from(
      kSheet + "tissue:\n  - {shape: polygon, points: [[0, 0], [3, 0], [0, 3]]}\n"
               "  - {shape: disc, op: add, center: [1, 1], radius: 0.5}\n"
               "anisotropy: {longitudinal: 1.5, transverse: 0.25, angle: 30}\n"
               "fields:\n"
               "  - {parameter: a, shape: disc, center: [20, 10], radius: 4, value: 0.2, edge: 2}\n"
               "  - {parameter: epsilon, type: gradient, axis: y, start: 2, end: 18, from: 0.01,"
               " to: 0.03}\n"
               "  - {parameter: fibre_angle, shape: rectangle, x_min: 10, y_max: 5, value: 60}\n"
               "  - {parameter: gamma, shape: polygon, points: [[30, 0], [40, 0], [40, 20]],"
               " value: 1}\n"
               "output: {probes: [[20, 10]]}\n");
  const std::string yaml = fhn::to_yaml(original);
  CHECK_FALSE(contains(yaml, "diffusion:"));  // the tensor gives D
  CHECK(contains(yaml, "anisotropy: {longitudinal: 1.5, transverse: 0.25, angle: 30}"));
  CHECK(contains(yaml, "- {parameter: a, type: region, shape: disc, center: [20, 10], radius: 4, "
                       "value: 0.2, edge: 2}"));
  CHECK(contains(yaml, "- {parameter: epsilon, type: gradient, axis: y, start: 2, end: 18, "
                       "from: 0.01, to: 0.03}"));
  const fhn::Config again = config_from(yaml);
  CHECK(fhn::to_yaml(again) == yaml);
  CHECK(again.model.diffusion == 1.5);
  CHECK(again.anisotropy.enabled);
  CHECK(again.anisotropy.angle == 30.0);
  REQUIRE(again.tissue.size() == 2);
  CHECK(again.tissue[0].points == original.tissue[0].points);
  CHECK_FALSE(again.tissue[0].add);
  CHECK(again.tissue[1].add);
  CHECK(again.tissue[1].center == original.tissue[1].center);
  REQUIRE(again.fields.size() == 4);
  for (std::size_t k = 0; k < again.fields.size(); ++k) {
    CAPTURE(k);
    const fhn::FieldSpec &a = again.fields[k], &b = original.fields[k];
    CHECK(a.parameter == b.parameter);
    CHECK(a.type == b.type);
    CHECK(a.region.shape == b.region.shape);
    CHECK(a.region.center == b.region.center);
    CHECK(a.region.radius == b.region.radius);
    CHECK(a.region.x_min == b.region.x_min);
    CHECK(a.region.x_max == b.region.x_max);
    CHECK(a.region.y_min == b.region.y_min);
    CHECK(a.region.y_max == b.region.y_max);
    CHECK(a.region.points == b.region.points);
    CHECK(a.value == b.value);
    CHECK(a.edge == b.edge);
    CHECK(a.axis == b.axis);
    CHECK(a.start == b.start);
    CHECK(a.end == b.end);
    CHECK(a.from == b.from);
    CHECK(a.to == b.to);
  }
  CHECK(again.fields[2].region.x_max == 40.0);  // the default, written out
  // Without them the resolved config is as before: no tissue, anisotropy or fields keys.
  const std::string plain = fhn::to_yaml(config_from(kSheet));
  CHECK_FALSE(contains(plain, "tissue"));
  CHECK_FALSE(contains(plain, "anisotropy"));
  CHECK_FALSE(contains(plain, "fields"));
  CHECK(contains(plain, "diffusion: 1"));
}

TEST_CASE("every shipped config validates") {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(fhn::test::source_path("configs"))) {
    if (entry.path().extension() != ".yaml") continue;
    CAPTURE(entry.path().string());
    CHECK_NOTHROW(fhn::load_config(entry.path().string()));
    ++count;
  }
  CHECK(count >= 2);
}
