// `fhn run` over the ranks: the same output as one process, bit for bit, and checkpoints that
// restart on another number of ranks.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>

#include "app/cli.hpp"
#include "core/error.hpp"
#include "run/checkpoint.hpp"
#include "run/restart.hpp"
#include "run/run.hpp"
#include "support.hpp"
#include "tests/mpi/world.hpp"

namespace fs = std::filesystem;

namespace fhn {
namespace {

// A 21 x 13 x 15 box (N_z odd: the slabs differ by a plane), a Dirichlet back face, an S1 slab,
// a stimulus block across the slabs' boundary, probes in both slabs; to t = 16, checkpoints every
// 8 time units.
const char* kBox = R"(
name: box
domain: {length: [10, 6, 7], dx: 0.5}
initial:
  v: {type: rectangle, x_min: 0, x_max: 2, value: 1}
boundary: {back: {type: dirichlet, value: 0.2}}
stimulus:
  - {x_min: 4, x_max: 6, y_min: 1, y_max: 3, z_min: 2, z_max: 5, start: 3, duration: 2, amplitude: 0.6}
time: {end: 16, dt: 0.04}
output: {every: 2, vtk: false, probes: [[5, 3, 1], [5, 3, 6], [9, 5, 3.5]], checkpoint_every: 8}
)";

// A 41 x 33 sheet (N_y odd: the slabs differ by a row) with a Dirichlet side, a no-flux side, a
// stimulus across the slab boundary and probes on both slabs; 600 steps, checkpoints at steps
// 200 and 400.
const char* kSheet = R"(
name: sheet
model: {a: 0.1, epsilon: 0.01, gamma: 2.0, diffusion: 1.0}
domain: {length: [20, 16], dx: 0.5}
initial:
  v: {type: rectangle, x_min: 0, x_max: 3, y_min: 0, y_max: 16, value: 1}
boundary: {left: {type: dirichlet, value: 0.2}}
stimulus:
  - {x_min: 8, x_max: 12, y_min: 6, y_max: 10, start: 5, duration: 2, amplitude: 0.6}
time: {end: 30, dt: 0.05}
output: {every: 2.5, vtk: false, probes: [[10, 2], [10, 14], [19, 8]], checkpoint_every: 10}
)";

std::vector<real> checkpoint_array(const fs::path& dir, index_t step, const std::string& name,
                                   const std::string& run = "sheet") {
  return test::checkpoint_arrays(dir, run, step)[name];
}

// Runs `c` over the ranks into <folder>/<tag>_ranks and, on the root, in one process into
// <tag>_one; checks probes.csv and the checkpoint's v and w (`nodes` values, kSheet's 41 x 33
// by default) at `step` alike, bit for bit. Returns the one-process run's folder (on the root; the others get it too, unused).
fs::path check_ranks_equal_one(const Config& c, Communicator& comm, const fs::path& folder,
                               const std::string& tag, index_t step,
                               std::size_t nodes = 41 * 33) {
  RunOptions ranks;
  ranks.output_dir = folder / (tag + "_ranks");
  ranks.quiet = true;
  ranks.comm = &comm;
  run_simulation(c, ranks);
  RunOptions one;
  one.output_dir = folder / (tag + "_one");
  one.quiet = true;
  if (!comm.root()) return one.output_dir;
  run_simulation(c, one);
  CHECK(test::read_text(ranks.output_dir / "probes.csv") ==
        test::read_text(one.output_dir / "probes.csv"));
  for (const char* name : {"v", "w"}) {
    const std::vector<real> a = checkpoint_array(ranks.output_dir, step, name, c.name);
    CHECK(a.size() == nodes);
    CHECK(a == checkpoint_array(one.output_dir, step, name, c.name));
  }
  return one.output_dir;
}

