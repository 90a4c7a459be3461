// Parameter fields (model/parameter_fields.hpp): a config without tissue:, fields: or
// anisotropy: gives uniform fields, the kinetics at a node through each form's parameter table
// (uniform: the run's form bit for bit), the checks of per-node values by message, and the
// refusal of fields by every factory of schemes and member batches that does not read them.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "model/parameter_fields.hpp"
#include "parallel/communicator.hpp"
#include "schemes/member_batch.hpp"
#include "support.hpp"

using fhn::real;
using fhn::test::thrown_message;

namespace {

// The parameters of a form as its table lists them.
template <class K>
std::vector<real> parameter_values(const K& k) {
  std::vector<real> values;
  K::parameters(k, [&](const char*, const real& value, const fhn::Interval&) {
    values.push_back(value);
  });
  return values;
}

bool same_bits(real a, real b) { return std::memcmp(&a, &b, sizeof(real)) == 0; }

// A five-node cable with the cubic form a = 0.1, epsilon = 0.5, gamma = 2, D = 1.
fhn::ModelParams five_node_model() { return {fhn::CubicKinetics{0.1, 0.5, 2.0}, 1.0}; }

const char* kCable =
    "name: fields\n"
    "domain: {length: 10, nodes: 21}\n"
    "time: {end: 1, dt: 0.05}\n"
    "output: {every: 0.5, probes: [5]}\n";

}  // namespace

TEST_CASE("make_problem: uniform fields, one per parameter of the form, for every config") {
  const fhn::Problem p = fhn::make_problem(fhn::test::config_from(kCable));
  CHECK(p.fields.uniform());
  CHECK(p.fields.diffusion.name == "diffusion");
  CHECK(p.fields.diffusion.uniform());
  REQUIRE(p.fields.kinetics.size() == 3);
  CHECK(p.fields.kinetics[0].name == "a");
  CHECK(p.fields.kinetics[1].name == "epsilon");
  CHECK(p.fields.kinetics[2].name == "gamma");
  for (const fhn::ParameterField& field : p.fields.kinetics) CHECK(field.uniform());
  CHECK(p.fields.node_type.empty());
  CHECK(p.fields.arrays().values == 0);
  CHECK_FALSE(p.fields.arrays().mask);
  // A hand-built Problem's default fields are uniform too.
  CHECK(fhn::ParameterFields{}.uniform());
}

TEST_CASE("ParameterFields: one per-node field or a mask makes them non-uniform, counted") {
  fhn::ParameterFields fields = fhn::uniform_fields(five_node_model());
  fields.kinetics[1].values.assign(5, 0.2);
  CHECK_FALSE(fields.uniform());
  CHECK(fields.arrays().values == 1);
  fields.diffusion.values.assign(5, 1.0);
  CHECK(fields.arrays().values == 2);
  CHECK_FALSE(fields.arrays().mask);
  fhn::ParameterFields mask_only;
  mask_only.node_type.assign(5, 0);
  CHECK_FALSE(mask_only.uniform());
  CHECK(mask_only.arrays().values == 0);
  CHECK(mask_only.arrays().mask);
}

TEST_CASE("kinetics_at on uniform fields is the run's form bit for bit, for every form") {
  for (const std::string& name : fhn::kinetics_names()) {
    CAPTURE(name);
    fhn::ModelParams model;
    REQUIRE(fhn::make_kinetics(name, model.kinetics));
    // Parameters that no default has, with every bit of the mantissa in use.
    fhn::with_kinetics(model.kinetics, [](auto& k) {
      int p = 0;
      k.parameters(k, [&](const char*, real& value, const fhn::Interval& range) {
        const real candidate = std::nextafter(value + 0.125 * ++p, 10.0);
        if (range.contains(candidate)) value = candidate;
      });
    });
    const fhn::ParameterFields uniform = fhn::uniform_fields(model);
    const fhn::ParameterFields hand_built;
    fhn::with_kinetics(model.kinetics, [&](const auto& k) {
      for (const fhn::ParameterFields* fields : {&uniform, &hand_built}) {
        const std::vector<real> expected = parameter_values(k);
        const std::vector<real> got = parameter_values(fhn::kinetics_at(k, *fields, 3));
        REQUIRE(got.size() == expected.size());
        for (std::size_t p = 0; p < got.size(); ++p) CHECK(same_bits(got[p], expected[p]));
      }
    });
  }
  const fhn::CubicKinetics cubic{0.1, 0.5, 2.0};
  const fhn::CubicKinetics at = fhn::kinetics_at(cubic, fhn::uniform_fields(five_node_model()), 4);
  CHECK(std::memcmp(&at, &cubic, sizeof(fhn::CubicKinetics)) == 0);
}

