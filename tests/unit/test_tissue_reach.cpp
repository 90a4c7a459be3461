// What reads or acts on the tissue finds some: a probe reads the tissue nodes of its cell alone
// or is refused; a mask that leaves no tissue, a stimulus on no tissue node (errors) and a
// Dirichlet side with none (a warning) are said; the memory estimate counts the arrays that
// tissue, fields and anisotropy add; the grid's smallest size holds whichever key makes it.
#include <doctest/doctest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "config/study_config.hpp"
#include "grid/interpolation.hpp"
#include "io/frame_sink.hpp"
#include "model/png_image.hpp"
#include "model/problem.hpp"
#include "run/memory_estimate.hpp"
#include "study/study.hpp"
#include "support.hpp"

using fhn::test::config_error;
using fhn::test::config_from;
using fhn::test::contains;

namespace {

// The small sheet: 41 x 41 nodes.
const std::string kSheet =
    "model: {a: 0.01, epsilon: 0.01, gamma: 2.0}\n"
    "domain: {length: [20, 20], dx: 0.5}\n"
    "time: {end: 1, dt: 0.05}\n";

// Tissue x <= 10.3: the nodes up to x = 10 are in it, those at x = 10.5 and beyond outside.
const std::string kBeside =
    kSheet +
    "tissue: [{shape: rectangle, op: add, x_min: 0, x_max: 10.3, y_min: 0, y_max: 20}]\n"
    "initial: {v: {type: constant, value: 0.3}}\n"
    "output: {every: 0.5, probes: [[10.25, 10]]}\n";

// A channel one node wide (y = 10) between two obstacles: its nodes belong to no tissue cell.
const std::string kChannel =
    kSheet +
    "tissue:\n"
    "  - {shape: rectangle, x_min: 5, x_max: 15, y_min: 0, y_max: 9.9}\n"
    "  - {shape: rectangle, x_min: 5, x_max: 15, y_min: 10.1, y_max: 20}\n";

}  // namespace

TEST_CASE("a probe beside an obstacle reads the tissue nodes of its cell alone") {
  const fhn::Config c = config_from(kBeside);
  const fhn::Problem p = fhn::make_problem(c);
  REQUIRE(!p.fields.node_type.empty());
  fhn::FrameView f;
  f.domain = &p.domain;
  f.n = p.domain.node_count();
  f.v = p.v0.data();
  f.outside = p.fields.node_type.data();
  // Half the weight on (10, 10), tissue at 0.3, half on (10.5, 10), outside at rest (0): the
  // tissue's value, not their mean 0.15.
  CHECK(f.at(f.v, {10.25, 10.0, 0.0}) == 0.3);
  CHECK(fhn::tissue_weight(p.domain, {10.25, 10.0, 0.0}, f.outside) == 0.5);
  // Where every corner is tissue, the bilinear value bit for bit.
  std::vector<fhn::real> values(static_cast<std::size_t>(f.n));
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = std::sin(0.37 * static_cast<double>(i));
  for (const fhn::Point& q : {fhn::Point{3.3, 7.1, 0.0}, fhn::Point{9.9, 19.6, 0.0}, fhn::Point{10.0, 0.0, 0.0}})
    CHECK(f.at(values.data(), q) == fhn::multilinear_at(p.domain, values.data(), q));

  // The run's probes.csv: v = 0.3 at t = 0.
  const fhn::test::TempDir dir;
  const std::string config = fhn::test::write_text(dir / "beside.yaml", kBeside + "name: beside\n");
  REQUIRE(fhn::test::run_cli({"run", config, "--quiet", "--output", (dir / "out").string(),
                              "--set", "output.vtk=false"})
              .code == 0);
  const auto rows = fhn::test::read_csv(dir / "out" / "probes.csv");
  REQUIRE(rows.size() >= 2);
  CHECK(std::stod(rows[1][fhn::test::column(rows[0], "v@(10.25 10)")]) == 0.3);
}

TEST_CASE("a probe with no tissue node around it is refused at validate and run") {
  const std::string message =
      "output.probes[0]: (10, 10) lies in the tissue but no node of the grid cell around it that "
      "it reads is tissue";
  CHECK(contains(config_error(kChannel + "output: {probes: [[10, 10]]}\n"), message));
  // On an edge between an outside node and a tissue one the tissue node carries the weight.
  CHECK(config_error(kSheet +
                     "tissue: [{shape: rectangle, op: add, x_min: 0, x_max: 10.3, y_min: 0, "
                     "y_max: 20}]\noutput: {probes: [[10, 7.25]]}\n") == "");
  const fhn::test::TempDir dir;
  const std::string config =
      fhn::test::write_text(dir / "channel.yaml", kChannel + "output: {probes: [[10, 10]]}\n");
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"validate", config},
        std::vector<std::string>{"run", config, "--quiet", "--output", (dir / "out").string()}}) {
    CAPTURE(args[0]);
    const fhn::test::CliResult r = fhn::test::run_cli(args);
    CHECK(r.code == 2);
    CHECK(contains(r.err, "channel.yaml"));
    CHECK(contains(r.err, message));
  }
}

