// Spiral tips at their own cadence (output.tips.every): fhn run finds them from the cells the
// scheme returns (Scheme::iso_cells), without a frame, so the tips' resolution no longer follows
// output.every; at the frames' cadence tips.csv is what the frames gave, byte for byte.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "schemes/scheme.hpp"
#include "support.hpp"

namespace {

using fhn::index_t;
using fhn::real;

// A Barkley spiral on a 20 x 20 sheet to t = 20 (the test of phase singularities), no frames on
// disk: `overrides` set the cadences.
fhn::Config spiral(const std::vector<std::string>& overrides) {
  std::vector<std::string> o = {"output.vtk=false"};
  o.insert(o.end(), overrides.begin(), overrides.end());
  return fhn::test::config_from(
      "name: tips\nmodel: {form: barkley}\ndomain: {length: [20, 20], dx: 0.25}\n"
      "time: {end: 20, dt: 0.005}\n"
      "initial: {v: {type: spiral, wavelength: 10}, w: {type: spiral, wavelength: 10}}\n"
      "output: {probes: [[10, 10], [2, 2]]}\n",
      o);
}

// The times of tips.csv's rows, once each.
std::vector<real> row_times(const std::filesystem::path& tips) {
  std::vector<real> times;
  const auto rows = fhn::test::read_csv(tips);
  for (std::size_t r = 1; r < rows.size(); ++r) {
    const real t = std::stod(rows[r][0]);
    if (times.empty() || t != times.back()) times.push_back(t);
  }
  return times;
}

}  // namespace

TEST_CASE("tips at their own cadence: tips.csv as the frames gave it, whatever output.every") {
  fhn::test::TempDir dir;
  fhn::test::run_config(spiral({"output.every=0.5"}), dir / "frames");
  fhn::test::run_config(spiral({"output.every=5", "output.tips.every=0.5"}), dir / "own");
  const std::string frames = fhn::test::read_text(dir / "frames" / "tips.csv");
  CHECK(frames.size() > 100);
  CHECK(fhn::test::read_text(dir / "own" / "tips.csv") == frames);
  // The tips' summary is the same too (the frames' counts differ).
  auto tips_of = [](const std::string& json) { return json.substr(json.find("\"tips\": {")); };
  const std::string a = fhn::test::read_text(dir / "frames" / "summary.json");
  const std::string b = fhn::test::read_text(dir / "own" / "summary.json");
  CHECK(tips_of(a).substr(0, tips_of(a).find('}')) == tips_of(b).substr(0, tips_of(b).find('}')));

  // Finer than the frames: a row every 0.1 (the tip found 200 times, the frames 5 times).
  fhn::test::run_config(spiral({"output.every=5", "output.tips.every=0.1"}), dir / "fine");
  const std::vector<real> times = row_times(dir / "fine" / "tips.csv");
  REQUIRE(times.size() == 201);
  for (std::size_t k = 0; k < times.size(); ++k)
    CHECK(times[k] == doctest::Approx(0.1 * static_cast<real>(k)).epsilon(1e-12));
}

TEST_CASE("Scheme::iso_cells: the cells and excited nodes of a frame, on the host") {
  const fhn::Config c = spiral({});
  const fhn::Problem problem = fhn::make_problem(c);
  auto scheme = fhn::make_scheme(c, problem);
  scheme->advance(400);
  fhn::Snapshot s;
  scheme->snapshot(s);
  std::vector<fhn::IsoCell> expected;
  fhn::straddling_cells(s.domain, s.v.data(), s.w.data(), nullptr, c.output.tips.v_iso,
                        c.output.tips.w_iso, expected);
  std::vector<fhn::IsoCell> cells;
  index_t excited = -1;
  scheme->iso_cells(c.output.tips.v_iso, c.output.tips.w_iso, nullptr, nullptr, cells, excited);
  REQUIRE(cells.size() == expected.size());
  CHECK(!cells.empty());
  for (std::size_t k = 0; k < cells.size(); ++k) {
    CHECK(cells[k].i == expected[k].i);
    CHECK(cells[k].j == expected[k].j);
  }
  index_t above = 0;
  for (real v : s.v) above += v >= c.output.tips.v_iso ? 1 : 0;
  CHECK(excited == above);
}

TEST_CASE("output.tips.every: a multiple of dt, and refused in a sweep's base") {
  CHECK(fhn::test::config_error(
            "domain: {length: [10, 10], dx: 0.5}\ntime: {end: 10, dt: 0.05}\n"
            "output: {tips: {every: 0.125}}\n") ==
        "invalid configuration:\n  test.yaml:3:24: output.tips.every = 0.125 must be a whole "
        "multiple of time.dt = 0.05");
  fhn::test::TempDir dir;
  std::string sweep;
  const auto r = fhn::test::sweep_over_base(dir.path(), "sheet.yaml",
                                            "name: sheet\ndomain: {length: [10, 10], dx: 0.5}\n"
                                            "time: {end: 1, dt: 0.05}\n"
                                            "output: {vtk: false, every: 0.5,\n"
                                            "         tips: {every: 0.1}}\n",
                                            sweep);
  CHECK(r.code == 2);
  CHECK(fhn::test::contains(r.err, sweep + ": " + (dir / "sheet.yaml").string() +
                                       ":5:24: output.tips.every: a sweep's members find their "
                                       "tips at their frames"));
}

TEST_CASE("tips sampled fewer than 20 times a turn: run.log says which cadence resolves it") {
  fhn::test::TempDir dir;
  // spiral()'s Barkley spiral, which turns in 3.2: every 0.5 is 6 samples a turn.
  const std::string config = fhn::test::write_text(
      dir / "tips.yaml",
      "name: tips\nmodel: {form: barkley}\ndomain: {length: [20, 20], dx: 0.25}\n"
      "time: {end: 20, dt: 0.005}\n"
      "initial: {v: {type: spiral, wavelength: 10}, w: {type: spiral, wavelength: 10}}\n"
      "output: {vtk: false, every: 5, probes: [[10, 10]]}\n");
  auto run = [&](const std::string& every, const std::string& out) {
    return fhn::test::run_cli({"run", config, "--quiet", "--output", (dir / out).string(), "--set",
                               "output.tips.every=" + every});
  };
  const fhn::test::CliResult coarse = run("0.5", "coarse");
  REQUIRE(coarse.code == 0);
  const std::string log = fhn::test::read_text(dir / "coarse" / "run.log");
  const std::string said = "spiral tips: sampled every 0.5 (output.tips.every), 6 samples a turn of ";
  CHECK(fhn::test::contains(log, said));  // run.log and, as every warning, stderr
  // The turn is 3.1995...: 0.155 (31 steps of 0.005) is the largest multiple of dt at most 1/20.
  CHECK(fhn::test::contains(log, "; output.tips.every: 0.155 takes 20 or more"));
  REQUIRE(run("0.1", "fine").code == 0);
  CHECK_FALSE(fhn::test::contains(fhn::test::read_text(dir / "fine" / "run.log"), "samples a turn"));
}
