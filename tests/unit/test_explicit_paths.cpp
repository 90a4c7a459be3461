// The CPU explicit scheme's fast paths (the row loops whose interior vectorises) against its
// generic path (for_each_node over the point layer's explicit_update), bit for bit, on a cable, a
// sheet (uniform, masked, per-node fields, anisotropic) and a box, with stimuli and Dirichlet
// sides; and the generic path against the point function called node by node.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "model/tissue.hpp"
#include "schemes/explicit_cpu.hpp"
#include "support.hpp"

namespace {

using fhn::index_t;
using fhn::real;

fhn::Snapshot run(const fhn::Problem& p, fhn::ExplicitPath path, index_t steps,
                  bool expect_fast) {
  fhn::ExplicitCpu scheme(p, path);
  CHECK(scheme.fast_path() == expect_fast);
  scheme.advance(steps);
  fhn::Snapshot s;
  scheme.snapshot(s);
  return s;
}

// `steps` steps of the fast and the generic path of the scheme for `yaml`: the same bits at every
// node (and not a state that stays put: the run moves away from its start).
void check_paths_agree(const std::string& yaml, index_t steps, bool has_fast_path = true) {
  const fhn::Problem p = fhn::make_problem(fhn::test::config_from(yaml));
  const fhn::Snapshot fast = run(p, fhn::ExplicitPath::fast, steps, has_fast_path);
  const fhn::Snapshot generic = run(p, fhn::ExplicitPath::generic, steps, false);
  REQUIRE(fast.v.size() == p.v0.size());
  REQUIRE(generic.v.size() == p.v0.size());
  CHECK(fast.v != p.v0);
  std::size_t differing = 0;
  for (std::size_t c = 0; c < fast.v.size(); ++c)
    if (fast.v[c] != generic.v[c] || fast.w[c] != generic.w[c]) ++differing;
  CHECK(differing == 0);
}

// A stimulus at the low x end (and low y end: `kSheetStimulus`), on for the first time unit.
const std::string kStimulus =
    "stimulus:\n  - {x_min: 0, x_max: 2, start: 0, duration: 1, amplitude: 0.5}\n";
const std::string kSheetStimulus =
    "stimulus:\n  - {x_min: 0, x_max: 2, y_min: 0, y_max: 3, start: 0, duration: 1, "
    "amplitude: 0.5}\noutput: {probes: []}\n";

}  // namespace

TEST_CASE("explicit fast paths equal the generic path bit for bit: a cable") {
  const std::string cable = "domain: {length: 20, dx: 0.25}\ntime: {dt: 0.02}\n"
                            "initial: {v: {type: rectangle, x_min: 0, x_max: 3, value: 1}}\n" +
                            kStimulus;
  check_paths_agree(cable, 60);
  check_paths_agree(cable + "boundary: {no_flux_order: 1}\n", 60);
  check_paths_agree(cable + "boundary: {right: {type: dirichlet, value: 0.3}}\n"
                            "model: {form: fitzhugh, a: 0.7, b: 0.8, tau_v: 1.0, tau_w: 12.5, "
                            "diffusion: 1.0}\n",
                    60);
}

TEST_CASE("explicit fast paths equal the generic path bit for bit: a sheet") {
  const std::string sheet =
      "domain: {length: [12, 9], dx: 0.5}\ntime: {dt: 0.02}\n"
      "initial: {v: {type: rectangle, x_min: 0, x_max: 3, y_min: 0, y_max: 4, value: 1}}\n"
      "boundary: {left: {type: dirichlet, value: 0.2}, top: {type: dirichlet, value: 0.5}}\n" +
      kSheetStimulus;
  check_paths_agree(sheet, 40);
  // A tissue mask alone: the masked fast path (quadrant bytes; a node outside keeps its state).
  check_paths_agree(sheet + "tissue:\n  - {shape: disc, center: [6, 4.5], radius: 2, op: remove}\n",
                    40);
  // Per-node D and anisotropy run the generic path only (no CPU fast path is registered).
  check_paths_agree(sheet + "fields: [{parameter: diffusion, shape: rectangle, x_min: 7, "
                            "value: 2.5}]\n",
                    40, false);
  check_paths_agree(sheet + "anisotropy: {longitudinal: 1.0, transverse: 0.25, angle: 30}\n", 40,
                    false);
}

TEST_CASE("explicit fast paths equal the generic path bit for bit: a box") {
  check_paths_agree(
      "domain: {length: [5, 4, 3], dx: 0.5}\ntime: {dt: 0.01}\n"
      "initial: {v: {type: rectangle, x_min: 0, x_max: 1.5, value: 1}}\n"
      "boundary: {front: {type: dirichlet, value: 0.1}}\n" +
          kSheetStimulus,
      30);
}

TEST_CASE("the generic path steps every node by the point layer's update: a heterogeneous sheet") {
  // One step of ExplicitCpu (for_each_node over the owned box) against explicit_update with the
  // per-node D, the anisotropic tensor and a per-node kinetics parameter, called node by node:
  // every node is visited once, at its own array index.
  const fhn::Config c = fhn::test::config_from(
      "domain: {length: [10, 7], dx: 0.5}\ntime: {dt: 0.01}\n"
      "initial: {v: {type: rectangle, x_min: 0, x_max: 3, value: 1}}\n"
      "anisotropy: {longitudinal: 1.0, transverse: 0.25, angle: 30}\n"
      "tissue:\n  - {shape: disc, center: [5, 3.5], radius: 1.5, op: remove}\n"
      "fields: [{parameter: a, shape: rectangle, x_min: 6, value: 0.2}]\n"
      "output: {probes: []}\n");
  const fhn::Problem p = fhn::make_problem(c);
  REQUIRE(fhn::heterogeneous(p.fields));
  fhn::ExplicitCpu scheme(p);
  CHECK_FALSE(scheme.fast_path());
  scheme.advance(1);
  fhn::Snapshot s;
  scheme.snapshot(s);

  const fhn::NodeParams q = fhn::node_params(p);
  const std::vector<std::uint8_t> quadrants =
      fhn::tissue_quadrants(p.fields.node_type, p.domain);
  fhn::MediumView m = fhn::medium_constants(p);
  m.quadrants = quadrants.data();
  fhn::kinetics_values(p.fields, m.kinetics);
  REQUIRE(m.kinetics[0] != nullptr);
  int outside = 0;
  fhn::with_kinetics(p.model.kinetics, [&](const auto& kin) {
    for (index_t j = 0; j < q.n[1]; ++j)
      for (index_t i = 0; i < q.n[0]; ++i) {
        const auto c_ij = static_cast<std::size_t>(fhn::sheet_index(i, j, q));
        const fhn::ExplicitPointUpdate u = fhn::explicit_update(
            p.v0.data(), p.w0.data(), 0.0, i, j, q, m, fhn::field_kinetics(kin, m));
        CAPTURE(i);
        CAPTURE(j);
        CHECK(s.v[c_ij] == u.v);
        CHECK(s.w[c_ij] == u.w);
        if (quadrants[c_ij] == 0) ++outside;
      }
  });
  CHECK(outside > 0);
}