TEST_CASE("kinetics_at takes each per-node parameter at the node, for every form") {
  for (const std::string& name : fhn::kinetics_names()) {
    CAPTURE(name);
    fhn::ModelParams model;
    REQUIRE(fhn::make_kinetics(name, model.kinetics));
    fhn::ParameterFields fields = fhn::uniform_fields(model);
    // Parameter p at node i: 100 p + i (kinetics_at does not check ranges; check_fields does).
    for (std::size_t p = 0; p < fields.kinetics.size(); ++p)
      for (int i = 0; i < 6; ++i)
        fields.kinetics[p].values.push_back(100.0 * static_cast<real>(p) + i);
    fhn::with_kinetics(model.kinetics, [&](const auto& k) {
      const std::vector<real> got = parameter_values(fhn::kinetics_at(k, fields, 4));
      REQUIRE(got.size() == fields.kinetics.size());
      for (std::size_t p = 0; p < got.size(); ++p)
        CHECK(got[p] == 100.0 * static_cast<real>(p) + 4.0);
    });
  }
}

TEST_CASE("kinetics_at on the cubic form: a per-node epsilon, a and gamma stay uniform") {
  const fhn::ModelParams model = five_node_model();
  fhn::ParameterFields fields = fhn::uniform_fields(model);
  fields.kinetics[1].values = {0.01, 0.02, 0.03, 0.04, 0.05};
  const fhn::CubicKinetics& uniform = model.form<fhn::CubicKinetics>();
  const fhn::CubicKinetics at = fhn::kinetics_at(uniform, fields, 2);
  CHECK(at.a == 0.1);
  CHECK(at.epsilon == 0.03);
  CHECK(at.gamma == 2.0);
  CHECK(at.g(0.5, 0.1) == 0.03 * (0.5 - 2.0 * 0.1));
  CHECK(fhn::kinetics_at(uniform, fields, 0).epsilon == 0.01);
}

TEST_CASE("check_fields: per-node values in each parameter's interval, one per node") {
  const fhn::ModelParams model = five_node_model();
  const fhn::ParameterFields uniform = fhn::uniform_fields(model);
  CHECK_NOTHROW(fhn::check_fields(uniform, model, 5));
  CHECK_NOTHROW(fhn::check_fields(fhn::ParameterFields{}, model, 5));

  // The ends of closed intervals are allowed: a in [0, 1], epsilon >= 0; a mask of both types.
  fhn::ParameterFields good = uniform;
  good.kinetics[0].values = {0.0, 0.2, 0.5, 0.9, 1.0};
  good.kinetics[1].values = {0.0, 0.0, 0.1, 0.0, 0.0};
  good.diffusion.values = {1.0, 0.5, 1e-9, 2.0, 1.0};
  good.node_type = {0, 1, 1, 0, 0};
  CHECK_NOTHROW(fhn::check_fields(good, model, 5));

  auto config_error = [&](const fhn::ParameterFields& fields) {
    return thrown_message<fhn::ConfigError>([&] { fhn::check_fields(fields, model, 5); });
  };
  auto internal_error = [&](const fhn::ParameterFields& fields) {
    return thrown_message<fhn::InternalError>([&] { fhn::check_fields(fields, model, 5); });
  };
  fhn::ParameterFields bad = uniform;
  bad.diffusion.values = {1.0, 1.0, -1.0, 1.0, 1.0};
  CHECK(config_error(bad) ==
        "model.diffusion: the per-node value at node 2 is -1; expected a number >= 0");
  good.diffusion.values = {1.0, 1.0, 0.0, 1.0, 1.0};  // D = 0: a region cut off (a scar)
  CHECK_NOTHROW(fhn::check_fields(good, model, 5));
  bad = uniform;
  bad.tensor = {true, 1.0, 0.6, 0.25, {}, {}, {}};
  CHECK(config_error(bad) ==
        "anisotropy: the diffusion tensor (1, 0.6, 0.25) at node 0 is not positive definite");
  bad.tensor = {true, 1.0, 0.0, 0.25, {1.0, 1.0, 1.0, 1.0, 1.0}, {0.0, 0.0, 0.0, 0.0, 0.0},
                {0.25, 0.25, 0.25, -0.25, 0.25}};
  CHECK(config_error(bad) ==
        "anisotropy: the diffusion tensor (1, 0, -0.25) at node 3 is not positive definite");
  bad = uniform;
  bad.kinetics[0].values = {0.1, 0.1, 0.1, 0.1, 1.5};
  CHECK(config_error(bad) ==
        "model.a: the per-node value at node 4 is 1.5; expected a number in [0, 1]");
  bad = uniform;
  bad.kinetics[1].values = {std::nan(""), 0.1, 0.1, 0.1, 0.1};
  CHECK(config_error(bad) ==
        "model.epsilon: the per-node value at node 0 is nan; expected a number >= 0");
  bad = uniform;
  bad.kinetics[2].values = {2.0, std::numeric_limits<real>::infinity(), 2.0, 2.0, 2.0};
  CHECK(config_error(bad) ==
        "model.gamma: the per-node value at node 1 is inf; expected a number >= 0");
  bad = uniform;
  bad.node_type = {0, 0, 0, 2, 0};
  CHECK(config_error(bad) ==
        "node-type mask: node 3 has type 2; expected 0 (tissue) or 1 (outside)");

  bad = uniform;
  bad.kinetics[2].values = {2.0, 2.0, 2.0};
  CHECK(internal_error(bad) == "model.gamma: a per-node field of 3 values on a domain of 5 nodes; "
                               "expected one value per node");
  bad = uniform;
  bad.node_type.assign(6, 0);
  CHECK(internal_error(bad) ==
        "node-type mask: 6 entries on a domain of 5 nodes; expected one entry per node");
  bad = uniform;
  bad.kinetics.erase(bad.kinetics.begin() + 1);
  CHECK(internal_error(bad) == "parameter fields: the kinetics fields (a, gamma) are not the "
                               "parameters of model.form 'cubic' (a, epsilon, gamma)");
}

