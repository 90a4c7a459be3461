// Tips at their own cadence on the GPU: DeviceScheme::iso_cells finds on the device the cells
// and the excited nodes that the host's scan of a snapshot finds (Scheme::iso_cells), with a
// tissue mask and its cut-off nodes, cells and corner values bit for bit.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "model/problem.hpp"
#include "schemes/scheme.hpp"
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
