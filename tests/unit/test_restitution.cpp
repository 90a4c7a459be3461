// Restitution at the probes (study/restitution.hpp): the beats of a synthetic trace with known
// crossings, to the bit; on a paced cable APD + DI is the cycle length, which settles to the
// pacing period, and the probe pairs' conduction velocity is the front tracker's pulse speed;
// the keys checked at the door.
#include <doctest/doctest.h>

#include <cmath>

#include "io/json.hpp"
#include "study/restitution.hpp"
#include "support.hpp"

namespace fs = std::filesystem;
using fhn::test::contains;

TEST_CASE("restitution of a synthetic trace with known crossings") {
  // Samples every time unit; threshold 0.5, level 0.75.
  //   beat 0: 0 -> 1 between t = 1 and 2: activation 1.5; v_rest 0, v_peak 1, v_rep = 0.25,
  //           crossed between (4, 0.5) and (5, 0): 4.5; APD 3.
  //   beat 1: -1 -> 1 between t = 6 and 7: 6.75 (DI_0 = 2.25); v_rest -1, v_peak 1.5,
  //           v_rep = 1.5 - 0.75 2.5 = -0.375, crossed between (8, 1.5) and (9, -1.5): 8.625.
  //   beat 2: -1.5 -> 0.5 between t = 9 and 10: activation exactly at the sample, 10
  //           (DI_1 = 1.375); v stays above its v_rep = 0.5 - 0.75 2 = -1: no repolarisation,
  //           and v's dip below the threshold and rise at t = 12 is no new beat.
  const std::vector<double> v{0, 0, 1, 1, 0.5, 0, -1, 1, 1.5, -1.5, 0.5, 0.2, 0.7};
  fhn::RestitutionTracker tracker({{3.0, 0.0, 0.0}, {7.0, 0.0, 0.0}}, 1, 0.5, 0.75);
  for (std::size_t i = 0; i < v.size(); ++i) {
    const double t = static_cast<double>(i);
    // The second probe sees the same trace 2 time units later (a wave at 4 / 2 = 2).
    const double later = i >= 2 ? v[i - 2] : 0.0;
    tracker.add(t, {v[i], later});
  }
  const auto& beats = tracker.beats(0);
  REQUIRE(beats.size() == 3);
  CHECK(beats[0].activation == 1.5);
  CHECK(beats[0].repolarisation == 4.5);
  CHECK(beats[0].v_rest == 0.0);
  CHECK(beats[0].v_peak == 1.0);
  CHECK(beats[1].activation == 6.75);
  CHECK(beats[1].repolarisation == 8.625);
  CHECK(beats[1].v_rest == -1.0);
  CHECK(beats[1].v_peak == 1.5);
  CHECK(beats[2].activation == 10.0);
  CHECK(std::isnan(beats[2].repolarisation));
  REQUIRE(tracker.beats(1).size() == 3);
  CHECK(tracker.beats(1)[1].activation == 8.75);

  fhn::test::TempDir dir;
  tracker.write(dir.path());
  CHECK(fhn::test::read_text(dir / "restitution.csv") ==
        "probe,x,beat,activation,repolarisation,apd,di,v_rest,v_peak\n"
        "0,3,0,1.5,4.5,3,2.25,0,1\n"
        "0,3,1,6.75,8.625,1.875,1.375,-1,1.5\n"
        "0,3,2,10,,,,-1.5,0.7\n"
        "1,7,0,3.5,6.5,3,2.25,0,1\n"
        "1,7,1,8.75,10.625,1.875,1.375,-1,1.5\n"
        "1,7,2,12,,,,-1.5,0.5\n");
  CHECK(fhn::test::read_text(dir / "cv.csv") ==
        "from,to,beat,distance,activation_from,activation_to,cv\n"
        "0,1,0,4,1.5,3.5,2\n"
        "0,1,1,4,6.75,8.75,2\n"
        "0,1,2,4,10,12,2\n");
  fhn::JsonObject summary;
  tracker.add_summary(summary);
  CHECK(summary.str() ==
        "{\"restitution\":{\"threshold\":0.5,\"level\":0.75,\"probes\":[{\"probe\":0,\"beats\":3,"
        "\"last_apd\":1.875,\"last_di\":1.375},{\"probe\":1,\"beats\":3,\"last_apd\":1.875,"
        "\"last_di\":1.375}],\"cv\":[{\"from\":0,\"to\":1,\"distance\":4,\"beats\":3,"
        "\"last_cv\":2}]}}");
}

