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
  fhn::SweepOptions options;
  options.output_dir = dir / "out";
  options.quiet = true;
  options.overrides = scheme;
  std::ostringstream out;
  const fhn::SweepResult result = fhn::run_sweep(
      fhn::load_sweep_text("base: sheet.yaml\naxes: [{key: model.a, values: [0.6, 0.75, 0.9]}]\n"
                           "output: {members: [1]}\n",
                           (dir / "sweep.yaml").string()),
      options, out);
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
  CHECK(contains(error("", {"domain.length=[10, 10, 2]"}),
                 "the base config is a box (domain.length: [Lx, Ly, Lz]); sweeps run cables and sheets"));
}