TEST_CASE("a sheet over the ranks writes what one process writes, bit for bit") {
  Communicator& comm = test::world();
  const test::SharedFolder tmp;
  const fs::path dir = tmp.path();
  // Explicit (halo rows), and ADI at 5x the step (halo rows and a transpose for the columns,
  // Newton's convergence agreed over the ranks: newton.csv too).
  for (const bool adi : {false, true}) {
  CAPTURE(adi);
  const Config c = adi ? test::config_from(kSheet, {"scheme.type=crank_nicolson", "time.dt=0.25",
                                                    "output.newton_log=true"})
                       : test::config_from(kSheet);
  RunOptions ranks;
  ranks.output_dir = dir / (adi ? "adi_ranks" : "ranks");
  ranks.quiet = true;
  ranks.comm = &comm;
  const RunSummary summary = run_simulation(c, ranks);
  CHECK(summary.steps == (adi ? 120 : 600));
  if (comm.root()) {
    RunOptions one;
    one.output_dir = dir / (adi ? "adi_one" : "one");
    one.quiet = true;
    run_simulation(c, one);
    const fs::path ranks_dir = ranks.output_dir, one_dir = one.output_dir;
    CHECK(test::read_text(ranks_dir / "probes.csv") == test::read_text(one_dir / "probes.csv"));
    if (adi)
      CHECK(test::read_text(ranks_dir / "newton.csv") == test::read_text(one_dir / "newton.csv"));
    const index_t step = adi ? 80 : 400;
    for (const char* name : {"v", "w"}) {
      const std::vector<real> a = checkpoint_array(ranks_dir, step, name);
      CHECK(a.size() == 41 * 33);
      CHECK(a == checkpoint_array(one_dir, step, name));
    }
    if (comm.size() > 1)
      CHECK(test::contains(test::read_text(ranks_dir / "run.log"), "ranks: " + comm.describe()));
  }
  }
}

TEST_CASE("every kinetics form over the ranks writes what one process writes, bit for bit") {
  // FitzHugh's form from rest with an excited strip, Barkley's cross-field spiral start: explicit
  // (halo rows) and ADI (halo rows, the transpose, Newton agreed over the ranks).
  Communicator& comm = test::world();
  const test::SharedFolder tmp;
  const std::string common =
      "domain: {length: [20, 16], dx: 0.5}\n"
      "output: {every: 2, vtk: false, probes: [[10, 2], [10, 14]], checkpoint_every: 10}\n";
  const std::pair<std::string, std::vector<std::string>> cases[] = {
      {"name: fitzhugh\nmodel: {form: fitzhugh}\n"
       "initial: {v: {type: rectangle, x_min: 0, x_max: 3, value: 1.5, background: -1.2},"
       " w: {type: rest}}\ntime: {end: 20, dt: 0.04}\n",
       {"scheme.type=crank_nicolson", "time.dt=0.2"}},
      {"name: barkley\nmodel: {form: barkley}\n"
       "initial: {v: {type: rectangle, x_min: 0, x_max: 20, y_min: 8, y_max: 16, value: 1},"
       " w: {type: rectangle, x_min: 0, x_max: 10, value: 0.375}}\ntime: {end: 20, dt: 0.02}\n",
       {"scheme.type=crank_nicolson", "time.dt=0.05"}},
  };
  for (const auto& [yaml, adi_overrides] : cases)
    for (const bool adi : {false, true}) {
      CAPTURE(yaml);
      CAPTURE(adi);
      const Config c = test::config_from(yaml + common, adi ? adi_overrides : std::vector<std::string>{});
      const index_t step = adi ? (c.name == "fitzhugh" ? 50 : 200) : (c.name == "fitzhugh" ? 250 : 500);
      check_ranks_equal_one(c, comm, tmp.path(), c.name + (adi ? "_adi" : "_explicit"), step);
    }
}