TEST_CASE("a work-precision study's probe with no tissue node around it is refused") {
  const fhn::test::TempDir dir;
  const std::string base =
      fhn::test::write_text(dir / "channel.yaml", kChannel + "output: {every: 0.5, probes: []}\n");
  const std::string study = "study: work_precision\nbase: " + base +
                            "\nquantity: activation_time\nprobe: [10, 10]\nreference: {value: 1}\n"
                            "methods:\n  - {label: a, dt: [0.05]}\n  - {label: b, dt: [0.025]}\n"
                            "targets: [1.0e-3]\n";
  fhn::StudyOptions options;
  options.output_dir = dir / "out";
  std::ostringstream out;
  CHECK(contains(fhn::test::thrown_message<fhn::ConfigError>([&] {
                   fhn::run_study(fhn::load_study_text(study, (dir / "s.yaml").string()), options, out);
                 }),
                 "probe: (10, 10) reads no tissue on the grid of dx = 0.5"));
}

TEST_CASE("a mask that leaves no tissue node is an error") {
  const std::string none = "tissue: the regions leave no node in the tissue";
  // A rectangle of no area adds a point: a node, but no cell.
  CHECK(contains(config_error(kSheet + "tissue: [{shape: rectangle, op: add, x_min: 5, x_max: 5, "
                                       "y_min: 5, y_max: 5}]\noutput: {probes: []}\n"),
                 none));
  // A disc removed over the whole sheet.
  CHECK(contains(config_error(kSheet + "tissue: [{shape: disc, center: [10, 10], radius: 30}]\n"
                                       "output: {probes: []}\n"),
                 none));
  if (fhn::png_supported()) {
    // gray1.png, 13 x 7 pixels of (x + y) mod 2, stretched over 13 x 7 nodes: a checkerboard of
    // tissue nodes none of which has a tissue cell.
    CHECK(contains(config_error("domain: {length: [12, 6], dx: 1}\ntime: {dt: 0.05}\n"
                                "output: {probes: []}\ntissue: [{shape: image, op: add, file: " +
                                fhn::test::source_path("tests/data/png/gray1.png") + "}]\n"),
                   none));
  }
}

TEST_CASE("a stimulus inside an obstacle is an error; a Dirichlet side off the tissue a warning") {
  const std::string obstacle = kSheet + "tissue: [{shape: disc, center: [10, 10], radius: 4}]\n"
                                        "output: {probes: []}\n";
  CHECK(contains(config_error(obstacle + "stimulus: [{x_min: 9, x_max: 11, y_min: 9, y_max: 11, "
                                         "start: 0, duration: 0.5, amplitude: 1}]\n"),
                 "test.yaml:6:20: stimulus[0]: every node the region [9, 11] x [9, 11] covers is "
                 "outside the tissue"));
  // Touching the tissue at one node is enough; amplitude 0 is a stimulus switched off.
  CHECK(config_error(obstacle + "stimulus: [{x_min: 9, x_max: 11, y_min: 14, y_max: 16, "
                                "start: 0, duration: 0.5, amplitude: 1}]\n") == "");
  CHECK(config_error(obstacle + "stimulus: [{x_min: 9, x_max: 11, y_min: 9, y_max: 11, "
                                "start: 0, duration: 0.5, amplitude: 0}]\n") == "");

  const std::string island =
      kSheet + "tissue: [{shape: disc, op: add, center: [10, 10], radius: 5}]\n"
               "output: {probes: []}\nboundary: {left: {type: dirichlet, value: 0}, "
               "top: {type: dirichlet, value: 0}}\n";
  const fhn::Config c = config_from(island);
  REQUIRE(c.warnings.size() == 2);
  CHECK(contains(c.warnings[0], "boundary.left: a Dirichlet side with no tissue node on it (x = 0)"));
  CHECK(contains(c.warnings[1], "boundary.top: a Dirichlet side with no tissue node on it (y = 20)"));
  // A disc reaching past x = 0 leaves tissue nodes on the left side.
  CHECK(config_from(kSheet + "tissue: [{shape: disc, op: add, center: [10, 10], radius: 10.5}]\n"
                             "output: {probes: []}\nboundary: {left: {type: dirichlet, value: 0}}\n")
            .warnings.empty());
  const fhn::test::TempDir dir;
  const std::string config = fhn::test::write_text(dir / "island.yaml", island + "name: island\n");
  const fhn::test::CliResult validate = fhn::test::run_cli({"validate", config});
  CHECK(validate.code == 0);
  CHECK(contains(validate.err, "fhn: warning: " + config + ":"));
  CHECK(contains(validate.err, "boundary.left: a Dirichlet side with no tissue node"));
  REQUIRE(fhn::test::run_cli({"run", config, "--quiet", "--output", (dir / "out").string(),
                              "--set", "output.vtk=false"})
              .code == 0);
  CHECK(contains(fhn::test::read_text(dir / "out" / "run.log"),
                 "boundary.top: a Dirichlet side with no tissue node on it (y = 20)"));
}

