// Sheets (2-D domains): the explicit scheme against hand-computed steps and the cable, its
// symmetries and convergence orders, the 2-D config keys and their errors, activation times,
// bilinear probes, the .pvd collection at constant cost, restarts and kills.
#include <doctest/doctest.h>

#include <signal.h>

#include <chrono>
#include <cmath>
#include <random>
#include <thread>

#include "config/loader.hpp"
#include "core/error.hpp"
#include "grid/interpolation.hpp"
#include "io/pvd_collection.hpp"
#include "io/vtk_writers.hpp"
#include "model/problem.hpp"
#include "run/checkpoint.hpp"
#include "run/run.hpp"
#include "schemes/node_updates.hpp"
#include "schemes/scheme.hpp"
#include "study/activation.hpp"
#include "study/convergence.hpp"
#include "support.hpp"

using fhn::test::config_error;
using fhn::test::config_from;
using fhn::test::contains;

namespace fs = std::filesystem;

namespace {

fhn::Snapshot advance(const fhn::Config& c, fhn::index_t steps) {
  const fhn::Problem problem = fhn::make_problem(c);
  auto scheme = fhn::make_scheme(c, problem);
  scheme->advance(steps);
  fhn::Snapshot s;
  scheme->snapshot(s);
  return s;
}

// Overrides that switch off the VTK writers of a build without VTK.
std::vector<std::string> without_vtk_if_absent(std::vector<std::string> overrides = {}) {
  if (!fhn::vtk_compiled()) overrides.push_back("output.vtk=false");
  return overrides;
}

}  // namespace

TEST_CASE("sheet: one explicit step on a 3x3 sheet, by hand, with no-flux and Dirichlet sides") {
  // dx = 1, D = 1, dt = 0.1 (the limit dx^2/(4D) = 0.25); v = 1 at the centre, 0 elsewhere.
  const std::string base =
      "domain: {length: [2, 2], dx: 1}\n"
      "initial: {v: {type: rectangle, x_min: 0.9, x_max: 1.1, y_min: 0.9, y_max: 1.1}}\n"
      "time: {end: 0.1, dt: 0.1}\n";
  const fhn::Snapshot s = advance(config_from(base), 1);
  // centre: 1 + 0.1 (0 + 0 + 0 + 0 - 4 + f(1)) = 0.6 (f(1) = 0); side midpoints: the ghost node
  // doubles the centre, 0 + 0.1 (2 (1 - 0) + f(0)) = 0.2; corners: both neighbours 0, so 0.
  const std::vector<double> expected{0.0, 0.2, 0.0, 0.2, 0.6, 0.2, 0.0, 0.2, 0.0};
  REQUIRE(s.v.size() == 9);
  for (std::size_t i = 0; i < 9; ++i) CHECK(s.v[i] == doctest::Approx(expected[i]).epsilon(1e-14));

  // Dirichlet left (0.3) and bottom (0.7): the left side holds 0.3 on every row, the corner
  // (0, 0) included (left comes before bottom); the rest of the bottom row holds 0.7.
  const fhn::Snapshot d = advance(
      config_from(base + "boundary: {left: {type: dirichlet, value: 0.3}, bottom: {type: dirichlet, value: 0.7}}\n"), 1);
  CHECK(d.v[0] == 0.3);
  CHECK(d.v[3] == 0.3);
  CHECK(d.v[6] == 0.3);
  CHECK(d.v[1] == 0.7);
  CHECK(d.v[2] == 0.7);
  // The centre now sees 0.3 (west) and 0.7 (south): 1 + 0.1 (0.3 + 0.7 - 4) = 0.7.
  CHECK(d.v[4] == doctest::Approx(0.7).epsilon(1e-14));
}

