// Sheets as sweep members (fhn sweep with a sheet base config): every member's spiral tips are
// its own fhn run's, bit for bit, with explicit and ADI; a member without a start is a failed
// row; sweep.csv's tip columns and summary.json's classes; what a sheet sweep refuses.
#include <doctest/doctest.h>

#include <filesystem>
#include <sstream>

#include "config/loader.hpp"
#include "config/sweep_config.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "run/run.hpp"
#include "support.hpp"
#include "sweep/sweep.hpp"

using fhn::test::column;
using fhn::test::contains;

namespace {

// A small sheet of Barkley's medium started as a spiral: a = 0.75 rotates (period about 3.1 on
// this coarse grid); a = 0.9 with eps = 0.02 is oscillatory, so the spiral start finds no
// excursion.
const char* kSheet = R"(
name: sweep_test_sheet
model: {form: barkley, a: 0.75, b: 0.02, eps: 0.02, diffusion: 1.0}
domain: {length: [30, 30], dx: 0.5}
initial: {v: {type: spiral}, w: {type: spiral}}
time: {end: 16, dt: 0.01}
output: {every: 0.2, vtk: false}
)";

// The sweep over a in {0.6, 0.75, 0.9} of the sheet (`scheme`: --set overrides), member 1's
// files written, into dir/out; then member 1 run by fhn run into dir/single.
void sweep_and_single(const fhn::test::TempDir& dir, const std::vector<std::string>& scheme) {
  fhn::test::write_text(dir / "sheet.yaml", kSheet);
  const fhn::SweepResult result = fhn::test::sweep_quietly(
      dir.path(),
      "base: sheet.yaml\naxes: [{key: model.a, values: [0.6, 0.75, 0.9]}]\noutput: {members: [1]}\n",
      "out", scheme);
  CHECK(result.members == 3);
  CHECK(result.failed == 1);
  std::vector<std::string> single = scheme;
  single.push_back("model.a=0.75");
  fhn::RunOptions run;
  run.quiet = true;
  run.output_dir = dir / "single";
  fhn::run_simulation(fhn::load_config((dir / "sheet.yaml").string(), single), run);
}

void check_member_is_its_run(const fhn::test::TempDir& dir) {
  // The tips, frame by frame, are fhn run's, byte for byte.
  const std::string tips = fhn::test::read_text(dir / "single" / "tips.csv");
  CHECK(tips.size() > 1000);
  CHECK(fhn::test::read_text(dir / "out" / "members" / "1" / "tips.csv") == tips);

  const auto rows = fhn::test::read_csv(dir / "out" / "sweep.csv");
  REQUIRE(rows.size() == 4);
  const auto& h = rows[0];
  CHECK(h[1] == "model.a");
  CHECK(h[2] == "status");
  CHECK(h[3] == "class");
  // a = 0.6: the start's waves die out (not excitable enough for this grid) or drift off.
  CHECK(rows[1][column(h, "status")] == "ok");
  CHECK(rows[1][column(h, "tips_at_end")] == "0");
  // a = 0.75: the spiral rotates; its period is the one fhn run reports.
  const auto& spiral = rows[2];
  CHECK(spiral[column(h, "status")] == "ok");
  CHECK(spiral[column(h, "tips_at_end")] == "1");
  const std::string summary = fhn::test::read_text(dir / "single" / "summary.json");
  CHECK(contains(summary, "\"rotation_period\":" + spiral[column(h, "rotation_period")]));
  CHECK(contains(summary, "\"class\":\"" + spiral[column(h, "class")] + "\""));
  CHECK(contains(summary, "\"radius\":" + spiral[column(h, "radius")]));
  const double period = std::stod(spiral[column(h, "rotation_period")]);
  CHECK(period > 2.8);
  CHECK(period < 3.6);
  // a = 0.9: no excursion to lay out; the row says why, the others ran.
  CHECK(rows[3][column(h, "status")] == "setup_failure");
  CHECK(rows[3][column(h, "class")].empty());
  CHECK(contains(rows[3][column(h, "reason")], "does not return to rest"));
  const std::string sweep_summary = fhn::test::read_text(dir / "out" / "summary.json");
  CHECK(contains(sweep_summary, "\"classes\": {"));
  CHECK(contains(sweep_summary, "\"failed\": 1"));
}

}  // namespace

TEST_CASE("sheet sweep, explicit: a member's tips are its fhn run's, bit for bit") {
  fhn::test::TempDir dir;
  sweep_and_single(dir, {});
  check_member_is_its_run(dir);
}

