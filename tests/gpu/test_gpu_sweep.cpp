// The CUDA sweep batch (MemberBatch over one set of kernels) against single runs: every member,
// with its own model parameters, stimuli and boundary values, equals the CPU scheme and the
// single-member CUDA scheme of its config; advance() split into pieces changes nothing; sample()
// reads the state; a member that fails is reported once and frozen while the others go on.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "config/loader.hpp"
#include "core/error.hpp"
#include "model/problem.hpp"
#include "schemes/cuda_schemes.hpp"
#include "schemes/member_batch.hpp"
#include "schemes/scheme.hpp"
#include "support.hpp"

namespace {

using fhn::Config;
using fhn::index_t;
using fhn::MemberBatch;
using fhn::Problem;
using fhn::Snapshot;
using fhn::test::max_state_difference;
using fhn::test::run_scheme;

// A cable of `nodes` nodes (dx = 0.5) with a pulse in the middle and one stimulus at the left.
std::string cable(index_t nodes) {
  const double length = 0.5 * static_cast<double>(nodes - 1);
  return "model: {a: 0.1, epsilon: 0.01, gamma: 2.0, diffusion: 1.0}\n"
         "domain: {length: " + std::to_string(length) + ", nodes: " + std::to_string(nodes) + "}\n"
         "boundary: {left: {type: no_flux}, right: {type: no_flux}}\n"
         "initial:\n"
         "  v: {type: gaussian, center: " + std::to_string(length / 2) +
         ", width2: 4.0, amplitude: 1.0}\n"
         "  w: {type: constant, value: 0.0}\n"
         "stimulus:\n"
         "  - {x_min: 0, x_max: " + std::to_string(length / 4) +
         ", start: 0.5, duration: 1.0, amplitude: 0.5}\n"
         "time: {end: 1000, dt: 0.1}\n"
         "output: {vtk: false, spacetime: false}\n";
}

// The schemes the sweep batches, as overrides (the backend is added by the callers).
const std::vector<std::string> kExplicit{"scheme.type=explicit", "time.dt=0.02"};
const std::vector<std::string> kTrapezoidal{"scheme.type=crank_nicolson",
                                            "scheme.crank_nicolson.w_update=trapezoidal"};
const std::vector<std::string> kLeapfrog{"scheme.type=crank_nicolson",
                                         "scheme.crank_nicolson.w_update=leapfrog"};

// What makes member m differ from the others: its own a, and by turns epsilon, diffusion,
// gamma, stimulus amplitude and timing, a Dirichlet end, first-order no-flux ends.
std::vector<std::string> member_variant(int m) {
  std::vector<std::string> o{"model.a=" + std::to_string(0.08 + 0.001 * m)};
  switch (m % 5) {
    case 1: o.insert(o.end(), {"stimulus[0].amplitude=0.3", "model.epsilon=0.02"}); break;
    case 2:
      o.insert(o.end(), {"stimulus[0].start=1.5", "stimulus[0].duration=0.5",
                         "boundary.no_flux_order=1"});
      break;
    case 3:
      o.insert(o.end(), {"model.diffusion=1.5", "boundary.left.type=dirichlet",
                         "boundary.left.value=0.2"});
      break;
    case 4:
      o.insert(o.end(), {"stimulus[0].period=3", "stimulus[0].count=3", "model.gamma=1.5",
                         "boundary.right.type=dirichlet", "boundary.right.value=-0.1"});
      break;
    default: break;
  }
  return o;
}

// Member m's config on `backend`; `extra` for the member given (a failing one).
Config member_config(index_t nodes, const std::vector<std::string>& scheme, int m,
                     const std::string& backend, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> o = scheme;
  const std::vector<std::string> variant = member_variant(m);
  o.insert(o.end(), variant.begin(), variant.end());
  o.insert(o.end(), extra.begin(), extra.end());
  o.push_back("scheme.backend=" + backend);
  return fhn::load_config_text(cable(nodes), "test.yaml", o);
}

struct Sweep {
  std::vector<Config> configs;
  std::vector<Problem> problems;
  std::unique_ptr<MemberBatch> batch;
};

// A CUDA batch of `members` members; member `odd` (if any) gets `odd_extra` overrides.
Sweep make_sweep(index_t nodes, int members, const std::vector<std::string>& scheme,
                 int odd = -1, const std::vector<std::string>& odd_extra = {}) {
  Sweep s;
  for (int m = 0; m < members; ++m) {
    s.configs.push_back(member_config(nodes, scheme, m, "cuda",
                                      m == odd ? odd_extra : std::vector<std::string>{}));
    s.problems.push_back(fhn::make_problem(s.configs.back()));
  }
  s.batch = fhn::make_cuda_member_batch(s.problems, s.configs[0].scheme);
  return s;
}

Snapshot member_state(const MemberBatch& batch, index_t m) {
  Snapshot snap;
  batch.snapshot(m, snap);
  return snap;
}

// The step in which the CPU run of `config` fails (its scheme throws NumericalError), -1 when
// none of the first `steps` does; the scheme is left where it failed.
index_t failing_step(const Config& config, index_t steps, std::unique_ptr<fhn::Scheme>& scheme) {
  scheme = fhn::make_scheme(config, fhn::make_problem(config));
  for (index_t step = 0; step < steps; ++step) {
    try {
      scheme->advance(1);
    } catch (const fhn::NumericalError&) {
      return step;
    }
  }
  return -1;
}

// The batch reports one failure, once: member `odd`'s Newton iteration in step `failing`.
void check_newton_failure(MemberBatch& batch, int odd, index_t failing) {
  const std::vector<fhn::MemberFailure> failures = batch.take_failures();
  REQUIRE(failures.size() == 1);
  CHECK(failures[0].member == odd);
  CHECK(failures[0].step == failing);
  CHECK(fhn::test::contains(failures[0].reason,
                            "Newton did not converge in step " + std::to_string(failing)));
  CHECK(batch.take_failures().empty());
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

struct Case {
  const char* name;
  const std::vector<std::string>* scheme;
  index_t steps;
};
const Case kCases[] = {{"explicit", &kExplicit, 300},
                       {"crank_nicolson trapezoidal", &kTrapezoidal, 60},
                       {"crank_nicolson leapfrog", &kLeapfrog, 60}};

}  // namespace

TEST_CASE("GPU sweep: every member equals its single CPU and single CUDA runs") {
  const std::pair<index_t, int> sizes[] = {{3, 37}, {33, 5}, {1001, 1}, {1001, 37}};
  for (const Case& c : kCases) {
    for (const auto& [nodes, members] : sizes) {
      CAPTURE(c.name);
      CAPTURE(nodes);
      CAPTURE(members);
      Sweep s = make_sweep(nodes, members, *c.scheme);
      CHECK(s.batch->members() == members);
      CHECK(s.batch->node_count() == nodes);
      CHECK(s.batch->name().find(std::to_string(members) + " member") != std::string::npos);
      CHECK(s.batch->name().find("(cuda, ") != std::string::npos);
      s.batch->advance(c.steps);
      s.batch->check_finite();
      CHECK(s.batch->take_failures().empty());
      CHECK(s.batch->steps_done() == c.steps);
      for (int m = 0; m < members; ++m) {
        CAPTURE(m);
        const Snapshot gpu = member_state(*s.batch, m);
        CHECK(gpu.step == c.steps);
        CHECK(gpu.coordinates(0) == s.problems[static_cast<std::size_t>(m)].domain.coordinates(0));
        const auto cpu = run_scheme(member_config(nodes, *c.scheme, m, "cpu"), c.steps);
        const auto single = run_scheme(member_config(nodes, *c.scheme, m, "cuda"), c.steps);
        CHECK(max_state_difference(gpu, cpu.state) < 1e-10);
        CHECK(max_state_difference(gpu, single.state) < 1e-10);
        const fhn::NewtonStats* stats = s.batch->newton_stats(m);
        REQUIRE((stats == nullptr) == (cpu.stats == nullptr));
        if (stats) {
          CHECK(stats->steps() == c.steps);
          CHECK(stats->mean_iterations() ==
                doctest::Approx(cpu.stats->mean_iterations()).epsilon(0.05));
        }
      }
    }
  }
}

TEST_CASE("GPU sweep with the cusparse batched solver equals the CPU") {
  std::vector<std::string> scheme = kTrapezoidal;
  scheme.push_back("scheme.crank_nicolson.tridiagonal=cusparse");
  Sweep s = make_sweep(33, 5, scheme);
  CHECK(s.batch->name().find("cusparse") != std::string::npos);
  s.batch->advance(60);
  for (int m = 0; m < 5; ++m) {
    CAPTURE(m);
    const auto cpu = run_scheme(member_config(33, kTrapezoidal, m, "cpu"), 60);
    CHECK(max_state_difference(member_state(*s.batch, m), cpu.state) < 1e-10);
  }
}

TEST_CASE("GPU sweep: advance() in pieces gives the same as one call, and sample() reads v") {
  for (const Case& c : kCases) {
    CAPTURE(c.name);
    Sweep whole = make_sweep(33, 37, *c.scheme);
    Sweep pieces = make_sweep(33, 37, *c.scheme);
    whole.batch->advance(c.steps);
    for (const index_t piece : {index_t{1}, index_t{7}, index_t{16}, c.steps - 24})
      pieces.batch->advance(piece);
    REQUIRE(pieces.batch->steps_done() == c.steps);
    const std::vector<index_t> nodes{0, 5, 16, 31, 32, 5};
    std::vector<double> samples;
    pieces.batch->sample(nodes, samples);
    REQUIRE(samples.size() == 37 * nodes.size());
    for (int m = 0; m < 37; ++m) {
      CAPTURE(m);
      const Snapshot a = member_state(*whole.batch, m), b = member_state(*pieces.batch, m);
      CHECK(same_bits(a.v, b.v));
      CHECK(same_bits(a.w, b.w));
      for (std::size_t k = 0; k < nodes.size(); ++k)
        CHECK(samples[m * nodes.size() + k] == b.v[static_cast<std::size_t>(nodes[k])]);
    }
    // The cached node list is refreshed when the nodes change.
    pieces.batch->advance(3);
    pieces.batch->sample({2}, samples);
    REQUIRE(samples.size() == 37);
    for (int m = 0; m < 37; ++m) CHECK(samples[m] == member_state(*pieces.batch, m).v[2]);
  }
}

TEST_CASE("GPU sweep: a Crank-Nicolson member whose Newton fails is frozen, the others go on") {
  for (const auto* scheme : {&kTrapezoidal, &kLeapfrog}) {
    const int odd = 2;
    const std::vector<std::string> huge{"stimulus[0].amplitude=1e10"};
    // The step in which the member's own CPU run fails.
    std::unique_ptr<fhn::Scheme> single;
    const index_t failing = failing_step(member_config(33, *scheme, odd, "cpu", huge), 40, single);
    REQUIRE(failing > 0);

    Sweep s = make_sweep(33, 5, *scheme, odd, huge);
    s.batch->advance(40);
    check_newton_failure(*s.batch, odd, failing);
    // Frozen at its last accepted state: its CPU run up to the failing step.
    const Snapshot frozen = member_state(*s.batch, odd);
    CHECK(frozen.step == failing);
    const auto before = run_scheme(member_config(33, *scheme, odd, "cpu", huge), failing);
    CHECK(max_state_difference(frozen, before.state) < 1e-10);
    s.batch->advance(25);
    s.batch->check_finite();
    CHECK(s.batch->take_failures().empty());
    const Snapshot later = member_state(*s.batch, odd);
    CHECK(same_bits(later.v, frozen.v));
    CHECK(same_bits(later.w, frozen.w));
    CHECK(s.batch->newton_stats(odd)->steps() == failing);
    for (int m = 0; m < 5; ++m) {
      if (m == odd) continue;
      CAPTURE(m);
      const auto cpu = run_scheme(member_config(33, *scheme, m, "cpu"), 65);
      CHECK(max_state_difference(member_state(*s.batch, m), cpu.state) < 1e-10);
    }
  }
}

TEST_CASE("GPU sweep: an explicit member that blows up is found, frozen, the others go on") {
  const int odd = 3;
  Sweep s = make_sweep(1001, 37, kExplicit, odd, {"stimulus[0].amplitude=1e8"});
  s.batch->advance(100);
  s.batch->check_finite();
  const std::vector<fhn::MemberFailure> failures = s.batch->take_failures();
  REQUIRE(failures.size() == 1);
  CHECK(failures[0].member == odd);
  CHECK(failures[0].step == 100);
  CHECK(fhn::test::contains(failures[0].reason, "the solution stopped being finite"));
  CHECK(fhn::test::contains(failures[0].reason, "(steps 0 to 100)"));
  const Snapshot frozen = member_state(*s.batch, odd);
  s.batch->advance(37);
  s.batch->check_finite();
  CHECK(s.batch->take_failures().empty());
  const Snapshot later = member_state(*s.batch, odd);
  CHECK(later.step == 100);
  CHECK(same_bits(later.v, frozen.v));
  CHECK(same_bits(later.w, frozen.w));
  for (int m = 0; m < 37; m += 6) {
    CAPTURE(m);
    const auto cpu = run_scheme(member_config(1001, kExplicit, m, "cpu"), 137);
    CHECK(max_state_difference(member_state(*s.batch, m), cpu.state) < 1e-10);
  }
}

TEST_CASE("GPU sweep: loss of diagonal dominance fails every member with the reason") {
  // A stimulus must meet a step t = 10 n: it starts at t = 0 (member 1 gives it an amplitude) or
  // is switched off (amplitude 0; member 2 moves it to [1.5, 2), which no step meets).
  Sweep s = make_sweep(33, 3, {"scheme.type=crank_nicolson", "time.dt=10", "time.end=100",
                               "output.every=10", "stimulus[0].start=0",
                               "stimulus[0].amplitude=0"});
  s.batch->advance(2);
  const std::vector<fhn::MemberFailure> failures = s.batch->take_failures();
  REQUIRE(failures.size() == 3);
  for (int m = 0; m < 3; ++m) {
    CHECK(failures[m].member == m);
    CHECK(fhn::test::contains(failures[m].reason, "not diagonally dominant"));
  }
}

TEST_CASE("GPU sweep refuses the schemes it cannot batch, naming the key") {
  // The capability table's refusal (make_member_batch asks it first), then the cuda batch's
  // own: a tridiagonal solver without a batched GPU form (thomas, the cpu default, kept when the
  // backend is switched to cuda). Both come before any device is touched.
  auto refusal = [](const std::vector<std::string>& scheme) {
    Config config = member_config(33, scheme, 0, "cpu");
    const Problem problem = fhn::make_problem(config);
    config.scheme.backend = fhn::Backend::cuda;
    return fhn::test::thrown_message<fhn::ConfigError>(
        [&] { fhn::make_member_batch({problem}, config.scheme, 1); });
  };
  CHECK(refusal({"scheme.type=adaptive_explicit"}) ==
        "scheme.backend: the adaptive_explicit scheme runs on the cpu backend only");
  const std::string thomas =
      "scheme.crank_nicolson.tridiagonal: thomas has no batched GPU form; the cuda sweep "
      "supports crank_nicolson with tridiagonal partitioned or cusparse";
  CHECK(refusal({"scheme.type=crank_nicolson", "scheme.crank_nicolson.formulation=adi"}) == thomas);
  CHECK(refusal({"scheme.type=crank_nicolson"}) == thomas);
}

TEST_CASE("GPU sweep: members of every kinetics form, each with its own parameters, equal the CPU") {
  // The member batches keep one set of form parameters per member: members differ in the form's
  // own keys. Barkley's stimulus drives v past 1, where the batch confines it as the CPU does.
  struct Form {
    const char* model;
    const char* initial;
    std::vector<std::string> (*variant)(int);
  };
  const Form forms[] = {
      {"model: {form: fitzhugh}\n",
       "initial: {v: {type: gaussian, width2: 4.0, amplitude: 2.5, background: -1.2},"
       " w: {type: constant, value: -0.62}}\n",
       [](int m) {
         return std::vector<std::string>{"model.tau_w=" + std::to_string(10.0 + m),
                                         "model.a=" + std::to_string(0.6 + 0.05 * m)};
       }},
      {"model: {form: barkley}\n",
       "initial: {v: {type: gaussian, width2: 4.0, amplitude: 1.0}, w: {type: constant, value: 0}}\n",
       [](int m) {
         return std::vector<std::string>{"model.eps=" + std::to_string(0.02 + 0.01 * m),
                                         "model.b=" + std::to_string(0.02 + 0.01 * m)};
       }},
  };
  const std::vector<std::string> schemes[] = {{"scheme.type=explicit"},
                                              {"scheme.type=crank_nicolson"}};
  const int members = 5;
  for (const Form& form : forms)
    for (const auto& scheme : schemes) {
      CAPTURE(std::string(form.model));
      CAPTURE(scheme[0]);
      const std::string yaml = std::string(form.model) + form.initial +
                               "domain: {length: 50, nodes: 101}\n"
                               "stimulus: [{x_min: 0, x_max: 5, start: 1, duration: 1, amplitude: 0.5}]\n"
                               "time: {end: 100, dt: 0.0125}\n"
                               "output: {vtk: false, spacetime: false}\n";
      auto config = [&](int m, const std::string& backend) {
        std::vector<std::string> o = scheme;
        const std::vector<std::string> variant = form.variant(m);
        o.insert(o.end(), variant.begin(), variant.end());
        o.push_back("scheme.backend=" + backend);
        return fhn::load_config_text(yaml, "test.yaml", o);
      };
      std::vector<Config> configs;
      std::vector<Problem> problems;
      for (int m = 0; m < members; ++m) {
        configs.push_back(config(m, "cuda"));
        problems.push_back(fhn::make_problem(configs.back()));
      }
      auto batch = fhn::make_cuda_member_batch(problems, configs[0].scheme);
      batch->advance(400);
      batch->check_finite();
      CHECK(batch->take_failures().empty());
      for (int m = 0; m < members; ++m) {
        CAPTURE(m);
        const auto cpu = run_scheme(config(m, "cpu"), 400);
        // Round-off: the batched partitioned solver against Thomas, amplified where Barkley's
        // confinement clips v at 1 (1.07e-10 for its first Crank-Nicolson member on an H200).
        CHECK(max_state_difference(member_state(*batch, m), cpu.state) < 2e-10);
      }
    }
}

namespace {

// A sheet of nx x ny nodes (dx = 0.5): a spiral start of Barkley's medium or a cubic medium with
// a gaussian, one rectangle stimulus; member m varies the form's parameters, D, the stimulus and
// a side's type.
Config sheet_member(index_t nx, index_t ny, bool barkley, int m, const std::string& backend,
                    const std::vector<std::string>& extra = {}) {
  const double lx = 0.5 * static_cast<double>(nx - 1), ly = 0.5 * static_cast<double>(ny - 1);
  const std::string text =
      std::string(barkley ? "model: {form: barkley, eps: 0.05}\n"
                            "initial: {v: {type: spiral}, w: {type: spiral}}\n"
                          : "model: {a: 0.1, epsilon: 0.01, gamma: 2.0}\n"
                            "initial: {v: {type: gaussian, width2: 4.0, amplitude: 1.0}, "
                            "w: {type: constant, value: 0}}\n") +
      "domain: {length: [" + std::to_string(lx) + ", " + std::to_string(ly) + "], dx: 0.5}\n"
      "stimulus:\n  - {x_min: 0, x_max: 2, y_min: 0, y_max: " + std::to_string(ly / 2) +
      ", start: 0.2, duration: 0.5, amplitude: 0.5}\n"
      "time: {end: 100, dt: 0.01}\noutput: {vtk: false}\n";
  std::vector<std::string> o{barkley ? "model.a=" + std::to_string(0.7 + 0.01 * m)
                                     : "model.a=" + std::to_string(0.08 + 0.01 * m)};
  switch (m % 4) {
    case 1: o.push_back("model.diffusion=1.3"); break;
    case 2: o.insert(o.end(), {"stimulus[0].start=0.5", "stimulus[0].amplitude=0.8"}); break;
    case 3: o.insert(o.end(), {"boundary.top.type=dirichlet", "boundary.top.value=0.1"}); break;
    default: break;
  }
  o.insert(o.end(), extra.begin(), extra.end());
  o.push_back("scheme.backend=" + backend);
  return fhn::load_config_text(text, "sheet.yaml", o);
}

// `all_extra` for every member (a scheme), then `odd_extra` for member `odd`.
Sweep make_sheet_sweep(index_t nx, index_t ny, bool barkley, int members, int odd = -1,
                       const std::vector<std::string>& odd_extra = {},
                       const std::vector<std::string>& all_extra = {}) {
  Sweep s;
  for (int m = 0; m < members; ++m) {
    std::vector<std::string> extra = all_extra;
    if (m == odd) extra.insert(extra.end(), odd_extra.begin(), odd_extra.end());
    s.configs.push_back(sheet_member(nx, ny, barkley, m, "cuda", extra));
    s.problems.push_back(fhn::make_problem(s.configs.back()));
  }
  s.batch = fhn::make_cuda_member_batch(s.problems, s.configs[0].scheme);
  return s;
}

// The mean and largest Newton iterations of two runs' statistics are the same numbers.
void check_same_stats(const fhn::NewtonStats* a, const fhn::NewtonStats* b) {
  REQUIRE(a != nullptr);
  REQUIRE(b != nullptr);
  CHECK(a->steps() == b->steps());
  CHECK(a->mean_iterations() == b->mean_iterations());
  CHECK(a->max_iterations() == b->max_iterations());
  CHECK(a->convergence_order() == b->convergence_order());
}

// Advances the sweep by `first`, then to `steps`, and checks every member against its CPU run
// (the CPU config with `cpu_scheme`) to 1e-10 and its single CUDA run (`gpu_scheme`) bit for bit,
// Newton statistics included where the scheme has them (two reaction half-steps a step).
void check_sheet_members(Sweep& s, index_t nx, index_t ny, bool barkley,
                         const std::vector<std::string>& gpu_scheme,
                         const std::vector<std::string>& cpu_scheme, index_t first, index_t steps) {
  s.batch->advance(first);
  s.batch->advance(steps - first);
  s.batch->check_finite();
  CHECK(s.batch->take_failures().empty());
  for (int m = 0; m < static_cast<int>(s.configs.size()); ++m) {
    CAPTURE(m);
    const Snapshot gpu = member_state(*s.batch, m);
    CHECK(gpu.step == steps);
    const auto cpu = run_scheme(sheet_member(nx, ny, barkley, m, "cpu", cpu_scheme), steps);
    const auto single = run_scheme(sheet_member(nx, ny, barkley, m, "cuda", gpu_scheme), steps);
    CHECK(max_state_difference(gpu, cpu.state) < 1e-10);
    CHECK(same_bits(gpu.v, single.state.v));
    CHECK(same_bits(gpu.w, single.state.w));
    const fhn::NewtonStats* stats = s.batch->newton_stats(m);
    REQUIRE((stats == nullptr) == (single.stats == nullptr));
    if (!stats) continue;
    CHECK(stats->steps() == 2 * steps);
    check_same_stats(stats, single.stats);
  }
}

}  // namespace

TEST_CASE("GPU sweep of sheets: every member equals its CPU run and, bit for bit, its CUDA run") {
  struct Size {
    index_t nx, ny;
    int members;
  };
  // Odd and even widths, a sheet smaller than one region, several regions with inner blocks.
  const Size sizes[] = {{3, 3, 3}, {33, 21, 5}, {67, 45, 4}, {130, 131, 3}};
  for (const bool barkley : {false, true}) {
    for (const Size& z : sizes) {
      if (barkley && z.nx < 21) continue;  // the spiral start needs room for its core
      CAPTURE(barkley);
      CAPTURE(z.nx);
      CAPTURE(z.ny);
      Sweep s = make_sheet_sweep(z.nx, z.ny, barkley, z.members);
      CHECK(s.batch->name().find("on a sheet, " + std::to_string(z.members) + " member") !=
            std::string::npos);
      // 123 steps: passes of 6 and a shorter one.
      check_sheet_members(s, z.nx, z.ny, barkley, {}, {}, 100, 123);
    }
  }
}

TEST_CASE("GPU sweep of sheets: a member that blows up is frozen where it stood, the others go on") {
  const int odd = 2;
  Sweep s = make_sheet_sweep(67, 45, false, 4, odd, {"stimulus[0].amplitude=1e10"});
  s.batch->advance(60);
  s.batch->check_finite();
  const std::vector<fhn::MemberFailure> failures = s.batch->take_failures();
  REQUIRE(failures.size() == 1);
  CHECK(failures[0].member == odd);
  CHECK(fhn::test::contains(failures[0].reason, "the solution stopped being finite"));
  CHECK(fhn::test::contains(failures[0].reason, ", y = "));  // a sheet's position
  const Snapshot frozen = member_state(*s.batch, odd);
  s.batch->advance(31);
  CHECK(member_state(*s.batch, odd).step == 60);
  CHECK(same_bits(member_state(*s.batch, odd).v, frozen.v));
  for (int m : {0, 3}) {
    CAPTURE(m);
    const auto cpu = run_scheme(sheet_member(67, 45, false, m, "cpu"), 91);
    CHECK(max_state_difference(member_state(*s.batch, m), cpu.state) < 1e-10);
  }
}

TEST_CASE("GPU sweep of sheets: the cells where tips may lie are the host scan's, corners and all") {
  // Spiral starts of Barkley's medium (many straddling cells), members with their own levels.
  Sweep s = make_sheet_sweep(130, 131, true, 3);
  s.batch->advance(250);
  const std::vector<fhn::real> v_iso{0.5, 0.4, 0.6}, w_iso{0.3, 0.2, 0.35};
  std::vector<std::vector<fhn::IsoCell>> gpu, host;
  std::vector<fhn::index_t> gpu_excited, host_excited;
  s.batch->iso_cells(v_iso, w_iso, gpu, gpu_excited);
  s.batch->MemberBatch::iso_cells(v_iso, w_iso, host, host_excited);  // snapshots, on the host
  REQUIRE(gpu.size() == 3);
  CHECK(gpu_excited == host_excited);
  for (int m = 0; m < 3; ++m) {
    CAPTURE(m);
    CHECK(gpu_excited[m] > 100);
    REQUIRE(gpu[m].size() == host[m].size());
    CHECK(!gpu[m].empty());
    for (std::size_t c = 0; c < gpu[m].size(); ++c) {
      CHECK(gpu[m][c].i == host[m][c].i);
      CHECK(gpu[m][c].j == host[m][c].j);
      CHECK(std::memcmp(gpu[m][c].v, host[m][c].v, sizeof gpu[m][c].v) == 0);
      CHECK(std::memcmp(gpu[m][c].w, host[m][c].w, sizeof gpu[m][c].w) == 0);
    }
  }
  // More cells than the first buffer holds (64 per member): levels every front crosses.
  const std::vector<fhn::real> everywhere{0.0, 0.0, 0.0};
  s.batch->iso_cells(everywhere, everywhere, gpu, gpu_excited);
  s.batch->MemberBatch::iso_cells(everywhere, everywhere, host, host_excited);
  for (int m = 0; m < 3; ++m) CHECK(gpu[m].size() == host[m].size());
}

namespace {

// The split Crank-Nicolson scheme (formulation adi): 4x the explicit dt of the sheets above.
const std::vector<std::string> kAdiSheet{"scheme.type=crank_nicolson", "time.dt=0.04"};
// On a cable: member_variant's first-order no-flux ends are the explicit scheme's alone.
const std::vector<std::string> kAdiCable{"scheme.type=crank_nicolson",
                                         "scheme.crank_nicolson.formulation=adi",
                                         "boundary.no_flux_order=2"};

}  // namespace

TEST_CASE("GPU sweep of ADI sheets: every member equals its CPU run and, bit for bit, its CUDA run") {
  struct Size {
    index_t nx, ny;
    int members;
  };
  // Members 1 (D = 1.3) and 3 (a Dirichlet top) have line matrices of their own: the solves run
  // over several runs of members. 300 steps span two batches of logs (256 steps each at most).
  const Size sizes[] = {{3, 3, 3}, {33, 21, 5}, {67, 45, 4}, {130, 131, 3}};
  for (const char* solver : {"partitioned", "cusparse"}) {
    for (const bool barkley : {false, true}) {
      for (const Size& z : sizes) {
        if (barkley && z.nx < 21) continue;  // the spiral start needs room for its core
        CAPTURE(solver);
        CAPTURE(barkley);
        CAPTURE(z.nx);
        CAPTURE(z.ny);
        std::vector<std::string> scheme = kAdiSheet;
        scheme.push_back(std::string("scheme.crank_nicolson.tridiagonal=") + solver);
        Sweep s = make_sheet_sweep(z.nx, z.ny, barkley, z.members, -1, {}, scheme);
        CHECK(s.batch->name().find("Peaceman-Rachford ADI on a sheet, " +
                                   std::to_string(z.members) + " member") != std::string::npos);
        CHECK(s.batch->name().find(solver) != std::string::npos);
        check_sheet_members(s, z.nx, z.ny, barkley, scheme, kAdiSheet, 37, 300);
      }
    }
  }
}

TEST_CASE("GPU sweep of ADI cables: every member equals its CPU run and, bit for bit, its CUDA run") {
  for (const auto& [nodes, members] : {std::pair<index_t, int>{3, 7}, {1001, 6}}) {
    CAPTURE(nodes);
    Sweep s;
    for (int m = 0; m < members; ++m) {
      s.configs.push_back(member_config(nodes, {}, m, "cuda", kAdiCable));
      s.problems.push_back(fhn::make_problem(s.configs.back()));
    }
    s.batch = fhn::make_cuda_member_batch(s.problems, s.configs[0].scheme);
    CHECK(s.batch->name().find("diffusion by Crank-Nicolson, " + std::to_string(members)) !=
          std::string::npos);
    s.batch->advance(60);
    s.batch->advance(40);
    for (int m = 0; m < members; ++m) {
      CAPTURE(m);
      const Snapshot gpu = member_state(*s.batch, m);
      const auto cpu = run_scheme(member_config(nodes, {}, m, "cpu", kAdiCable), 100);
      const auto single = run_scheme(member_config(nodes, {}, m, "cuda", kAdiCable), 100);
      CHECK(max_state_difference(gpu, cpu.state) < 1e-10);
      CHECK(same_bits(gpu.v, single.state.v));
      CHECK(same_bits(gpu.w, single.state.w));
      check_same_stats(s.batch->newton_stats(m), single.stats);
    }
  }
}

TEST_CASE("GPU sweep of ADI sheets: a member whose reaction Newton fails is reported and frozen") {
  const int odd = 1;
  const std::vector<std::string> huge{"stimulus[0].amplitude=1e10"};
  // The step in which the member's own CPU run fails.
  std::vector<std::string> own = kAdiSheet;
  own.insert(own.end(), huge.begin(), huge.end());
  std::unique_ptr<fhn::Scheme> single;
  const index_t failing = failing_step(sheet_member(33, 21, false, odd, "cpu", own), 60, single);
  REQUIRE(failing >= 0);

  Sweep s = make_sheet_sweep(33, 21, false, 4, odd, huge, kAdiSheet);
  s.batch->advance(60);
  check_newton_failure(*s.batch, odd, failing);
  // Frozen where the host read the log (the end of the call): later steps leave it alone.
  const Snapshot frozen = member_state(*s.batch, odd);
  CHECK(frozen.step == 60);
  s.batch->advance(25);
  s.batch->check_finite();
  CHECK(s.batch->take_failures().empty());
  const Snapshot later = member_state(*s.batch, odd);
  CHECK(later.step == 60);
  CHECK(same_bits(later.v, frozen.v));
  CHECK(same_bits(later.w, frozen.w));
  // The half-steps that converged before the failing one, as in the member's CPU run.
  CHECK(s.batch->newton_stats(odd)->steps() == single->newton_stats()->steps());
  for (int m : {0, 2, 3}) {
    CAPTURE(m);
    const auto cpu = run_scheme(sheet_member(33, 21, false, m, "cpu", kAdiSheet), 85);
    CHECK(max_state_difference(member_state(*s.batch, m), cpu.state) < 1e-10);
  }
}

TEST_CASE("GPU sweep of sheets with measure.planar: classes and planar pulses are the CPU sweep's") {
  // Winfree's scaling at eps = 0.3 (tests/unit/test_sweep_sheets.cpp): a rigid spiral at
  // beta = 0.7, retract at 0.88 (between dR and dP), no_propagation at 1.0 (beyond dP).
  fhn::test::TempDir dir;
  const auto cpu = fhn::test::winfree_planar_sweep(dir.path(), "cpu", {"scheme.backend=cpu"});
  const auto gpu = fhn::test::winfree_planar_sweep(dir.path(), "cuda", {"scheme.backend=cuda"});
  REQUIRE(cpu.size() == 4);
  REQUIRE(gpu.size() == 4);
  const auto& h = cpu[0];
  const char* classes[] = {"rigid", "retract", "no_propagation"};
  for (std::size_t r = 1; r < 4; ++r) {
    CAPTURE(r);
    CHECK(gpu[r][fhn::test::column(h, "class")] == classes[r - 1]);
    CHECK(gpu[r][fhn::test::column(h, "class")] == cpu[r][fhn::test::column(h, "class")]);
    CHECK(gpu[r][fhn::test::column(h, "planar_propagated")] ==
          cpu[r][fhn::test::column(h, "planar_propagated")]);
  }
  for (std::size_t r = 1; r <= 2; ++r)
    CHECK(std::stod(gpu[r][fhn::test::column(h, "planar_speed")]) ==
          doctest::Approx(std::stod(cpu[r][fhn::test::column(h, "planar_speed")])).epsilon(1e-9));
}

namespace {

// The activation times of members 1 and 3 (3 without the last ones) of a batch of `members`,
// recorded over `steps` steps advanced in two calls (the first `first`): the GPU batch's, the CPU
// batch's (the same configs on the CPU) and, `with_single`, member 1's single CUDA scheme's of its
// config. `config(m, backend)`: member m's config.
struct RecordedMembers {
  std::vector<Snapshot> gpu, cpu;
  Snapshot single;  // member 1's (with_single)
};
RecordedMembers record_members(const std::function<Config(int, const std::string&)>& config,
                               int members, index_t first, index_t steps, bool with_single = true) {
  std::vector<Problem> gpu_problems, cpu_problems;
  for (int m = 0; m < members; ++m) {
    gpu_problems.push_back(fhn::make_problem(config(m, "cuda")));
    cpu_problems.push_back(fhn::make_problem(config(m, "cpu")));
  }
  const auto gpu = fhn::make_cuda_member_batch(gpu_problems, config(0, "cuda").scheme);
  const auto cpu = fhn::make_member_batch(cpu_problems, config(0, "cpu").scheme);
  for (MemberBatch* batch : {gpu.get(), cpu.get()}) {
    batch->record_activation(1, 0.5, true);
    batch->record_activation(3, 0.5, false);
    batch->advance(first);
    batch->advance(steps - first);
  }
  RecordedMembers out;
  for (int m = 0; m < members; ++m) {
    out.gpu.push_back(member_state(*gpu, m));
    out.cpu.push_back(member_state(*cpu, m));
  }
  if (!with_single) return out;
  const Config one = config(1, "cuda");
  const auto single = fhn::make_scheme(one, fhn::make_problem(one));
  single->record_activation(0.5, true);
  single->advance(steps);
  single->snapshot(out.single);
  return out;
}

// sheet_member's stimulus at amplitude 5: the strip it covers fires a wave across the sheet
// (at its 0.5 the members' sheets stay at rest: no node would activate, and the checks of the
// recorded times would hold vacuously).
const char* const kStrongStimulus = "stimulus[0].amplitude=5";

index_t activated(const std::vector<double>& first) {
  return std::count_if(first.begin(), first.end(), [](double t) { return !std::isnan(t); });
}

// Members 1 and 3 carry their times (3 its first ones alone), the others none; the GPU batch's
// state and member 1's times are its single CUDA run's, bit for bit (recording changes no bit).
void check_recorded_shape(const RecordedMembers& r, std::size_t nodes) {
  for (std::size_t m = 0; m < r.gpu.size(); ++m) {
    CAPTURE(m);
    const bool records = m == 1 || m == 3;
    CHECK(r.gpu[m].activation_first.size() == (records ? nodes : 0));
    CHECK(r.cpu[m].activation_first.size() == (records ? nodes : 0));
    CHECK(r.gpu[m].activation_last.size() == (m == 1 ? nodes : 0));
    CHECK(r.cpu[m].activation_last.size() == (m == 1 ? nodes : 0));
  }
  CHECK(activated(r.gpu[1].activation_first) > 20);
  CHECK(same_bits(r.gpu[1].v, r.single.v));
  CHECK(same_bits(r.gpu[1].activation_first, r.single.activation_first));
  CHECK(same_bits(r.gpu[1].activation_last, r.single.activation_last));
}

// The largest difference of the GPU batch's times from the CPU batch's (members 1 and 3, first
// and last), where both saw the same nodes activate.
double worst_time_difference(const RecordedMembers& r) {
  double worst = 0.0;
  for (int m : {1, 3})
    for (const auto member : {&Snapshot::activation_first, &Snapshot::activation_last}) {
      const std::vector<double>& g = r.gpu[m].*member;
      const std::vector<double>& c = r.cpu[m].*member;
      REQUIRE(g.size() == c.size());
      for (std::size_t i = 0; i < g.size(); ++i) {
        REQUIRE(std::isnan(g[i]) == std::isnan(c[i]));
        if (!std::isnan(c[i])) worst = std::max(worst, std::abs(g[i] - c[i]));
      }
    }
  return worst;
}

}  // namespace

TEST_CASE("GPU sweep of sheets: the members asked for record every step's activation times, "
          "bit for bit the CPU batch's") {
  // Forward Euler: the same v at every step as the CPU (no FMA contraction) and the same
  // crossing expression; the blocked kernel runs one step a pass while members record.
  for (const auto& [nx, ny] : {std::pair<index_t, index_t>{67, 45}, {130, 131}}) {
    CAPTURE(nx);
    const RecordedMembers r = record_members(
        [&](int m, const std::string& backend) {
          return sheet_member(nx, ny, false, m, backend, {kStrongStimulus});
        },
        5, 37, 401);
    check_recorded_shape(r, static_cast<std::size_t>(nx * ny));
    for (int m : {1, 3}) {
      CAPTURE(m);
      CHECK(same_bits(r.gpu[m].v, r.cpu[m].v));
      CHECK(same_bits(r.gpu[m].activation_first, r.cpu[m].activation_first));
      CHECK(same_bits(r.gpu[m].activation_last, r.cpu[m].activation_last));
    }
  }
}

TEST_CASE("GPU sweep of ADI sheets and Crank-Nicolson cables: the members asked for record "
          "every step's activation times, their single CUDA run's and the CPU batch's to "
          "rounding") {
  // ADI: the reaction halves of a step run apart while members record (the same bits as fused);
  // its tridiagonal solvers are not the CPU's, so the times agree with the CPU's to rounding.
  const RecordedMembers adi = record_members(
      [](int m, const std::string& backend) {
        std::vector<std::string> extra = kAdiSheet;
        extra.push_back(kStrongStimulus);
        return sheet_member(67, 45, false, m, backend, extra);
      },
      5, 37, 150);
  check_recorded_shape(adi, 67 * 45);
  const double adi_worst = worst_time_difference(adi);
  MESSAGE("largest difference of the ADI batch's activation times, GPU - CPU: ", adi_worst);
  CHECK(adi_worst < 1e-9);

  // A cable of Crank-Nicolson / Newton members (fhn run's cable records no map: its single CUDA
  // scheme records none, so only the CPU batch compares, to Newton's tolerance, 1e-10 in v, over
  // a step's rise of v).
  const RecordedMembers cn = record_members(
      [](int m, const std::string& backend) { return member_config(401, kTrapezoidal, m, backend); },
      5, 23, 200, false);
  CHECK(activated(cn.gpu[1].activation_first) > 20);
  const double cn_worst = worst_time_difference(cn);
  MESSAGE("largest difference of the Crank-Nicolson batch's activation times, GPU - CPU: ", cn_worst);
  CHECK(cn_worst < 1e-8);
}

TEST_CASE("GPU sweep: read_nodes gives one member's v and w at the nodes asked for, its snapshot's") {
  Sweep s = make_sheet_sweep(67, 45, false, 4);
  s.batch->advance(123);
  const std::vector<std::vector<index_t>> asked{{0, 1, 66, 67, 1500, 67 * 45 - 1, 1500}, {2000}};
  std::vector<double> v, w;
  for (int m = 0; m < 4; ++m) {
    CAPTURE(m);
    const Snapshot state = member_state(*s.batch, m);
    for (const std::vector<index_t>& nodes : asked) {
      s.batch->read_nodes(m, nodes, v, w);
      std::vector<double> want_v, want_w;
      for (const index_t node : nodes) {
        want_v.push_back(state.v[static_cast<std::size_t>(node)]);
        want_w.push_back(state.w[static_cast<std::size_t>(node)]);
      }
      CHECK(same_bits(v, want_v));
      CHECK(same_bits(w, want_w));
    }
  }
  const std::string refused =
      fhn::test::thrown_message<fhn::InternalError>([&] { s.batch->read_nodes(4, {0}, v, w); });
  CHECK(fhn::test::contains(refused, "cuda sweep: no member 4"));
}