TEST_CASE("problem: coordinates from the domain (none beyond its axes), t from the time grid") {
  CHECK(fhn::cable(5, 1.0).coordinates(1).empty());  // a cable lists no y (not one NaN node)
  const fhn::Config sheet_config = config_from("domain: {length: [40, 3], dx: 0.5}\n"
                                               "time: {end: 20, dt: 0.05}\n");
  const fhn::Problem sheet = fhn::make_problem(sheet_config);
  CHECK(sheet.time.dt == 0.05);
  CHECK(sheet.time.steps == 400);
  CHECK(sheet.time.t(400) == 400.0 * 0.05);
  const fhn::Snapshot s = advance(sheet_config, 3);
  CHECK(s.t == sheet.time.t(3));
  CHECK(s.coordinates(0) == sheet.domain.coordinates(0));
  CHECK(s.coordinates(1) == std::vector<double>{0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0});
  const fhn::Snapshot c = advance(config_from("domain: {length: 40, dx: 0.5}\n"), 1);
  CHECK(c.coordinates(0).size() == 81);
  CHECK(c.coordinates(0).back() == 40.0);
  CHECK(c.coordinates(1).empty());
}

TEST_CASE("sheet: a planar wave equals the cable run bit for bit") {
  const std::string physics =
      "initial: {v: {type: tanh_front, position: 10, width: 2, left: 1, right: 0}}\n"
      "boundary: {left: {type: dirichlet, value: 1}}\n"
      "stimulus: [{x_min: 30, x_max: 32, start: 5, duration: 1, amplitude: 0.8}]\n"
      "time: {end: 20, dt: 0.05}\n";
  const fhn::Snapshot cable = advance(config_from("domain: {length: 40, dx: 0.5}\n" + physics), 400);
  const fhn::Snapshot sheet = advance(config_from("domain: {length: [40, 3], dx: 0.5}\n" + physics), 400);
  const std::size_t nx = cable.v.size();
  REQUIRE(sheet.v.size() == nx * 7);
  CHECK(*std::max_element(cable.v.begin(), cable.v.end()) > 0.9);  // a wave is under way
  for (std::size_t j = 0; j < 7; ++j)
    for (std::size_t i = 0; i < nx; ++i) {
      CHECK(sheet.v[i + nx * j] == cable.v[i]);
      CHECK(sheet.w[i + nx * j] == cable.w[i]);
    }
  // The same wave running along y.
  const fhn::Snapshot along_y = advance(
      config_from("domain: {length: [3, 40], dx: 0.5}\n"
                  "initial: {v: {type: tanh_front, axis: y, position: 10, width: 2, left: 1, right: 0}}\n"
                  "boundary: {bottom: {type: dirichlet, value: 1}}\n"
                  "stimulus: [{x_min: 0, x_max: 3, y_min: 30, y_max: 32, start: 5, duration: 1, amplitude: 0.8}]\n"
                  "time: {end: 20, dt: 0.05}\n"),
      400);
  for (std::size_t j = 0; j < nx; ++j) CHECK(along_y.v[3 + 7 * j] == cable.v[j]);
}

TEST_CASE("sheet: a centred gaussian keeps the square's symmetries") {
  const fhn::Snapshot s = advance(config_from("domain: {length: [30, 30], dx: 0.5}\n"
                                              "initial: {v: {type: gaussian, center: [15, 15], width2: 8}}\n"
                                              "time: {end: 30, dt: 0.05}\n"),
                                  600);
  const std::size_t n = 61;
  REQUIRE(s.v.size() == n * n);
  CHECK(*std::max_element(s.v.begin(), s.v.end()) > 0.5);  // a target wave is under way
  double transpose = 0.0, mirror = 0.0;
  for (std::size_t j = 0; j < n; ++j)
    for (std::size_t i = 0; i < n; ++i) {
      // x <-> y: the stencil adds the two axes' differences, a + b = b + a exactly.
      transpose = std::max(transpose, std::abs(s.v[i + n * j] - s.v[j + n * i]));
      // x -> L - x: the same sums in another order, equal to round-off.
      mirror = std::max(mirror, std::abs(s.v[i + n * j] - s.v[(n - 1 - i) + n * j]));
    }
  CHECK(transpose == 0.0);
  CHECK(mirror < 1e-12);
}

