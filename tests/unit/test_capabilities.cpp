// The capability table (config/capabilities.hpp): it lets run exactly what ran before it replaced
// the if-chains of the factories, the loader and the sweep's plan (written out here as the
// oracle), every factory builds what it lets run and refuses the rest with its message at its
// key, the messages users met before are kept, and configs/README.md shows it as it renders.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "config/capabilities.hpp"
#include "model/problem.hpp"
#include "parallel/communicator.hpp"
#include "schemes/member_batch.hpp"
#include "schemes/scheme.hpp"
#include "support.hpp"

namespace {

using fhn::capability::Backend;
using fhn::capability::Dimension;
using fhn::capability::Key;
using fhn::capability::Medium;
using fhn::capability::Mode;
using fhn::capability::Scheme;
using fhn::test::contains;

const Scheme kSchemes[] = {Scheme::explicit_euler, Scheme::adaptive_explicit,
                           Scheme::crank_nicolson, Scheme::adi};
const Dimension kDimensions[] = {Dimension::cable, Dimension::sheet, Dimension::box};
const Mode kModes[] = {Mode::one_process, Mode::slabs, Mode::members};
const Backend kBackends[] = {Backend::cpu, Backend::cuda};

// What ran before the table, per scheme (rows of 3: cable, sheet, box) and per mode and backend
// (one process cpu, cuda; ranks cpu, cuda; sweep cpu, cuda): '-' refused, 'u' a uniform medium
// only, 'i' also a tissue mask and per-node parameters, 'a' also an anisotropic tensor. From
// scheme.cpp (make_scheme, build_slab_scheme), cuda_schemes.cu, model/parameter_fields.cpp
// (require_uniform_fields), config/checks.cpp, member_batch.cpp and sweep/plan.cpp as they were.
const char* const kBefore[4][3] = {
    {"uu--uu", "aaauuu", "uuuu--"},  // explicit
    {"u-----", "------", "------"},  // adaptive_explicit
    {"uuuuuu", "------", "------"},  // crank_nicolson, newton
    {"uu--uu", "iiuuuu", "uuuu--"},  // crank_nicolson, adi
};

Medium medium_part(int part) {
  Medium m;
  m.mask = part == 0;
  m.per_node = part == 1;
  m.tensor = part == 2;
  return m;
}

// A small grid of `dimension` the loader takes with any scheme it runs.
std::string grid_yaml(Dimension dimension) {
  const char* domain = dimension == Dimension::cable   ? "{length: 4, dx: 0.5}"
                       : dimension == Dimension::sheet ? "{length: [4, 4], dx: 0.5}"
                                                       : "{length: [2, 2, 2], dx: 0.5}";
  return std::string("domain: ") + domain +
         "\ntime: {end: 0.1, dt: 0.01}\noutput: {vtk: false, spacetime: false, probes: []}\n";
}

// The scheme: section of key's scheme and backend.
std::string scheme_yaml(const Key& key) {
  const char* type = key.scheme == Scheme::explicit_euler      ? "explicit"
                     : key.scheme == Scheme::adaptive_explicit ? "adaptive_explicit"
                                                               : "crank_nicolson";
  return std::string("scheme: {type: ") + type +
         ", backend: " + (key.backend == Backend::cuda ? "cuda" : "cpu") +
         ", crank_nicolson: {formulation: " + (key.scheme == Scheme::adi ? "adi" : "newton") +
         "}}\n";
}

// The config of `key`'s grid (the explicit scheme on the CPU, which the loader takes) with key's
// scheme and backend set by hand, as a Problem built by hand meets a factory (the loader refuses
// some of them first): the scheme's settings as the loader resolves them on a CPU cable.
fhn::Config config_of(const Key& key) {
  fhn::Config c = fhn::test::config_from(grid_yaml(key.dimension));
  const Key cpu_cable{key.scheme, Dimension::cable, {}, Mode::one_process, Backend::cpu};
  c.scheme = fhn::test::config_from(grid_yaml(Dimension::cable) + scheme_yaml(cpu_cable)).scheme;
  if (key.backend == Backend::cuda) {
    c.scheme.backend = fhn::Backend::cuda;
    c.scheme.crank_nicolson.tridiagonal = fhn::solvers::TridiagonalBackend::partitioned;
  }
  return c;
}

// The Problem of `c` with `medium` put in by hand: per-node D, an all-tissue mask, a tensor.
fhn::Problem problem_of(const fhn::Config& c, const Medium& medium) {
  fhn::Problem p = fhn::make_problem(c);
  const std::size_t n = p.v0.size();
  if (medium.per_node) p.fields.diffusion.values.assign(n, 1.0);
  if (medium.mask) p.fields.node_type.assign(n, 0);
  if (medium.tensor) p.fields.tensor = {true, 1.0, 0.0, 0.5, {}, {}, {}};
  return p;
}

// What the factory of key.mode gives: "" when it builds, "device" when it stops at the device
// (a build without CUDA, or no GPU), else the ConfigError's message.
std::string factory_outcome(const Key& key) {
  const fhn::Config c = config_of(key);
  const fhn::Problem p = problem_of(c, key.medium);
  try {
    bool built = false;
    if (key.mode == Mode::one_process) {
      built = fhn::make_scheme(c, p) != nullptr;
    } else if (key.mode == Mode::slabs) {
      const auto comm = fhn::make_serial_communicator();
      built = fhn::make_slab_scheme(c, p, *comm) != nullptr;
    } else {
      built = fhn::make_member_batch({p, p}, c.scheme, 1) != nullptr;
    }
    CHECK(built);
  } catch (const fhn::ConfigError& e) {
    return e.what();
  } catch (const fhn::DeviceError&) {
    return "device";
  }
  return "";
}

// The refusal as the factory of key.mode throws it: located at the key on slabs.
std::string factory_message(const Key& key, const fhn::capability::Refusal& refused) {
  const std::string text = refused.key.empty() ? refused.message
                                               : refused.key + ": " + refused.message;
  if (key.mode != Mode::slabs || refused.key.empty()) return text;
  return config_of(key).where(refused.key) + ": " + text;
}

}  // namespace

