// The CUDA schemes' node reads (Scheme::read_nodes: a gather kernel, 16 bytes a node back)
// against their own snapshots bit for bit and against the CPU scheme to round-off; the probe
// sampler on the GPU reads what FrameView::at reads from the GPU's frame, bit for bit; and a run
// with probes every step on the GPU writes the CPU run's probes.csv to round-off.
#include <doctest/doctest.h>

#include <cmath>

#include "config/loader.hpp"
#include "schemes/scheme.hpp"
#include "support.hpp"

namespace {

using fhn::index_t;
using fhn::real;

struct Case {
  const char* yaml;
  const char* scheme;
};

const char* kCable =
    "domain: {length: 50, nodes: 101}\n"
    "initial: {v: {type: gaussian, center: 25, width2: 4}}\n"
    "time: {end: 20, dt: 0.05}\n"
    "output: {probes: [0, 12.3, 25, 49.9, 50]}\n";
const char* kSheet =
    "domain: {length: [20, 12], dx: 0.5}\n"
    "tissue: [{shape: disc, center: [10, 6], radius: 2.2, op: remove}]\n"
    "initial: {v: {type: rectangle, x_min: 0, x_max: 3, value: 1}}\n"
    "time: {end: 10, dt: 0.05}\n"
    "output: {probes: [[7.6, 6.1], [12.3, 5.05], [0, 0], [19.9, 11.7]]}\n";
const char* kBox =
    "domain: {length: [10, 4, 3], dx: 0.5}\n"
    "initial: {v: {type: rectangle, x_min: 0, x_max: 2, value: 1}}\n"
    "time: {end: 6, dt: 0.04}\n"
    "output: {probes: [[2.3, 1.1, 0.7], [5, 4, 3], [7.75, 2.2, 1.5]]}\n";

}  // namespace

TEST_CASE("GPU node reads: the snapshot's values bit for bit, the CPU's to round-off") {
  const Case cases[] = {{kCable, "scheme: {type: explicit}\n"},
                        {kCable, "scheme: {type: crank_nicolson}\n"},
                        {kSheet, "scheme: {type: explicit}\n"},
                        {kBox, "scheme: {type: explicit}\n"},
                        {kBox, "scheme: {type: crank_nicolson, crank_nicolson: {formulation: adi}}\n"}};
  for (const Case& k : cases) {
    const std::string yaml = std::string(k.yaml) + k.scheme;
    CAPTURE(yaml);
    const fhn::Config cpu_config = fhn::test::config_from(yaml, {"output.vtk=false", "output.spacetime=false"});
    const fhn::Config gpu_config =
        fhn::test::config_from(yaml, {"output.vtk=false", "output.spacetime=false", "scheme.backend=cuda"});
    const fhn::test::SchemeRun cpu = fhn::test::run_scheme(cpu_config, 53);
    const fhn::test::SchemeRun gpu = fhn::test::run_scheme(gpu_config, 53);
    REQUIRE(fhn::test::contains(gpu.scheme->name(), "cuda"));
    const index_t n = gpu.scheme->node_count();
    const std::vector<index_t> nodes{0, n / 3, n / 2 + 1, n - 1, 7};
    std::vector<real> v, w, cpu_v, cpu_w;
    gpu.scheme->read_nodes(nodes, v, w);
    cpu.scheme->read_nodes(nodes, cpu_v, cpu_w);
    REQUIRE(v.size() == nodes.size());
    for (std::size_t k2 = 0; k2 < nodes.size(); ++k2) {
      CAPTURE(nodes[k2]);
      const auto at = static_cast<std::size_t>(nodes[k2]);
      CHECK(v[k2] == gpu.state.v[at]);
      CHECK(w[k2] == gpu.state.w[at]);
      CHECK(std::abs(v[k2] - cpu_v[k2]) < 1e-10);
      CHECK(std::abs(w[k2] - cpu_w[k2]) < 1e-10);
    }
    // No nodes: nothing read, nothing launched.
    gpu.scheme->read_nodes({}, v, w);
    CHECK(v.empty());
    CHECK(w.empty());

    // The sampler on the GPU scheme reads what a frame of it gives the probes.
    fhn::test::check_probes_read_the_frame(gpu_config, *gpu.scheme, gpu.state);
  }
}

TEST_CASE("GPU run with probes every step: probes.csv as the CPU's to round-off") {
  fhn::test::TempDir dir;
  const std::string yaml = std::string("name: gpu_probes\n") + kSheet;
  for (const char* backend : {"cpu", "cuda"})
    fhn::test::run_config(fhn::test::config_from(yaml, {"output.vtk=false", "output.probes_every=0.05",
                                                      std::string("scheme.backend=") + backend}),
                        dir / backend);
  const auto cpu = fhn::test::read_csv(dir / "cpu" / "probes.csv");
  const auto gpu = fhn::test::read_csv(dir / "cuda" / "probes.csv");
  REQUIRE(cpu.size() == 202);
  REQUIRE(gpu.size() == cpu.size());
  CHECK(gpu.front() == cpu.front());
  for (std::size_t r = 1; r < cpu.size(); ++r) {
    CHECK(gpu[r][0] == cpu[r][0]);
    for (std::size_t c = 1; c < cpu[r].size(); ++c)
      CHECK(std::abs(std::stod(gpu[r][c]) - std::stod(cpu[r][c])) < 1e-10);
  }
}