TEST_CASE("sheet: the explicit scheme converges with order 2 in dx and 1 in dt") {
  const std::string smooth =
      "domain: {length: [8, 6]}\n"
      "initial: {v: {type: gaussian, center: [4, 2.5], width2: 3, amplitude: 0.8}}\n"
      "time: {end: 1}\n";
  // dx: dt fixed at the finest grid's diffusion limit, so the time error cancels between levels
  // (as in test_explicit.cpp, just above the limit with the reaction's slope).
  std::vector<fhn::Snapshot> dx_levels;
  for (const char* dx : {"0.5", "0.25", "0.125", "0.0625"})
    dx_levels.push_back(fhn::final_state(config_from(
        smooth, {std::string("domain.dx=") + dx, "time.dt=0.0009765625", "scheme.explicit_limit=diffusion"})));
  for (double p : fhn::successive_orders(dx_levels, fhn::Norm::max)) CHECK(p == doctest::Approx(2.0).epsilon(0.1));
  std::vector<fhn::Snapshot> dt_levels;
  for (const char* dt : {"0.04", "0.02", "0.01", "0.005"})
    dt_levels.push_back(fhn::final_state(config_from(smooth, {"domain.dx=0.5", std::string("time.dt=") + dt})));
  for (double p : fhn::successive_orders(dt_levels, fhn::Norm::max)) CHECK(p == doctest::Approx(1.0).epsilon(0.1));
}

TEST_CASE("sheet config: keys, defaults and the resolved copy") {
  const fhn::Config c = config_from(
      "domain: {length: [20, 10], dx: 0.5}\n"
      "boundary: {top: {type: dirichlet, value: 0.2}}\n"
      "initial: {v: {type: rectangle, x_min: 1, x_max: 3, y_min: 0, y_max: 10, value: 1}, w: {type: step, axis: y, position: 5, left: 0.3, right: 0}}\n"
      "stimulus: [{x_min: 5, x_max: 6, start: 0.5, duration: 1, amplitude: 0.5}]\n"
      "time: {end: 1, dt: 0.05}\n"
      "output: {probes: [[1, 2], [20, 10]], stride: 2, tips: {w: 0.15}}\n");
  CHECK(c.domain.dims == 2);
  CHECK(c.domain.nodes[0] == 41);
  CHECK(c.domain.nodes[1] == 21);
  CHECK(c.domain.node_count() == 861);
  CHECK(c.boundary.top.type == fhn::BoundaryType::dirichlet);
  CHECK(c.initial.w.axis == 1);
  CHECK(c.stimulus[0].y_min == 0.0);   // a stimulus spans the whole height by default
  CHECK(c.stimulus[0].y_max == 10.0);
  CHECK(c.output.probes[1] == fhn::Point{20.0, 10.0, 0.0});
  CHECK_FALSE(c.output.spacetime);  // cables only
  CHECK(c.output.tips.enabled);
  CHECK(c.output.tips.w_iso == 0.15);
  CHECK(c.output.activation.enabled);  // follows output.vtk (the test loader assumes VTK)
  const fhn::Config again = fhn::load_config_text(fhn::to_yaml(c), "config.yaml");
  CHECK(fhn::to_yaml(again) == fhn::to_yaml(c));

  // The initial state: the rectangle of v, the step of w along y.
  const fhn::Problem p = fhn::make_problem(c);
  CHECK(p.v0[4 + 41 * 3] == 1.0);   // (2, 1.5) inside the rectangle
  CHECK(p.v0[10 + 41 * 3] == 0.0);  // (5, 1.5) outside
  CHECK(p.w0[0] == 0.3);
  CHECK(p.w0[41 * 20] == 0.0);
  CHECK(p.v0[41 * 20 + 10] == 0.2);  // the top side holds its Dirichlet value from t = 0
}

