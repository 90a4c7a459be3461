// What `fhn run` leaves in the output folder.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "config/loader.hpp"
#include "core/error.hpp"
#include "io/json.hpp"
#include "io/vtk_writers.hpp"
#include "run/run.hpp"
#include "support.hpp"

using fhn::test::contains;

namespace fs = std::filesystem;

namespace {
fhn::Config small_config(const std::vector<std::string>& overrides = {}) {
  std::vector<std::string> all = overrides;
  if (!fhn::vtk_compiled()) all.insert(all.end(), {"output.vtk=false", "output.spacetime=false"});
  return fhn::test::config_from(
      "name: small\n"
      "domain: {length: 20, nodes: 41}\n"
      "initial: {v: {type: gaussian, center: 10, width2: 2}}\n"
      "time: {end: 2, dt: 0.1}\n"
      "output: {every: 0.5, probes: [0, 10, 12.25]}\n",
      all);
}
std::size_t count_lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}
}  // namespace

TEST_CASE("a run writes config, log, probes, summary and frames") {
  fhn::test::TempDir dir;
  fhn::RunOptions options;
  options.output_dir = dir / "out";
  options.quiet = true;
  const fhn::Config c = small_config();
  const fhn::RunSummary summary = fhn::run_simulation(c, options);
  CHECK(summary.steps == 20);
  CHECK(summary.frames == 5);  // t = 0, 0.5, 1, 1.5, 2

  // config.yaml is the resolved config and reads back to the same thing.
  const fhn::Config again = fhn::load_config((options.output_dir / "config.yaml").string());
  CHECK(fhn::to_yaml(again) == fhn::to_yaml(c));

  const std::string probes = fhn::test::read_text(options.output_dir / "probes.csv");
  CHECK(count_lines(probes) == 6);
  CHECK(probes.rfind("t,v@0,w@0,v@10,w@10,v@12.25,w@12.25\n0,", 0) == 0);
  // At t = 0 the probe at x = 10 reads the Gaussian's peak, 1, and x = 12.25 interpolates
  // between the nodes 12 and 12.5: exp(-4/2) and exp(-6.25/2) -> not a node value.
  CHECK(contains(probes, "\n0,"));
  CHECK(contains(probes, ",1,0,"));

  const std::string json = fhn::test::read_text(options.output_dir / "summary.json");
  CHECK(contains(json, "\"status\": \"ok\""));
  CHECK(contains(json, "\"steps\": 20"));
  CHECK(contains(json, "\"frames\": 5"));
  CHECK(contains(json, "\"ns_per_node_step\": "));
  CHECK(contains(json, "\"final_max_v\": "));

  const std::string log = fhn::test::read_text(options.output_dir / "run.log");
  CHECK(contains(log, "scheme: explicit forward Euler (cpu)"));
  CHECK(contains(log, "done: 20 steps, 5 frames"));

  if (fhn::vtk_compiled()) {
    const std::string pvd = fhn::test::read_text(options.output_dir / "small.pvd");
    CHECK(contains(pvd, "timestep=\"1.5\""));
    for (int i = 0; i < 5; ++i)
      CHECK(fs::exists(options.output_dir / "frames" / ("small_00000" + std::to_string(i) + ".vtu")));
    CHECK(fs::exists(options.output_dir / "spacetime.vti"));

    // A second, shorter run into the same folder leaves no stale frames behind.
    fhn::run_simulation(small_config({"time.end=1"}), options);
    CHECK(fs::exists(options.output_dir / "frames" / "small_000002.vtu"));
    CHECK_FALSE(fs::exists(options.output_dir / "frames" / "small_000003.vtu"));
  }
}

TEST_CASE("summary.json reports the pulse speed of pulse_split") {
  fhn::test::TempDir dir;
  fhn::RunOptions options;
  options.output_dir = dir / "out";
  options.quiet = true;
  std::vector<std::string> overrides{"time.end=150", "output.vtk=false", "output.spacetime=false"};
  const fhn::Config c = fhn::load_config(fhn::test::source_path("configs/pulse_split.yaml"), overrides);
  fhn::run_simulation(c, options);
  const std::string json = fhn::test::read_text(options.output_dir / "summary.json");
  const std::size_t at = json.find("\"pulse_speed\": ");
  REQUIRE(at != std::string::npos);
  const double speed = std::stod(json.substr(at + 15));
  CHECK(speed == doctest::Approx(0.621).epsilon(0.01));  // dx = 0.5 reads 0.621 (0.627 as dx -> 0)
}

TEST_CASE("JSON text escapes and non-finite numbers") {
  fhn::JsonObject o;
  o.add("text", "a \"quoted\"\nline").add("nan", std::nan("")).add("n", fhn::index_t{3});
  CHECK(o.str() == "{\"text\":\"a \\\"quoted\\\"\\nline\",\"nan\":null,\"n\":3}");
}