TEST_CASE("the capability table lets run what ran before it, on the media that ran") {
  for (int s = 0; s < 4; ++s)
    for (int d = 0; d < 3; ++d)
      for (int m = 0; m < 3; ++m)
        for (int b = 0; b < 2; ++b) {
          const char before = kBefore[s][d][2 * m + b];
          Key key{kSchemes[s], kDimensions[d], {}, kModes[m], kBackends[b]};
          CAPTURE(s);
          CAPTURE(d);
          CAPTURE(m);
          CAPTURE(b);
          CHECK(fhn::capability::refusals(key).empty() == (before != '-'));
          for (int part = 0; part < 3; ++part) {
            CAPTURE(part);
            key.medium = medium_part(part);
            const bool ran = before == 'a' || (before == 'i' && part < 2);
            CHECK(fhn::capability::refusals(key).empty() == ran);
          }
        }
}

TEST_CASE("every factory builds what the capability table lets run and refuses the rest at its key") {
  for (const Scheme scheme : kSchemes)
    for (const Dimension dimension : kDimensions)
      for (const Mode mode : kModes)
        for (const Backend backend : kBackends)
          for (int part = -1; part < 3; ++part) {
            Key key{scheme, dimension, part < 0 ? Medium{} : medium_part(part), mode, backend};
            if (key.medium.per_node) key.medium.parameters = "model.diffusion";
            CAPTURE(static_cast<int>(scheme));
            CAPTURE(static_cast<int>(dimension));
            CAPTURE(static_cast<int>(mode));
            CAPTURE(static_cast<int>(backend));
            CAPTURE(part);
            const std::vector<fhn::capability::Refusal> refused = fhn::capability::refusals(key);
            const std::string outcome = factory_outcome(key);
            if (!refused.empty())
              CHECK(outcome == factory_message(key, refused.front()));
            else if (backend == Backend::cpu)
              CHECK(outcome == "");
            else  // built on a GPU; stopped at the device without one
              CHECK((outcome == "" || outcome == "device"));
          }
}

TEST_CASE("the loader refuses what the capability table refuses in one process, at the key") {
  for (const Scheme scheme : kSchemes)
    for (const Dimension dimension : kDimensions)
      for (const Backend backend : kBackends) {
        const Key key{scheme, dimension, {}, Mode::one_process, backend};
        const std::string yaml = grid_yaml(dimension) + scheme_yaml(key);
        CAPTURE(yaml);
        const std::string error = fhn::test::config_error(yaml);
        const std::vector<fhn::capability::Refusal> refused = fhn::capability::refusals(key);
        if (refused.empty()) CHECK(error == "");
        // Each refusal listed, located at its key ("test.yaml:4:16: scheme.type: ...").
        for (const fhn::capability::Refusal& r : refused)
          CHECK(contains(error + "\n", ": " + r.key + ": " + r.message + "\n"));
      }
}