TEST_CASE("sheet config: keys of the wrong dimension and impossible grids are located errors") {
  CHECK(contains(config_error("domain: {length: [20, 10], nodes: 41}\n"),
                 "test.yaml:1:35: domain.nodes: 1 count for a domain of 2 axes"));
  CHECK(contains(config_error("domain: {length: [20, 10], nodes: [41, 41]}\n"),
                 "gives dx = 0.5 along x but 0.25 along y"));
  CHECK(contains(config_error("domain: {length: [20, 10.3], dx: 0.5}\n"),
                 "domain.dx: 0.5 does not divide domain.length[1] = 10.3"));
  CHECK(contains(config_error("domain: {length: [20, 10, 5, 5]}\n"), "domain.length: expected at most 3 entries"));
  CHECK(contains(config_error("boundary: {bottom: {type: no_flux}}\n"),
                 "boundary.bottom: applies to sheets and boxes (domain.length: [Lx, Ly] or [Lx, Ly, "
                 "Lz]); a cable has the ends left and right"));
  CHECK(contains(config_error("stimulus: [{x_min: 0, x_max: 1, y_min: 0, start: 0, duration: 1, amplitude: 1}]\n"),
                 "stimulus[0].y_min: applies to sheets and boxes"));
  CHECK(contains(config_error("initial: {v: {type: gaussian, center: [1, 2]}}\n"),
                 "initial.v.center: expected a number x (the domain has 1 axis), got a list"));
  const std::string sheet = "domain: {length: [20, 10], dx: 0.5}\ntime: {dt: 0.05}\n";
  CHECK(contains(config_error(sheet + "initial: {v: {type: gaussian, center: 3}}\n"),
                 "initial.v.center: expected a list [x, y] (the domain has 2 axes), got '3'"));
  CHECK(contains(config_error(sheet + "output: {probes: [3, 4]}\n"),
                 "output.probes[0]: expected a list [x, y] (the domain has 2 axes), got '3'"));
  CHECK(contains(config_error(sheet + "output: {probes: [[3, 40]]}\n"),
                 "output.probes[0] = [3, 40] is outside the domain [0, 20] x [0, 10]"));
  CHECK(contains(config_error(sheet + "scheme: {type: adaptive_explicit}\n"),
                 "scheme.type: adaptive_explicit works on cables only"));
  CHECK(contains(config_error(sheet + "output: {spacetime: true}\n"),
                 "output.spacetime: the x-t kymograph is drawn for cables only"));
  CHECK(contains(config_error(sheet + "boundary: {no_flux_order: 1}\n"), "is for cables only"));
  CHECK(contains(config_error(sheet + "initial: {v: {type: step, axis: z}}\n"),
                 "initial.v.axis: 'z' is not allowed; expected x or y"));
  CHECK(contains(config_error("initial: {v: {type: step, axis: y}}\n"), "expected x (the domain is a cable)"));
  CHECK(contains(config_error("output: {tips: {enabled: true}}\n"),
                 "output.tips.enabled: spiral tips are found on sheets only (domain.length: [Lx, Ly])"));
  CHECK(contains(config_error("output: {activation: {enabled: true}}\n"),
                 "output.activation.enabled: activation maps are computed on sheets and boxes only"));
  CHECK(contains(config_error(sheet + "output: {tips: {breakup: 0}}\n"),
                 "output.tips.breakup: value 0 is out of range; expected a whole number in [1, "
                 "1048576]"));
  CHECK(contains(config_error(sheet + "output: {tips: {drift: -1}}\n"),
                 "output.tips.drift: value -1 is out of range; expected a number > 0"));
  // The sheet's explicit limit: diffusion 8 D/dx^2 with the reaction's slope (dx^2 / (4 D) alone).
  CHECK(contains(config_error("domain: {length: [20, 10], dx: 0.5}\ntime: {end: 7, dt: 0.07}\n"),
                 "the largest stable dt is 0.06062498902983493"));
  CHECK(contains(config_error("domain: {length: [20, 10], dx: 0.5}\ntime: {end: 7, dt: 0.07}\n"
                              "scheme: {explicit_limit: diffusion}\n"),
                 "exceeds the explicit stability limit dx^2/(4 D) = 0.0625"));
}