TEST_CASE("a sheet with a tissue mask and fields over the ranks writes what one process writes, "
          "bit for bit") {
  // kSheet's grid, sides, start and stimulus with a disc obstacle across the slabs' boundary
  // (the middle rows) and a gradient of a; then a scar of D = 0 and a blended disc of D = 1.2,
  // or fibres at an angle varying along x. The explicit scheme's slabs read their parts of the
  // quadrant bytes and the per-node arrays, halo rows included (a face's harmonic mean and a
  // cell's D_xy reach the next rank's row).
  Communicator& comm = test::world();
  const test::SharedFolder tmp;
  const std::string sheet = R"(
name: sheet
domain: {length: [20, 16], dx: 0.5}
initial:
  v: {type: rectangle, x_min: 0, x_max: 3, y_min: 0, y_max: 16, value: 1}
boundary: {left: {type: dirichlet, value: 0.2}}
stimulus:
  - {x_min: 8, x_max: 12, y_min: 6, y_max: 10, start: 5, duration: 2, amplitude: 0.6}
time: {end: 30, dt: 0.05}
output: {every: 2.5, vtk: false, probes: [[10, 2], [10, 14], [19, 8]], checkpoint_every: 10}
tissue: [{shape: disc, center: [10, 8], radius: 2.2}]
)";
  const std::string fields =
      "fields:\n"
      "  - {parameter: a, type: gradient, axis: y, from: 0.08, to: 0.14}\n";
  const std::pair<std::string, std::string> cases[] = {
      {"fields",
       "model: {a: 0.1, epsilon: 0.01, gamma: 2.0, diffusion: 1.0}\n" + fields +
           "  - {parameter: diffusion, shape: rectangle, x_min: 13, x_max: 15, y_min: 6, "
           "y_max: 9.5, value: 0}\n"
           "  - {parameter: diffusion, shape: disc, center: [5, 8], radius: 2, value: 1.2, "
           "edge: 1}\n"},
      {"fibres",
       "model: {a: 0.1, epsilon: 0.01, gamma: 2.0}\n"
       "anisotropy: {longitudinal: 1.0, transverse: 0.25, angle: 30}\n" + fields +
           "  - {parameter: fibre_angle, type: gradient, axis: x, from: 10, to: 60}\n"}};
  for (const auto& [tag, yaml] : cases) {
    CAPTURE(tag);
    const Config c = test::config_from(sheet + yaml);
    const fs::path one = check_ranks_equal_one(c, comm, tmp.path(), tag, 400);
    if (comm.root()) {
      // The waves ran round the obstacle: v is excited somewhere at step 400, and the
      // obstacle's centre (node (20, 16)) kept its resting state.
      const std::vector<real> v = checkpoint_array(one, 400, "v");
      CHECK(*std::max_element(v.begin(), v.end()) > 0.5);
      CHECK(v[20 + 41 * 16] == 0.0);
    }
  }
}

TEST_CASE("a box over the ranks (slabs of z planes) writes what one process writes, bit for bit") {
  // kBox to t = 16 (explicit) and t = 20 (Douglas ADI at 5 times the dt: the z lines solved
  // after the transpose).
  Communicator& comm = test::world();
  const test::SharedFolder tmp;
  for (const bool adi : {false, true}) {
  CAPTURE(adi);
  const std::vector<std::string> scheme =
      adi ? std::vector<std::string>{"scheme.type=crank_nicolson", "time.dt=0.2", "time.end=20",
                                     "output.checkpoint_every=8"}
          : std::vector<std::string>{};
  const Config c = test::config_from(kBox, scheme);
  const std::string tag = adi ? "box_adi" : "box";
  const index_t step = adi ? 40 : 200;  // t = 8
  const fs::path one = check_ranks_equal_one(c, comm, tmp.path(), tag, step, 21 * 13 * 15);
  if (comm.root()) {
    const std::vector<real> v = checkpoint_array(one, step, "v", "box");
    CHECK(*std::max_element(v.begin(), v.end()) > 0.5);  // a wave is under way
  }
  }
}