TEST_CASE("every factory that does not read fields refuses them, saying what runs them") {
  const std::string cable = kCable;
  struct Case {
    std::string yaml;
    std::string scheme;
  };
  const std::vector<Case> cases = {
      {cable + "scheme: {type: explicit}\n", "explicit on the cpu backend"},
      {cable + "scheme: {type: adaptive_explicit}\n", "adaptive_explicit on the cpu backend"},
      {cable + "scheme: {type: crank_nicolson}\n",
       "crank_nicolson (formulation newton) on the cpu backend"},
      // Refused before the backend is chosen: a build without CUDA says the same.
      {cable + "scheme: {type: crank_nicolson, backend: cuda}\n",
       "crank_nicolson (formulation newton) on the cuda backend"},
  };
  const std::string tail =
      " yet: its kernels read one value of each parameter, the same at every node, and an "
      "isotropic D; a sheet with tissue: or fields: runs with scheme.type: explicit (in one "
      "process, or over several ranks on the cpu backend) or crank_nicolson (formulation adi, "
      "in one process), one with anisotropy: with explicit";
  const auto comm = fhn::make_serial_communicator();
  for (const Case& c : cases) {
    CAPTURE(c.yaml);
    const fhn::Config config = fhn::test::config_from(c.yaml);
    fhn::Problem problem = fhn::make_problem(config);
    const std::size_t n = problem.v0.size();
    problem.fields.diffusion.values.assign(n, 1.0);
    problem.fields.kinetics[0].values.assign(n, 0.1);
    const std::string expected =
        "per-node parameters (model.diffusion, model.a) are not supported by " + c.scheme + tail;
    CHECK(thrown_message<fhn::ConfigError>([&] { fhn::make_scheme(config, problem); }) == expected);
    CHECK(thrown_message<fhn::ConfigError>([&] {
            fhn::make_slab_scheme(config, problem, *comm);
          }) == "per-node parameters (model.diffusion, model.a) are not supported by " +
                   c.scheme + " over several ranks" + tail);

    // A mask alone is refused too (only the explicit scheme and ADI on a sheet read one), and so
    // is an anisotropic tensor, saying what does run them.
    fhn::Problem masked = fhn::make_problem(config);
    masked.fields.node_type.assign(n, 0);
    masked.fields.tensor = {true, 1.0, 0.0, 0.5, {}, {}, {}};
    CHECK(thrown_message<fhn::ConfigError>([&] { fhn::make_scheme(config, masked); }) ==
          "per-node parameters (a tissue mask (tissue:), anisotropic diffusion (anisotropy:)) are "
          "not supported by " + c.scheme + tail);
  }

  // Member batches (fhn sweep): one member with a per-node parameter stops the batch, with the
  // sweep's own refusal of a medium (config/capabilities.hpp).
  for (const char* backend : {"cpu", "cuda"}) {
    CAPTURE(backend);
    const std::vector<fhn::Config> configs(
        2, fhn::test::config_from(cable + "scheme: {type: explicit, backend: " + backend + "}\n"));
    std::vector<fhn::Problem> problems = {fhn::make_problem(configs[0]),
                                          fhn::make_problem(configs[1])};
    problems[1].fields.kinetics[2].values.assign(problems[1].v0.size(), 2.0);
    CHECK(thrown_message<fhn::ConfigError>([&] { fhn::make_member_batch(problems, configs[0].scheme, 1); }) ==
          "fields: the base config has fields:; sweeps run cables and sheets (domain.length: one or two numbers) of a uniform "
          "medium: a sweep does not take tissue:, fields:, anisotropy: or boxes. fhn run runs "
          "such a config, one at a time (configs/README.md, tissue:, says which schemes read it)");
  }
}