TEST_CASE("--set replaces the file's choice of an exclusive pair, and says so") {
  const std::string file = "domain: {length: 20, dx: 0.5}\ntime: {end: 1, dt: 0.05}\n";
  const fhn::Config c = config_from(file, {"domain.nodes=21"});
  CHECK(c.domain.nodes[0] == 21);
  CHECK(c.domain.dx == 1.0);
  REQUIRE(c.notes.size() == 1);
  CHECK(contains(c.notes[0], "--set domain.nodes=21 replaces domain.dx = 0.5 of the config file"));
  const fhn::Config d = config_from("domain: {length: 20, nodes: 41}\ntime: {end: 1, dt: 0.05}\n", {"domain.dx=1"});
  CHECK(d.domain.nodes[0] == 21);
  // Both in the file, or both on the command line: still an error.
  CHECK(contains(config_error("domain: {length: 20, nodes: 41, dx: 0.5}\n"), "domain.nodes and domain.dx are exclusive"));
  CHECK(contains(config_error(file, {"domain.nodes=21", "domain.dx=1"}),
                 "domain.nodes and domain.dx are exclusive (nodes given at --set domain.nodes=21)"));
}

TEST_CASE("bilinear interpolation on a sheet is exact for bilinear functions and at nodes") {
  const fhn::Domain d = fhn::test::sheet_domain(9, 7, 0.5);
  std::vector<double> values(63);
  auto f = [](double x, double y) { return 1.0 + 2.0 * x - 3.0 * y + 0.5 * x * y; };
  for (int j = 0; j < 7; ++j)
    for (int i = 0; i < 9; ++i) values[static_cast<std::size_t>(i + 9 * j)] = f(0.5 * i, 0.5 * j);
  for (const fhn::Point& p : {fhn::Point{0.3, 0.7, 0}, fhn::Point{3.99, 2.2, 0}, fhn::Point{4, 3, 0}, fhn::Point{0, 0, 0}})
    CHECK(fhn::bilinear_at(d, values.data(), p) == doctest::Approx(f(p[0], p[1])).epsilon(1e-14));
  CHECK(fhn::bilinear_at(d, values.data(), {9.0, -1.0, 0.0}) == doctest::Approx(f(4.0, 0.0)));  // clamped
}

TEST_CASE("conduction velocity of a planar front at a known speed, from its activation times") {
  // A front at speed c activates x at t* = x / c up to x = 12 (the nodes beyond never: NaN).
  // Central and one-sided differences of a linear t* are exact: CV = 1 / |grad t*| = c wherever a
  // difference exists (to rounding), NaN where the node never activated.
  fhn::Domain d;
  d.dims = 2;
  d.length = {20.0, 4.0, 0.0};
  d.nodes = {41, 9, 1};
  d.dx = 0.5;
  const double c = 0.8;
  const auto n = static_cast<std::size_t>(d.node_count());
  std::vector<double> first(n), last(n);
  for (fhn::index_t node = 0; node < d.node_count(); ++node) {
    const double x = d.position(node)[0];
    first[static_cast<std::size_t>(node)] = x <= 12.0 ? x / c : std::nan("");
    last[static_cast<std::size_t>(node)] = first[static_cast<std::size_t>(node)] + 50.0;
  }
  fhn::ActivationMap map(d, 0.5, true);
  CHECK(map.empty());
  map.take(first.data(), last.data());
  CHECK(!map.empty());
  CHECK(map.last()[8] == 4.0 / c + 50.0);  // kept with keep_last
  const std::vector<double> cv = map.conduction_velocity();
  for (fhn::index_t node = 0; node < d.node_count(); ++node) {
    CAPTURE(node);
    const auto at = static_cast<std::size_t>(node);
    if (d.position(node)[0] <= 12.0)
      CHECK(cv[at] == doctest::Approx(c).epsilon(1e-12));
    else
      CHECK(std::isnan(cv[at]));
  }
}