TEST_CASE("a checkpoint restarts on another number of ranks and ends where the run would have") {
  // The sheet (explicit, 600 steps, checkpoints at 200 and 400) and the box's Douglas ADI (100
  // steps of 0.2, checkpoints at 40 and 80): one process's first checkpoint continued on all
  // ranks, the ranks' second continued by one process.
  Communicator& comm = test::world();
  const test::SharedFolder tmp;
  struct Case {
    Config c;
    index_t first, second, steps;
  };
  const Case cases[] = {
      {test::config_from(kSheet), 200, 400, 600},
      {test::config_from(kBox, {"scheme.type=crank_nicolson", "time.dt=0.2", "time.end=20"}), 40,
       80, 100}};
  for (const Case& k : cases) {
    const Config& c = k.c;
    CAPTURE(c.name);
    const fs::path dir = tmp.path() / c.name;
    // The reference: one process, uninterrupted.
    if (comm.root()) {
      RunOptions one;
      one.output_dir = dir / "one";
      one.quiet = true;
      run_simulation(c, one);
      fs::copy(dir / "one", dir / "to_ranks", fs::copy_options::recursive);
    }
    // The one-process checkpoint at the first step, continued on all ranks.
    RunOptions ranks;
    ranks.output_dir = dir / "to_ranks";
    ranks.quiet = true;
    ranks.comm = &comm;
    ranks.restart = checkpoint_path(dir / "to_ranks", c.name, k.first);
    CHECK(run_simulation(c, ranks).steps == k.steps);  // the whole run's, on every rank
    // The ranks' checkpoint at the second step (written by the restarted run), continued by one
    // process.
    if (comm.root()) {
      fs::copy(dir / "to_ranks", dir / "to_one", fs::copy_options::recursive);
      RunOptions one;
      one.output_dir = dir / "to_one";
      one.quiet = true;
      one.restart = checkpoint_path(dir / "to_one", c.name, k.second);
      CHECK(run_simulation(c, one).steps == k.steps);
      const std::string reference = test::read_text(dir / "one/probes.csv");
      CHECK(test::read_text(dir / "to_ranks/probes.csv") == reference);
      CHECK(test::read_text(dir / "to_one/probes.csv") == reference);
      CHECK(checkpoint_array(dir / "to_ranks", k.second, "v", c.name) ==
            checkpoint_array(dir / "one", k.second, "v", c.name));
    }
  }
}

TEST_CASE("a sheet that blows up over the ranks stops every rank alike; the root says where") {
  Communicator& comm = test::world();
  const test::SharedFolder tmp;
  // v = 10^6 on the rectangle: the cubic reaction term overflows within a few steps.
  const Config c = test::config_from(kSheet, {"initial.v.value=1e6"});
  RunOptions ranks;
  ranks.output_dir = tmp / "unstable";
  ranks.quiet = true;
  ranks.comm = &comm;
  const char* where = comm.root() ? "the solution stopped being finite: v = "
                                  : "the solution stopped being finite (rank 0 reports where)";
  CHECK_THROWS_WITH_AS(run_simulation(c, ranks), doctest::Contains(where), NumericalError);
}

TEST_CASE("fhn under several ranks: converge and bench refuse, unsupported schemes say so") {
  Communicator& comm = test::world();
  if (comm.size() == 1) return;  // nothing to refuse on one rank
  std::ostringstream out, err;
  const char* bench[] = {"fhn", "bench", "--sizes", "2^10"};
  CHECK(cli_main(4, bench, out, err, &comm) == static_cast<int>(ExitCode::usage));
  if (comm.root()) CHECK(test::contains(err.str(), "fhn bench runs as one process"));
  if (!comm.root()) CHECK(err.str().empty());  // rank 0 speaks for all
  const Config cable = test::config_from(
      "name: cable\ndomain: {length: 50, dx: 0.5}\ntime: {end: 1, dt: 0.1}\n"
      "scheme: {type: explicit}\noutput: {vtk: false}\n");
  RunOptions ranks;
  ranks.quiet = true;
  ranks.comm = &comm;
  const test::SharedFolder tmp;
  ranks.output_dir = tmp / "cn";
  // Thrown on every rank alike (before any collective), so no rank waits.
  // The refusal names the key's place in the file.
  CHECK_THROWS_WITH_AS(run_simulation(cable, ranks),
                       doctest::Contains("test.yaml:4:16: scheme.type: explicit on a cable with the "
                                         "cpu backend does not run on several ranks yet (explicit "
                                         "and crank_nicolson with formulation: adi on a sheet or "
                                         "a box, crank_nicolson with formulation: newton on a "
                                         "cable do)"),
                       ConfigError);
  // So does a grid too small to share: 3 nodes, each rank of a Crank-Nicolson cable needs 2.
  const Config tiny = test::config_from(
      "name: tiny\ndomain: {nodes: 3, length: 1}\ntime: {end: 1, dt: 0.1}\n"
      "scheme: {type: crank_nicolson}\noutput: {vtk: false, spacetime: false}\n");
  ranks.output_dir = tmp / "tiny";
  const std::string too_few = "test.yaml:2:17: domain.nodes: 3 nodes along x cannot be shared by " +
                              std::to_string(comm.size()) + " ranks";
  CHECK_THROWS_WITH_AS(run_simulation(tiny, ranks), doctest::Contains(too_few.c_str()),
                       ConfigError);
}