TEST_CASE("the refusals keep the messages users met before the table") {
  using fhn::test::config_error;
  const std::string sheet = "domain: {length: [4, 4], dx: 0.5}\ntime: {end: 0.1, dt: 0.01}\n";
  CHECK(config_error(sheet + "scheme: {type: adaptive_explicit}\n") ==
        "invalid configuration:\n  test.yaml:3:16: scheme.type: adaptive_explicit works on cables "
        "only (domain.length with one entry); on a sheet or a box use explicit");
  CHECK(contains(config_error(sheet + "scheme: {type: crank_nicolson, crank_nicolson: "
                                      "{formulation: newton}}\n"),
                 ": scheme.crank_nicolson.formulation: newton (the coupled system of a step) is "
                 "for cables; on a sheet or a box use adi (the default there)"));
  const std::string cable = "domain: {length: 4, dx: 0.5}\ntime: {end: 0.1, dt: 0.01}\n";
  CHECK(config_error(cable + "scheme: {type: adaptive_explicit, backend: cuda}\n") ==
        "invalid configuration:\n  test.yaml:3:44: scheme.backend: the adaptive_explicit scheme "
        "runs on the cpu backend only");

  // A medium the scheme does not read, named with what runs it.
  Key key{Scheme::adi, Dimension::sheet, {}, Mode::one_process, Backend::cpu};
  key.medium.tensor = true;
  const auto first = [](const Key& k) { return fhn::capability::refusals(k).at(0); };
  CHECK(first(key).key == "anisotropy");
  CHECK(first(key).message ==
        "anisotropic diffusion is not supported by crank_nicolson (formulation adi) on the cpu "
        "backend: its line solves take the second differences along x and along y implicitly, "
        "and the tensor's mixed term D_xy couples the lines (the reasons in configs/README.md, "
        "anisotropy); run it with scheme.type: explicit");
  key.mode = Mode::slabs;
  key.medium.mask = true;
  key.medium.per_node = true;
  key.medium.parameters = "model.diffusion, model.a";
  CHECK(first(key).key == "");
  CHECK(first(key).message ==
        "per-node parameters (model.diffusion, model.a, a tissue mask (tissue:), anisotropic "
        "diffusion (anisotropy:)) are not supported by crank_nicolson (formulation adi) on the "
        "cpu backend over several ranks yet: its kernels read one value of each parameter, the "
        "same at every node, and an isotropic D; a sheet with tissue: or fields: runs with "
        "scheme.type: explicit (in one process, or over several ranks on the cpu backend) or "
        "crank_nicolson (formulation adi, in one process), one with anisotropy: with explicit");

  // Several ranks: one message for both backends (cpu and cuda said it in two ways before).
  const Key slab{Scheme::explicit_euler, Dimension::cable, {}, Mode::slabs, Backend::cuda};
  CHECK(first(slab).key == "scheme.type");
  CHECK(first(slab).message ==
        "explicit on a cable with the cuda backend does not run on several ranks yet (explicit "
        "and crank_nicolson with formulation: adi on a sheet or a box, crank_nicolson with "
        "formulation: newton on a cable do); run it as one process, without mpirun");

  // Sweeps: the plan's messages (the member batches said the same in other words before).
  const Key box{Scheme::explicit_euler, Dimension::box, {}, Mode::members, Backend::cpu};
  CHECK(first(box).key == "domain.length");
  CHECK(first(box).message ==
        "the base config is a box (domain.length: [Lx, Ly, Lz]); sweeps run cables and sheets "
        "(domain.length: one or two numbers) of a uniform medium: a sweep does not take tissue:, "
        "fields:, anisotropy: or boxes. fhn run runs such a config, one at a time "
        "(configs/README.md, tissue:, says which schemes read it)");
  Key fibres{Scheme::explicit_euler, Dimension::sheet, {}, Mode::members, Backend::cuda};
  fibres.medium.tensor = true;
  CHECK(first(fibres).key == "anisotropy");
  CHECK(contains(first(fibres).message, "the base config has anisotropy:; sweeps run"));
  const Key adaptive{Scheme::adaptive_explicit, Dimension::cable, {}, Mode::members,
                     Backend::cpu};
  CHECK(first(adaptive).key == "scheme.type");
  CHECK(first(adaptive).message ==
        "adaptive_explicit moves each member's grid on its own, which lockstep members cannot "
        "share; sweep with explicit or crank_nicolson");
}

TEST_CASE("configs/README.md shows the capability table as fhn info --capabilities prints it") {
  const auto printed = fhn::test::run_cli({"info", "--capabilities"});
  CHECK(printed.code == 0);
  CHECK(printed.out == fhn::capability::markdown());
  const std::string readme = fhn::test::read_text(fhn::test::source_path("configs/README.md"));
  const std::size_t begin = readme.find(fhn::capability::kReadmeBegin);
  const std::size_t end = readme.find(fhn::capability::kReadmeEnd);
  REQUIRE(begin != std::string::npos);
  REQUIRE(end != std::string::npos);
  const std::size_t first = readme.find('\n', begin) + 1;
  REQUIRE(first <= end);
  // On a difference: tools/capabilities writes the table into configs/README.md.
  CHECK(readme.substr(first, end - first) == fhn::capability::markdown());
}