TEST_CASE("the .pvd collection costs the same bytes at every frame and stays valid") {
  fhn::test::TempDir dir;
  const fs::path file = dir / "a.pvd";
  std::size_t bytes_at_2000 = 0, bytes_at_20000 = 0;
  {
    fhn::PvdCollection pvd(file);
    for (int k = 0; k < 20001; ++k) {
      char name[64];
      std::snprintf(name, sizeof name, "frames/a_%06d.vti", k);
      const std::size_t bytes = pvd.append(1.0, name);  // the same time text: the same line length
      if (k == 2000) bytes_at_2000 = bytes;
      if (k == 20000) bytes_at_20000 = bytes;
    }
  }
  CHECK(bytes_at_2000 == bytes_at_20000);
  const std::string text = fhn::test::read_text(file);
  const std::string tail = "  </Collection>\n</VTKFile>\n";
  CHECK(text.rfind(tail) == text.size() - tail.size());
  CHECK(std::count(text.begin(), text.end(), '\n') == 20001 + 5);

  // A restart keeps the frames before its time and continues after them.
  {
    fhn::PvdCollection first(dir / "b.pvd");
    for (int k = 0; k < 5; ++k) first.append(k, "frames/b_" + std::to_string(k) + ".vti");
  }
  fhn::PvdCollection resumed(dir / "b.pvd", 2.5);
  resumed.append(3, "frames/b_again.vti");
  const std::string b = fhn::test::read_text(dir / "b.pvd");
  CHECK(contains(b, "timestep=\"2\" group=\"\" part=\"0\" file=\"frames/b_2.vti\"/>\n    <DataSet timestep=\"3\" group=\"\" part=\"0\" file=\"frames/b_again.vti\"/>\n  </Collection>"));
  CHECK_FALSE(contains(b, "b_3.vti"));
}

TEST_CASE("a sheet run restarted from a checkpoint writes the same files as the run that never stopped") {
  const std::string config =
      "name: sheet\n"
      "domain: {length: [12, 8], dx: 0.5}\n"
      "initial: {v: {type: rectangle, x_min: 0, x_max: 1.5, y_min: 0, y_max: 8}}\n"
      "stimulus: [{x_min: 5, x_max: 6, y_min: 6, y_max: 8, start: 12, duration: 1, amplitude: 0.5}]\n"
      "time: {end: 20, dt: 0.05}\n"
      "output: {every: 1, probes: [[3, 3]], checkpoint_every: 5, activation: {last: true}}\n";
  auto run = [&](const std::vector<std::string>& extra, const fs::path& dir, const fs::path& restart = {}) {
    fhn::RunOptions options;
    options.output_dir = dir;
    options.quiet = true;
    options.restart = restart;
    fhn::run_simulation(config_from(config, without_vtk_if_absent(extra)), options);
  };
  fhn::test::TempDir dir;
  run({}, dir / "a");
  run({"time.end=13"}, dir / "b");
  const fs::path checkpoint = fhn::checkpoint_path(dir / "b", "sheet", 200);
  REQUIRE(fs::exists(checkpoint));
  run({}, dir / "b", checkpoint);
  std::vector<std::string> files{"probes.csv"};
  if (fhn::vtk_compiled()) files.insert(files.end(), {"sheet.pvd", "activation.vti", "frames/sheet_000020.vti"});
  for (const std::string& file : files) {
    CAPTURE(file);
    CHECK(fhn::test::read_text(dir / "a" / file) == fhn::test::read_text(dir / "b" / file));
  }
  const std::string summary = fhn::test::read_text(dir / "a" / "summary.json");
  CHECK(contains(summary, "\"dims\": 2"));
  CHECK(contains(summary, "\"nodes\": 425"));
}