// A cable by Crank-Nicolson over the ranks: the Newton systems are solved by the partitioned
// solve across ranks (a different elimination order from one Thomas sweep), so the runs agree to
// round-off, with the same Newton iterations.
TEST_CASE("a Crank-Nicolson cable over the ranks agrees with one process to round-off") {
  Communicator& comm = test::world();
  const test::SharedFolder tmp;
  const fs::path dir = tmp.path();
  for (const char* w_update : {"trapezoidal", "leapfrog"}) {
    CAPTURE(w_update);
    const Config c = test::config_from(R"(
name: cable
domain: {length: 60, dx: 0.25}
scheme: {type: crank_nicolson}
initial: {v: {type: rectangle, x_min: 0, x_max: 4, value: 1}}
boundary: {right: {type: dirichlet, value: 0.1}}
stimulus: [{x_min: 28, x_max: 33, start: 3, duration: 2, amplitude: 0.4}]
time: {end: 20, dt: 0.1}
output: {every: 1, vtk: false, spacetime: false, probes: [10, 30, 59], checkpoint_every: 10,
         newton_log: true}
)",
                                       {std::string("scheme.crank_nicolson.w_update=") + w_update});
    RunOptions ranks;
    ranks.output_dir = dir / (std::string("cn_ranks_") + w_update);
    ranks.quiet = true;
    ranks.comm = &comm;
    CHECK(run_simulation(c, ranks).steps == 200);
    if (!comm.root()) continue;
    RunOptions one;
    one.output_dir = dir / (std::string("cn_one_") + w_update);
    one.quiet = true;
    run_simulation(c, one);
    for (const char* name : {"v", "w"}) {
      const std::vector<real> a = checkpoint_array(ranks.output_dir, 100, name, "cable");
      const std::vector<real> b = checkpoint_array(one.output_dir, 100, name, "cable");
      REQUIRE(a.size() == b.size());
      REQUIRE(a.size() == 241);
      double largest = 0.0;
      for (std::size_t i = 0; i < a.size(); ++i) largest = std::max(largest, std::abs(a[i] - b[i]));
      CHECK(largest < 1e-12);
    }
    // The same iterations in every step (newton.csv's step and iteration columns).
    auto iterations = [](const fs::path& file) {
      std::string text = test::read_text(file), out;
      std::istringstream lines(text);
      for (std::string line; std::getline(lines, line);)
        out += line.substr(0, line.find(',', line.find(',') + 1)) + "\n";
      return out;
    };
    CHECK(iterations(ranks.output_dir / "newton.csv") == iterations(one.output_dir / "newton.csv"));
    if (comm.size() > 1)
      CHECK(test::contains(test::read_text(ranks.output_dir / "run.log"),
                           "thomas, partitioned over ranks"));
  }
}

TEST_CASE("the 'continue with' command of a run on N ranks starts with mpirun -np N") {
  Communicator& comm = test::world();
  Config c = test::config_from(kSheet);
  c.source = "sheet.yaml";
  RunOptions ranks;
  ranks.comm = &comm;
  ranks.overrides = {"time.end=40"};
  CHECK(continue_command(c, ranks, "out/checkpoints/sheet_0000000200.chk", "out") ==
        (comm.size() > 1 ? "mpirun -np " + std::to_string(comm.size()) + " " : std::string()) +
            "fhn run sheet.yaml --set time.end=40 --restart out/checkpoints/sheet_0000000200.chk "
            "--output out");
}

}  // namespace
}  // namespace fhn