TEST_CASE("the memory estimate counts the per-node arrays that tissue, fields and anisotropy add") {
  const fhn::Config c = config_from(
      kSheet +
      "tissue: [{shape: disc, op: add, center: [10, 10], radius: 9}]\n"
      "anisotropy: {longitudinal: 1, transverse: 0.25}\n"
      "fields:\n"
      "  - {parameter: fibre_angle, type: gradient, axis: x, start: 0, end: 20, from: 0, to: 90}\n"
      "  - {parameter: a, type: gradient, axis: x, start: 0, end: 20, from: 0.01, to: 0.05}\n"
      "  - {parameter: epsilon, type: gradient, axis: y, start: 0, end: 20, from: 0.01, to: 0.02}\n"
      "  - {parameter: gamma, type: gradient, axis: y, start: 0, end: 20, from: 2, to: 2.5}\n"
      "output: {every: 0.5, probes: [[10, 10]]}\n");
  const fhn::Problem p = fhn::make_problem(c);
  // What make_problem allocated, counted from its arrays.
  double held = static_cast<double>(p.fields.diffusion.values.size() * sizeof(fhn::real) +
                                    p.fields.node_type.size());
  for (const fhn::ParameterField& field : p.fields.kinetics)
    held += static_cast<double>(field.values.size() * sizeof(fhn::real));
  for (const auto* values : {&p.fields.tensor.xx_values, &p.fields.tensor.xy_values, &p.fields.tensor.yy_values})
    held += static_cast<double>(values->size() * sizeof(fhn::real));
  const double n = 41 * 41;
  CHECK(held == (6 * 8 + 1) * n);
  const fhn::FieldArrays counted = fhn::field_arrays(c);
  const fhn::FieldArrays made = p.fields.arrays();
  CHECK(counted.values == made.values);
  CHECK(counted.mask == made.mask);
  CHECK(counted.quadrants == made.quadrants);
  // The problem's and the scheme's copy; the explicit scheme's quadrant bytes.
  const fhn::MemoryEstimate e = fhn::estimate_run_memory(c);
  double fields = 0.0, quadrants = 0.0;
  for (const fhn::MemoryItem& item : e.host) {
    if (contains(item.what, "per-node parameter fields (6 parameter arrays and the node-type mask)"))
      fields = item.bytes;
    if (contains(item.what, "quadrant bytes")) quadrants = item.bytes;
  }
  CHECK(fields == 2 * held);
  CHECK(quadrants == n);
  // On two ranks each slab keeps its part of the 6 arrays besides.
  fhn::MemoryEstimate worker;
  fhn::estimate_run_memory(c, 2, &worker);
  double parts = 0.0;
  for (const fhn::MemoryItem& item : worker.host)
    if (contains(item.what, "the slab's parts of the 6 per-node parameter arrays")) parts = item.bytes;
  CHECK(parts == 6 * 8 * n / 2);

  if (fhn::png_supported()) {
    // The pictures are kept with the config: 8 B per pixel of each region's picture.
    const std::string png = fhn::test::source_path("tests/data/png/gray8.png");
    const fhn::MemoryEstimate pictured = fhn::estimate_run_memory(config_from(
        kSheet + "tissue: [{shape: image, file: " + png + ", threshold: 0.9}]\n"
                 "fields: [{parameter: a, type: image, file: " + png + ", from: 0.01, to: 0.05}]\n"
                 "output: {probes: []}\n"));
    double pictures = -1.0;
    for (const fhn::MemoryItem& item : pictured.host)
      if (contains(item.what, "the pictures of tissue: and fields:")) pictures = item.bytes;
    CHECK(pictures == 8 * 13 * 7 * 2);
  }
}

TEST_CASE("domain.dx that makes fewer than 3 nodes on an axis is refused at the key given") {
  CHECK(contains(config_error("domain: {length: [1, 1], dx: 1}\ntime: {dt: 0.05}\n"),
                 "test.yaml:1:30: domain.dx: 1 divides domain.length[0] = 1 into 1 cell (2 nodes); "
                 "at least 3 nodes per axis are needed (dx at most 0.5)"));
  CHECK(contains(config_error("domain: {length: 1, dx: 1}\ntime: {dt: 0.05}\n"),
                 "domain.dx: 1 divides domain.length = 1 into 1 cell (2 nodes)"));
  // The default dx (0.5) of a sheet: reported at the length.
  CHECK(contains(config_error("domain: {length: [10, 0.5]}\ntime: {dt: 0.05}\n"),
                 "test.yaml:1:18: domain.dx: 0.5 (the default) divides domain.length[1] = 0.5 into "
                 "1 cell (2 nodes)"));
  // Two cells are enough, as domain.nodes: 3 is.
  CHECK(config_error("domain: {length: [1, 1], dx: 0.5}\ntime: {dt: 0.05}\noutput: {probes: []}\n") == "");
  CHECK(contains(config_error("domain: {length: [1, 1], nodes: [2, 2]}\ntime: {dt: 0.05}\n"),
                 "domain.nodes[0]: value 2 is out of range; expected a whole number in [3, 2147483648]"));
}