// Frames are VTK files: skipped (not passed) in a build without VTK.
TEST_CASE("a sheet run killed at random moments leaves a .pvd that parses and lists complete frames" *
          doctest::skip(!fhn::vtk_compiled())) {
  fhn::test::TempDir dir;
  const std::string config = fhn::test::write_text(dir / "k.yaml",
                                                   "name: k\n"
                                                   "domain: {length: [40, 40], dx: 0.5}\n"
                                                   "time: {end: 1000, dt: 0.0625}\n"
                                                   "scheme: {explicit_limit: diffusion}\n"
                                                   "output: {every: 0.0625, probes: [[1, 1]]}\n");
  std::mt19937 rng(7);
  for (int trial = 0; trial < 5; ++trial) {
    const fs::path out = dir / ("out" + std::to_string(trial));
    const int child = fhn::test::spawn_cli({"run", config, "--quiet", "--output", out.string()}, dir / "err.txt");
    fhn::test::wait_until([&] { return fs::exists(out / "k.pvd"); }, 400,
                          std::chrono::milliseconds(25));
    std::this_thread::sleep_for(std::chrono::milliseconds(std::uniform_int_distribution<int>(150, 600)(rng)));
    kill(child, SIGKILL);
    CHECK(fhn::test::wait_exit_code(child) == -SIGKILL);
    const std::string pvd = fhn::test::read_text(out / "k.pvd");
    CHECK(pvd.rfind("<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\"", 0) == 0);
    const std::string tail = "  </Collection>\n</VTKFile>\n";
    REQUIRE(pvd.size() >= tail.size());
    CHECK(pvd.compare(pvd.size() - tail.size(), tail.size(), tail) == 0);
    // Every frame it lists is complete on disk.
    std::size_t listed = 0;
    for (std::size_t at = pvd.find("file=\""); at != std::string::npos; at = pvd.find("file=\"", at + 1)) {
      const std::string file = pvd.substr(at + 6, pvd.find('"', at + 6) - at - 6);
      const std::string frame = fhn::test::read_text(out / file);
      CHECK(frame.size() > 100);
      CHECK(frame.compare(frame.size() - 11, 11, "</VTKFile>\n") == 0);
      ++listed;
    }
    CHECK(listed > 0);
  }
}

TEST_CASE("a sheet run that blows up names the node by x, y and i, j and keeps its finite output") {
  fhn::test::TempDir dir;
  // A stimulus of 1e300 at one node drives its v past the largest double within two steps.
  const fhn::Config c = config_from(
      "name: blowup\n"
      "domain: {length: [10, 6], dx: 0.5}\n"
      "stimulus: [{x_min: 7, x_max: 7, y_min: 2, y_max: 2, start: 1, duration: 1, amplitude: 1.0e300, "
      "coverage: nodes}]\n"
      "time: {end: 3, dt: 0.05}\n"
      "output: {every: 0.05, probes: [[1, 1]]}\n",  // checked at every step
      without_vtk_if_absent());
  fhn::RunOptions options;
  options.output_dir = dir / "out";
  options.quiet = true;
  try {
    fhn::run_simulation(c, options);
    FAIL("no NumericalError");
  } catch (const fhn::NumericalError& e) {
    CHECK(contains(e.what(), "at x = 7, y = 2 (node i = 14, j = 4)"));
    CHECK(contains(e.what(), "Hint: time.dt = 0.05 may be too large: forward Euler multiplies"));
    CHECK(contains(e.what(), "needs dt <= 2/r = 0.06062498902983493"));
  }
  CHECK(contains(fhn::test::read_text(dir / "out" / "summary.json"), "\"status\": \"numerical_failure\""));
  if (fhn::vtk_compiled()) CHECK(contains(fhn::test::read_text(dir / "out" / "blowup.pvd"), "timestep=\"1\""));
}

TEST_CASE("an output switched on at a restart starts afresh, and run.log says so") {
  const std::string config =
      "name: late\n"
      "domain: {length: [6, 4], dx: 0.5}\n"
      "time: {end: 4, dt: 0.05}\n"
      "output: {every: 1, probes: [], checkpoint_every: 2, tips: {enabled: false}}\n";
  fhn::test::TempDir dir;
  fhn::RunOptions options;
  options.output_dir = dir / "out";
  options.quiet = true;
  fhn::run_simulation(config_from(config, without_vtk_if_absent({"time.end=3"})), options);
  options.restart = fhn::checkpoint_path(dir / "out", "late", 40);
  REQUIRE(fs::exists(options.restart));
  fhn::run_simulation(config_from(config, without_vtk_if_absent({"output.tips.enabled=true"})), options);
  CHECK(contains(fhn::test::read_text(dir / "out" / "run.log"),
                 "restart: tips.csv: the checkpoint holds no tip path (output.tips was off before "
                 "the restart)"));
  CHECK(fs::exists(dir / "out" / "tips.csv"));
}

