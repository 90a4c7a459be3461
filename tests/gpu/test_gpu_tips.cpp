// Tips and filaments at their own cadence on the GPU: DeviceScheme::iso_cells finds on the
// device the cells (a box's: the cube faces) and the excited nodes that the host's scan of a
// snapshot finds (Scheme::iso_cells), with a tissue mask and its cut-off nodes, squares and
// corner values bit for bit.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "model/problem.hpp"
#include "schemes/scheme.hpp"
#include "study/filaments.hpp"
#include "study/spiral_tips.hpp"
#include "support.hpp"

TEST_CASE("GPU tips: the device's iso cells are the host scan's, masks included") {
  for (const std::string& medium :
       {std::string(), std::string("tissue:\n  - {shape: disc, center: [14, 14], radius: 3, "
                                   "op: remove}\n")}) {
    CAPTURE(medium);
    const fhn::Config c = fhn::test::config_from(
        "model: {form: barkley}\ndomain: {length: [20, 20], dx: 0.25}\n"
        "time: {end: 20, dt: 0.005}\noutput: {probes: []}\n"
        "initial: {v: {type: spiral, wavelength: 10}, w: {type: spiral, wavelength: 10}}\n" +
            medium,
        {"scheme.backend=cuda"});
    const fhn::Problem problem = fhn::make_problem(c);
    auto gpu = fhn::make_scheme(c, problem);
    gpu->advance(777);
    const std::vector<std::uint8_t> cut = fhn::cut_off_nodes(problem.fields);
    const std::uint8_t* outside =
        problem.fields.node_type.empty() ? nullptr : problem.fields.node_type.data();
    const std::uint8_t* skip = cut.empty() ? outside : cut.data();
    std::vector<fhn::IsoCell> device, host;
    fhn::index_t excited_device = -1, excited_host = -2;
    gpu->iso_cells(c.output.tips.v_iso, c.output.tips.w_iso, skip, outside, device,
                   excited_device);
    gpu->fhn::Scheme::iso_cells(c.output.tips.v_iso, c.output.tips.w_iso, skip, outside, host,
                                excited_host);
    CHECK(!host.empty());
    CHECK(excited_device == excited_host);
    REQUIRE(device.size() == host.size());
    for (std::size_t k = 0; k < host.size(); ++k) {
      CHECK(device[k].i == host[k].i);
      CHECK(device[k].j == host[k].j);
      for (int q = 0; q < 4; ++q) {
        CHECK(device[k].v[q] == host[k].v[q]);
        CHECK(device[k].w[q] == host[k].w[q]);
      }
    }
  }
}

TEST_CASE("GPU filaments: the device's cube faces in a box are the host scan's, bit for bit") {
  // A scroll ring in Barkley's medium (tests/unit/test_filaments.cpp's), after 100 steps.
  const std::string start = "{type: scroll_ring, center: [8, 7, 3], radius: 4, wavelength: 8}";
  const fhn::Config c = fhn::test::config_from(
      "model: {form: barkley, a: 0.75, b: 0.02, eps: 0.02}\n"
      "domain: {length: [16, 14, 6], dx: 0.5}\ntime: {end: 2, dt: 0.01}\n"
      "initial: {v: " + start + ", w: " + start + "}\noutput: {probes: []}\n",
      {"scheme.backend=cuda"});
  const fhn::Problem problem = fhn::make_problem(c);
  auto gpu = fhn::make_scheme(c, problem);
  gpu->advance(100);
  const fhn::real v_iso = c.output.filaments.v_iso, w_iso = c.output.filaments.w_iso;
  std::vector<fhn::IsoCell> device, host;
  fhn::index_t excited_device = -1, excited_host = -2;
  gpu->iso_cells(v_iso, w_iso, nullptr, nullptr, device, excited_device);
  gpu->fhn::Scheme::iso_cells(v_iso, w_iso, nullptr, nullptr, host, excited_host);
  CHECK(host.size() > 100);
  CHECK(excited_device == excited_host);
  REQUIRE(device.size() == host.size());
  for (std::size_t k = 0; k < host.size(); ++k) {
    CHECK(device[k].normal == host[k].normal);
    CHECK(device[k].i == host[k].i);
    CHECK(device[k].j == host[k].j);
    CHECK(device[k].k == host[k].k);
    for (int q = 0; q < 4; ++q) {
      CHECK(device[k].v[q] == host[k].v[q]);
      CHECK(device[k].w[q] == host[k].w[q]);
    }
  }
  const fhn::Snapshot s = [&] {
    fhn::Snapshot out;
    gpu->snapshot(out);
    return out;
  }();
  const auto joined = fhn::join_filaments(s.domain, device, v_iso, w_iso);
  REQUIRE(joined.size() == 1);
  CHECK(joined[0].closed);
}