namespace {

// A cable paced at its left end every 100 time units, 8 times, with probes near the pacing site
// and at a quarter, half and three quarters of the cable, read every step.
const char* kPaced =
    "name: paced\n"
    "domain: {length: 100, dx: 0.5}\n"
    "initial: {v: {type: constant, value: 0}, w: {type: constant, value: 0}}\n"
    "stimulus: [{x_min: 0, x_max: 2, start: 0, duration: 1, amplitude: 1, period: 100, count: 8}]\n"
    "time: {end: 800, dt: 0.05}\n"
    "output: {every: 1, probes: [5, 25, 50, 75], probes_every: 0.05, vtk: false, spacetime: false}\n";

}  // namespace

TEST_CASE("a paced cable: APD + DI is the cycle length, settling to the period; CV is the pulse speed") {
  fhn::test::TempDir dir;
  fhn::test::run_config(fhn::test::config_from(kPaced), dir / "run");
  const auto rows = fhn::test::read_csv(dir / "run" / "restitution.csv");
  const auto& header = rows.front();
  const std::size_t probe = fhn::test::column(header, "probe"),
                    beat = fhn::test::column(header, "beat"),
                    act = fhn::test::column(header, "activation"),
                    apd = fhn::test::column(header, "apd"), di = fhn::test::column(header, "di");
  int near_site = 0;
  double last_error = 1e9;
  for (std::size_t r = 1; r < rows.size(); ++r) {
    if (rows[r][di].empty()) continue;
    CAPTURE(rows[r][probe]);
    CAPTURE(rows[r][beat]);
    REQUIRE(r + 1 < rows.size());
    const double cycle = std::stod(rows[r + 1][act]) - std::stod(rows[r][act]);
    const double sum = std::stod(rows[r][apd]) + std::stod(rows[r][di]);
    CHECK(std::abs(sum - cycle) < 1e-12 * cycle);  // by construction, to rounding
    if (rows[r][probe] == "0") {
      // Near the pacing site the cycle length settles to the period as the train does: the
      // deviation shrinks beat by beat (0.69, 0.096, ... measured) to 1.2e-6 at beat 6.
      const double error = std::abs(sum - 100.0);
      CHECK(error < last_error);
      last_error = error;
      ++near_site;
    }
  }
  CHECK(near_site == 7);
  CHECK(last_error < 2e-6);

  // Away from the pacing site and the far end, the first pulse crosses the probes at the front
  // tracker's speed (summary.json's pulse_speed, fitted to the first front): relative 8e-6 and
  // 2e-6 measured.
  const std::string summary = fhn::test::read_text(dir / "run" / "summary.json");
  const std::size_t at = summary.find("\"pulse_speed\": ");
  REQUIRE(at != std::string::npos);
  const double speed = std::stod(summary.substr(at + 15));
  const auto cv = fhn::test::read_csv(dir / "run" / "cv.csv");
  const std::size_t cv_column = fhn::test::column(cv.front(), "cv");
  int first_beats = 0;
  for (std::size_t r = 1; r < cv.size(); ++r)
    if (cv[r][2] == "0" && cv[r][0] != "0") {
      CHECK(std::abs(std::stod(cv[r][cv_column]) - speed) < 2e-5 * speed);
      ++first_beats;
    }
  CHECK(first_beats == 2);
  CHECK(contains(summary, "\"restitution\": {"));
  CHECK(contains(summary, "{\"probe\":0,\"beats\":8,"));
}

TEST_CASE("output.restitution's keys are checked at their key and line") {
  const std::string base =
      "name: r\n"
      "domain: {length: 40, nodes: 81}\n"
      "time: {end: 20, dt: 0.05}\n";
  CHECK(contains(fhn::test::config_error(base + "output:\n  restitution: {level: 1}\n"),
                 "test.yaml:5:24: output.restitution.level: value 1 is out of range; expected a "
                 "number in (0, 1)"));
  CHECK(contains(fhn::test::config_error(base + "output:\n  probes: []\n  restitution: {enabled: true}\n"),
                 "output.restitution.enabled: true needs probes (output.probes is empty)"));
  CHECK(contains(fhn::test::config_error(base + "output:\n  restitution: {levle: 0.5}\n"),
                 "output.restitution.levle"));
  // Without probes it is off by default; with them on.
  CHECK_FALSE(fhn::test::config_from(base + "output: {probes: []}\n").output.restitution.enabled);
  const fhn::Config on = fhn::test::config_from(base);
  CHECK(on.output.restitution.enabled);
  CHECK(on.output.restitution.level == 0.9);
}