TEST_CASE("the Laplacian is one loop over the axes: a sheet's bit for bit, and a box by its size") {
  using fhn::index_t;
  // A box of 5 x 6 x 7 nodes, h = 0.5, D = 2, every side no-flux: u = x^2 + 2 y^2 - z^2 (in
  // index units i, j, l) has the second differences 2, 4 and -2 at interior nodes, so
  // D (L_h u) = D (2 + 4 - 2) / h^2 = 32 exactly; at a no-flux side the mirrored ghost node
  // gives 2 (u_inner - u_side) along that axis.
  fhn::Domain box;
  box.dims = 3;
  box.nodes = {5, 6, 7};
  box.length = {2.0, 2.5, 3.0};
  box.dx = 0.5;
  fhn::ModelParams model;
  model.diffusion = 2.0;
  const fhn::NodeParams q = fhn::node_params(model, fhn::BoundarySpec{}, box, 0.1);
  CHECK(q.stride[1] == 5);
  CHECK(q.stride[2] == 30);
  CHECK(q.planes == 7);
  std::vector<double> u(static_cast<std::size_t>(box.node_count()));
  for (index_t node = 0; node < box.node_count(); ++node) {
    index_t at[3];
    box.axis_indices(node, at);
    u[static_cast<std::size_t>(node)] =
        static_cast<double>(at[0] * at[0] + 2 * at[1] * at[1] - at[2] * at[2]);
  }
  const index_t inner[3] = {2, 3, 4};
  const index_t c = 2 + 5 * 3 + 30 * 4;
  CHECK(fhn::laplacian<3>(u.data(), c, inner, q) == 32.0);
  // The corner (0, 0, 0): 2 (u_1 - u_0) along each axis = 2 (1 + 2 - 1), times D / h^2 = 8.
  const index_t corner[3] = {0, 0, 0};
  CHECK(fhn::laplacian<3>(u.data(), 0, corner, q) == 8.0 * 2.0 * (1.0 + 2.0 - 1.0));

  // On a sheet the arrays' Laplacian equals laplacian_of from the neighbours' values (as the GPU
  // kernels pass them), at every node, bit for bit.
  const fhn::Config c2 = fhn::test::config_from(
      "domain: {length: [4, 3], nodes: [9, 7]}\ntime: {dt: 0.05}\n"
      "boundary: {left: {type: dirichlet, value: 0.2}, top: {type: dirichlet, value: 0.5}}\n");
  const fhn::Problem p = fhn::make_problem(c2);
  const fhn::NodeParams s = fhn::node_params(p);
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> value(-0.2, 1.0);
  std::vector<double> v(p.v0.size());
  for (double& x : v) x = value(rng);
  for (index_t j = 0; j < s.n[1]; ++j)
    for (index_t i = 0; i < s.n[0]; ++i) {
      const index_t k = i + s.n[0] * j;
      auto at = [&](index_t di, index_t dj) {
        const index_t ii = i + di, jj = j + dj;
        const bool outside = ii < 0 || ii >= s.n[0] || jj < 0 || jj >= s.n[1];
        return outside ? 0.0 : v[static_cast<std::size_t>(ii + s.n[0] * jj)];
      };
      const double below[2] = {at(-1, 0), at(0, -1)}, above[2] = {at(1, 0), at(0, 1)};
      const index_t node[3] = {i, j, 0};
      CHECK(fhn::laplacian(v.data(), i, j, s) ==
            fhn::laplacian_of<2, true>(below, v[static_cast<std::size_t>(k)], above, node, s));
    }
}