TEST_CASE("sheet sweep, ADI: a member's tips are its fhn run's, bit for bit") {
  fhn::test::TempDir dir;
  sweep_and_single(dir, {"scheme.type=crank_nicolson"});
  check_member_is_its_run(dir);
}

TEST_CASE("sheet sweep: the probes' keys and boxes are refused with their place") {
  fhn::test::TempDir dir;
  fhn::test::write_text(dir / "sheet.yaml", kSheet);
  auto error = [&](const std::string& extra, const std::vector<std::string>& set = {}) {
    fhn::SweepOptions options;
    options.overrides = set;
    return fhn::test::thrown_message<fhn::ConfigError>([&] {
      fhn::sweep_member_configs(
          fhn::load_sweep_text("base: sheet.yaml\naxes: [{key: model.a, values: [0.75]}]\n" + extra,
                               (dir / "sweep.yaml").string()),
          options);
    });
  };
  CHECK(contains(error("measure: {probes: [5]}\n"),
                 "sweep.yaml:3:19: measure.* is what a cable sweep measures at its probes"));
  CHECK(contains(error("measure:\n  every: 0.2\n"), "sweep.yaml:4:10: measure.*"));
  CHECK(contains(error("measure: {planar: true}\n",
                       {"domain.length=30", "initial.v.type=rest", "initial.w.type=rest"}),
                 "sweep.yaml:3:19: measure.planar runs the planar pulse of a sheet member's medium; "
                 "the members of this sweep are cables"));
  CHECK(contains(error("", {"domain.length=[10, 10, 2]"}),
                 "the base config is a box (domain.length: [Lx, Ly, Lz]); sweeps run cables and sheets"));
}

TEST_CASE("sheet sweep with measure.planar: the planar pulse tells retract from no_propagation") {
  // Winfree's scaling at eps = 0.3, gamma = 0.5 (configs/sweeps/winfree_portrait.yaml): a
  // planar pulse propagates at beta = 0.7 and 0.88 and no longer at beta = 1.0 (beyond
  // Winfree's dP). The sheet alone sees a spiral at 0.7 and nothing that lasts at 0.88 (between
  // dR and dP: retract) and 1.0 (no_propagation).
  fhn::test::TempDir dir;
  const auto rows = fhn::test::winfree_planar_sweep(dir.path(), "out", {});
  REQUIRE(rows.size() == 4);
  const auto& h = rows[0];
  CHECK(rows[1][column(h, "planar_propagated")] == "1");
  CHECK(rows[2][column(h, "planar_propagated")] == "1");
  CHECK(rows[3][column(h, "planar_propagated")] == "0");
  CHECK(rows[3][column(h, "planar_speed")].empty());
  CHECK(rows[1][column(h, "class")] == "rigid");
  CHECK(rows[2][column(h, "class")] == "retract");
  CHECK(rows[3][column(h, "class")] == "no_propagation");
  CHECK(contains(fhn::test::read_text(dir / "out" / "summary.json"), "\"no_propagation\":1"));

  // The independent 1-D run: the same medium on a cable of the same grid, its pulse started by
  // a stimulus over x < 5 instead of the kick, watched every step at x = 15 and 35 (fhn sweep of
  // cables). Its speeds are the planar pulse's to 1%, and it fails at 1.0 too.
  fhn::test::write_text(dir / "cable.yaml", R"(
model: {form: fitzhugh, a: 0.7, b: 0.5, tau_v: 0.3, tau_w: 3.3333333333333335, diffusion: 1.0}
domain: {length: 40, dx: 0.4}
initial: {v: {type: rest}, w: {type: rest}}
stimulus: [{x_min: 0, x_max: 5, start: 0, duration: 1, amplitude: 5}]
time: {end: 60, dt: 0.01}
output: {vtk: false, spacetime: false, probes: []}
)");
  fhn::SweepOptions cable_options;
  cable_options.output_dir = dir / "cable";
  cable_options.quiet = true;
  std::ostringstream out;
  fhn::run_sweep(fhn::load_sweep_text("base: cable.yaml\naxes: [{key: model.a, values: [0.7, 0.88, 1.0]}]\n"
                                      "measure: {probes: [15, 35]}\n",
                                      (dir / "cable.yaml").string()),
                 cable_options, out);
  const auto cable = fhn::test::read_csv(dir / "cable" / "sweep.csv");
  REQUIRE(cable.size() == 4);
  CHECK(cable[3][column(cable[0], "propagated")] == "0");
  for (std::size_t r = 1; r <= 2; ++r)
    CHECK(std::stod(rows[r][column(h, "planar_speed")]) ==
          doctest::Approx(std::stod(cable[r][column(cable[0], "speed")])).epsilon(0.01));
}
