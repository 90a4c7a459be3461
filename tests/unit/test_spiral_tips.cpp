// Spiral tips: find_tips on fields whose iso-lines cross at known points (exactly for fields the
// bilinear interpolant reproduces, to second order in dx for smooth ones), the rotation period
// of known paths, and the TipTracker's tips.csv, summary and checkpoint.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <sstream>
#include <vector>

#include "core/format.hpp"
#include "io/csv_resume.hpp"
#include "io/json.hpp"
#include "grid/snapshot.hpp"
#include "study/spiral_tips.hpp"
#include "support.hpp"

using fhn::index_t;
using fhn::TipPoint;

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kWIso = 0.1;
using Field = std::function<double(double, double)>;

// v(x, y) and w(x, y) at the nodes of an nx x ny sheet of spacing dx from the origin.
struct Sheet {
  fhn::Domain domain;
  std::vector<double> v, w;

  Sheet(index_t nx, index_t ny, double dx) : v(static_cast<std::size_t>(nx * ny)), w(v.size()) {
    domain.dims = 2;
    domain.nodes = {nx, ny, 1};
    domain.length = {dx * static_cast<double>(nx - 1), dx * static_cast<double>(ny - 1), 0.0};
    domain.dx = dx;
  }
  void fill(const Field& fv, const Field& fw) {
    for (index_t j = 0; j < domain.nodes[1]; ++j)
      for (index_t i = 0; i < domain.nodes[0]; ++i) {
        const double x = domain.coordinate(0, i), y = domain.coordinate(1, j);
        const auto node = static_cast<std::size_t>(i + domain.nodes[0] * j);
        v[node] = fv(x, y);
        w[node] = fw(x, y);
      }
  }
  std::vector<TipPoint> tips() const {
    return fhn::find_tips(domain, v.data(), w.data(), nullptr, 0.5, kWIso);
  }
  fhn::FrameView frame(double t) const {
    fhn::FrameView f;
    f.t = t;
    f.n = domain.node_count();
    f.domain = &domain;
    f.v = v.data();
    f.w = w.data();
    return f;
  }
};

// Linear fields whose iso-lines v = 0.5 and w = kWIso cross at (x0, y0) only.
void put_tip(Sheet& sheet, double x0, double y0) {
  sheet.fill([=](double x, double) { return 0.5 + (x - x0); },
             [=](double, double y) { return kWIso + (y - y0); });
}

double distance(const TipPoint& p, double x, double y) { return std::hypot(p.x - x, p.y - y); }

// A circle of radius r about (cx, cy), period T, from t = 0 every dt until t_end.
struct Path {
  std::vector<double> t, x, y;
};
Path circle(double cx, double cy, double r, double period, double phase, double dt,
            double t_end) {
  Path p;
  for (index_t k = 0; static_cast<double>(k) * dt <= t_end; ++k) {
    const double t = static_cast<double>(k) * dt;
    const double angle = 2.0 * kPi * t / period + phase;
    p.t.push_back(t);
    p.x.push_back(cx + r * std::cos(angle));
    p.y.push_back(cy + r * std::sin(angle));
  }
  return p;
}

// The rows of a tips.csv, after checking its header.
struct Row {
  double t;
  int tip;
  double x, y;
};
std::vector<Row> csv_rows(const std::filesystem::path& file) {
  std::istringstream in(fhn::test::read_text(file));
  std::string line;
  std::getline(in, line);
  CHECK(line == "t,tip,x,y");
  std::vector<Row> rows;
  while (std::getline(in, line)) {
    Row row{};
    char comma[3];
    std::istringstream fields(line);
    fields >> row.t >> comma[0] >> row.tip >> comma[1] >> row.x >> comma[2] >> row.y;
    CHECK((fields && comma[0] == ',' && comma[1] == ',' && comma[2] == ','));
    rows.push_back(row);
  }
  return rows;
}

}  // namespace

TEST_CASE("find_tips: linear fields give the crossing exactly, axis-aligned, rotated, skewed") {
  Sheet sheet(12, 9, 0.5);  // [0, 5.5] x [0, 4]
  put_tip(sheet, 3.37, 1.81);
  auto tips = sheet.tips();
  REQUIRE(tips.size() == 1);
  CHECK(distance(tips[0], 3.37, 1.81) < 1e-12);

  // Iso-lines at 35 and 150 degrees with different slopes of v and w.
  const double x0 = 2.0 / 3.0, y0 = 3.1;
  auto along = [=](double angle, double x, double y) {
    return (x - x0) * std::cos(angle) + (y - y0) * std::sin(angle);
  };
  sheet.fill([=](double x, double y) { return 0.5 + 0.7 * along(0.6, x, y); },
             [=](double x, double y) { return kWIso - 2.0 * along(2.6, x, y); });
  tips = sheet.tips();
  REQUIRE(tips.size() == 1);
  CHECK(distance(tips[0], x0, y0) < 1e-12);
}

TEST_CASE("find_tips: a curved iso-line (xy = 2) meets a line where the cell's quadratic says") {
  // x y is bilinear, so each cell's interpolant is exact and so is the root of the quadratic:
  // xy = 2 and y = x + 0.5 cross at y = (0.5 + sqrt(8.25)) / 2 (the other root has y < 0).
  Sheet sheet(17, 17, 0.25);  // [0, 4]^2
  sheet.fill([](double x, double y) { return 0.5 + (x * y - 2.0); },
             [](double x, double y) { return kWIso + (y - x - 0.5); });
  const double y0 = (0.5 + std::sqrt(8.25)) / 2.0;
  const auto tips = sheet.tips();
  REQUIRE(tips.size() == 1);
  CHECK(distance(tips[0], y0 - 0.5, y0) < 1e-12);
}

TEST_CASE("find_tips: smooth curved iso-lines give the crossing to second order in dx") {
  // v = 0.5 + tanh(a), w = w_iso + 0.3 sin(b), with a = 0 and b = 0 curves through (x0, y0).
  const double x0 = 4.123, y0 = 3.456;
  auto v = [=](double x, double y) {
    const double a =
        (x - x0) * std::cos(0.4) + (y - y0) * std::sin(0.4) + 0.2 * (y - y0) * (y - y0);
    return 0.5 + std::tanh(1.5 * a);
  };
  auto w = [=](double x, double y) {
    const double b =
        -(x - x0) * std::sin(1.1) + (y - y0) * std::cos(1.1) - 0.15 * (x - x0) * (x - x0);
    return kWIso + 0.3 * std::sin(b);
  };
  std::vector<double> errors;
  for (const double dx : {0.2, 0.1, 0.05}) {
    Sheet sheet(std::lround(8.0 / dx) + 1, std::lround(7.0 / dx) + 1, dx);  // [0, 8] x [0, 7]
    sheet.fill(v, w);
    const auto tips = sheet.tips();
    REQUIRE(tips.size() == 1);
    errors.push_back(distance(tips[0], x0, y0));
    CHECK(errors.back() < 0.1 * dx * dx);
  }
  for (std::size_t k = 1; k < errors.size(); ++k) {
    const double order = std::log2(errors[k - 1] / errors[k]);
    CHECK(order > 1.8);
  }
}

TEST_CASE("find_tips: two separated crossings are both found, in the order of their cells") {
  // w = w_iso + 0.3 sin(x - 1.2) is zero at x = 1.2 and 1.2 + pi on [0, 6]; v = 0.5 at y = 2.5.
  Sheet sheet(61, 41, 0.1);
  sheet.fill([](double, double y) { return 0.5 + (y - 2.5); },
             [](double x, double) { return kWIso + 0.3 * std::sin(x - 1.2); });
  const auto tips = sheet.tips();
  REQUIRE(tips.size() == 2);
  CHECK(distance(tips[0], 1.2, 2.5) < 1e-4);
  CHECK(distance(tips[1], 1.2 + kPi, 2.5) < 1e-4);
}

TEST_CASE("find_tips: no tip where the iso-lines do not cross, run parallel or coincide") {
  Sheet sheet(21, 21, 0.5);
  SUBCASE("w above w_iso everywhere") {
    sheet.fill([](double x, double) { return 0.5 + (x - 3.3); },
               [](double, double y) { return kWIso + 1.0 + 0.1 * y; });
  }
  SUBCASE("parallel iso-lines through the same cells") {
    sheet.fill([](double x, double y) { return 0.5 + (x - y - 0.2); },
               [](double x, double y) { return kWIso + (x - y - 0.6); });
  }
  SUBCASE("coincident iso-lines (no isolated crossing)") {
    sheet.fill([](double x, double y) { return 0.5 + (x - 0.5 * y - 1.3); },
               [](double x, double y) { return kWIso - 3.0 * (x - 0.5 * y - 1.3); });
  }
  SUBCASE("a hyperbola branch and a line that share cells but not a point") {
    // (x - 5)(y - 5) = 0.01 and x + y = 10.1 do not meet (x + y >= 10.2 on the branch x > 5).
    sheet.fill([](double x, double y) { return 0.5 + ((x - 5.0) * (y - 5.0) - 0.01); },
               [](double x, double y) { return kWIso + (x + y - 10.1); });
  }
  CHECK(sheet.tips().empty());
}

TEST_CASE("find_tips: a crossing on a cell edge, a node or the sheet's border is reported once") {
  Sheet sheet(9, 9, 0.5);  // nodes every 0.5 on [0, 4]^2
  struct Case {
    double x0, y0;
  };
  for (const Case c : {Case{2.0, 1.25}, Case{1.75, 3.0}, Case{2.5, 1.5}, Case{0.0, 0.0},
                       Case{4.0, 2.5}, Case{3.0, 4.0}}) {
    CAPTURE(c.x0);
    CAPTURE(c.y0);
    put_tip(sheet, c.x0, c.y0);
    auto tips = sheet.tips();
    REQUIRE(tips.size() == 1);
    CHECK(distance(tips[0], c.x0, c.y0) < 1e-12);
    // Diagonal iso-lines through a node touch all four cells around it.
    sheet.fill([=](double x, double y) { return 0.5 + (x - c.x0) + (y - c.y0); },
               [=](double x, double y) { return kWIso + (x - c.x0) - (y - c.y0); });
    tips = sheet.tips();
    REQUIRE(tips.size() == 1);
    CHECK(distance(tips[0], c.x0, c.y0) < 1e-12);
  }
}

TEST_CASE("measure_rotation: a circular path of period T gives T to within dt / 10") {
  struct Case {
    double period, dt, phase, t_end;
  };
  for (const Case c : {Case{7.3, 0.25, 0.0, 60.0}, Case{7.3, 0.25, 1.0, 47.0},
                       Case{11.0, 0.5, 2.5, 100.0}, Case{-7.3, 0.1, 0.3, 40.0}}) {
    CAPTURE(c.period);
    CAPTURE(c.dt);
    const Path p = circle(20.0, 15.0, 4.0, c.period, c.phase, c.dt, c.t_end);
    const fhn::Rotation r = fhn::measure_rotation(p.t, p.x, p.y);
    REQUIRE(r.period.has_value());
    CHECK(std::abs(*r.period - std::abs(c.period)) < c.dt / 10.0);
    // Full turns in the second half of the path.
    const double turns = 0.5 * c.t_end / std::abs(c.period);
    CHECK(r.rotations == static_cast<index_t>(std::floor(turns + 1e-9)));
    CHECK(r.t_to == doctest::Approx(p.t.back()));
  }
}

TEST_CASE("measure_rotation: a meandering (epicycle) path that repeats with period T gives T") {
  // A circle of radius 4 with a loop of radius 1.5 turning 3 times per turn: the angle about the
  // centroid is far from uniform, yet every full turn takes T.
  const double period = 9.0, dt = 0.1;
  Path p;
  for (index_t k = 0; k <= 800; ++k) {
    const double t = static_cast<double>(k) * dt, phase = 2.0 * kPi * t / period;
    p.t.push_back(t);
    p.x.push_back(10.0 + 4.0 * std::cos(phase) + 1.5 * std::cos(3.0 * phase));
    p.y.push_back(10.0 + 4.0 * std::sin(phase) + 1.5 * std::sin(3.0 * phase));
  }
  const fhn::Rotation r = fhn::measure_rotation(p.t, p.x, p.y);
  REQUIRE(r.period.has_value());
  CHECK(std::abs(*r.period - period) < dt / 10.0);
}

TEST_CASE("measure_rotation: a drifting spiral's tip gives its rotation period, not the pass's") {
  // A circle of radius 4 turning every 11.7 whose centre drifts 6 per turn (1.5 radii), as the
  // spiral of configs/excitability_gradient.yaml: about the path's centroid the tip turned once
  // per pass (30.34 there); about the moving centre, once per rotation.
  const double period = 11.7, dt = 0.1, drift = 6.0 / period;
  Path p;
  for (index_t k = 0; k <= 1200; ++k) {
    const double t = static_cast<double>(k) * dt, phase = 2.0 * kPi * t / period;
    p.t.push_back(t);
    p.x.push_back(5.0 + drift * t + 4.0 * std::cos(phase));
    p.y.push_back(20.0 + 0.3 * drift * t + 4.0 * std::sin(phase));
  }
  const fhn::Rotation r = fhn::measure_rotation(p.t, p.x, p.y);
  REQUIRE(r.period.has_value());
  CHECK(r.rotations == 5);  // 60 time units in the window
  CHECK(std::abs(*r.period - period) < dt / 10.0);
}

TEST_CASE("measure_rotation: no period from fewer than 2 full turns in the second half") {
  const Path p = circle(5.0, 5.0, 2.0, 10.0, 0.0, 0.5, 35.0);  // 3.5 turns, 1.75 in the window
  const fhn::Rotation r = fhn::measure_rotation(p.t, p.x, p.y);
  CHECK(r.rotations == 1);
  CHECK_FALSE(r.period.has_value());
  CHECK_FALSE(fhn::measure_rotation({}, {}, {}).period.has_value());
  CHECK_FALSE(fhn::measure_rotation({1.0}, {2.0}, {3.0}).period.has_value());
}

TEST_CASE("TipTracker: tips.csv has a row per tip and frame, tip 0 following the principal tip") {
  fhn::test::TempDir dir;
  fhn::TipTracker tracker(dir / "tips.csv", 0.5, kWIso, false);
  Sheet sheet(33, 21, 0.25);  // [0, 8] x [0, 5]
  // v = 0.5 on y = 2.5; w = w_iso on x = a and x = b.
  auto two_tips = [&](double a, double b) {
    sheet.fill([](double, double y) { return 0.5 + (y - 2.5); },
               [=](double x, double) { return kWIso + (x - a) * (x - b); });
  };
  put_tip(sheet, 2.0, 2.5);
  tracker.write(sheet.frame(0.0));
  two_tips(2.25, 7.5);  // 2.25 is nearer the principal tip (2, 2.5) and found first
  tracker.write(sheet.frame(1.0));
  two_tips(1.0, 3.0);   // 3 is nearer the principal tip (2.25, 2.5) but found second
  tracker.write(sheet.frame(2.0));
  sheet.fill([](double, double) { return 0.0; }, [](double, double) { return 0.0; });
  tracker.write(sheet.frame(3.0));  // no tips: no rows
  const std::vector<Row> expected = {{0.0, 0, 2.0, 2.5},
                                     {1.0, 0, 2.25, 2.5}, {1.0, 1, 7.5, 2.5},
                                     {2.0, 0, 3.0, 2.5}, {2.0, 1, 1.0, 2.5}};
  const std::vector<Row> rows = csv_rows(dir / "tips.csv");
  REQUIRE(rows.size() == expected.size());
  for (std::size_t k = 0; k < rows.size(); ++k) {
    CAPTURE(k);
    CHECK(rows[k].t == expected[k].t);
    CHECK(rows[k].tip == expected[k].tip);
    CHECK(std::abs(rows[k].x - expected[k].x) < 1e-12);
    CHECK(std::abs(rows[k].y - expected[k].y) < 1e-12);
  }
  CHECK(tracker.tips_at_end() == 0);
  CHECK(tracker.frames_with_tips() == 3);

  fhn::JsonObject summary;
  tracker.add_summary(summary);
  CHECK(summary.str() ==
        "{\"tips\":{\"count_at_end\":0,\"rotation_period\":null,\"rotations\":0,"
        "\"frames_with_tips\":3,\"phase_singularities_at_end\":0,"
        "\"phase_singularity_charge_at_end\":0,\"v_iso\":0.5,\"w_iso\":0.1,\"path\":{\"class\":\"no_wave\","
        "\"turns\":0,\"period\":null,\"radius\":null,\"drift_speed\":null,"
        "\"meander_frequency\":null,\"meander_ratio\":null,\"t_from\":0,\"t_to\":0}}}");
}

TEST_CASE("TipTracker: the period of a tip circling on the sheet, in summary.json") {
  fhn::test::TempDir dir;
  fhn::TipTracker tracker(dir / "tips.csv", 0.5, kWIso, false);
  Sheet sheet(41, 41, 1.0);
  const double period = 6.5, dt = 0.2;
  const Path p = circle(20.0, 20.0, 5.0, period, 0.7, dt, 40.0);
  for (std::size_t k = 0; k < p.t.size(); ++k) {
    put_tip(sheet, p.x[k], p.y[k]);
    tracker.write(sheet.frame(p.t[k]));
  }
  REQUIRE(tracker.period().has_value());
  CHECK(std::abs(*tracker.period() - period) < dt / 10.0);
  CHECK(tracker.tips_at_end() == 1);
  CHECK(tracker.frames_with_tips() == static_cast<index_t>(p.t.size()));
  CHECK(csv_rows(dir / "tips.csv").size() == p.t.size());
  fhn::JsonObject summary;
  tracker.add_summary(summary);
  const std::string period_text = fhn::format_exact(*tracker.period());
  CHECK(fhn::test::contains(summary.str(), "\"rotation_period\":" + period_text));
  CHECK(fhn::test::contains(summary.str(), "\"rotations\":3"));
  // The path's analysis: a circle, rigid rotation at the same period.
  const fhn::TipPathAnalysis a = tracker.path_analysis();
  CHECK(a.kind == "rigid");
  REQUIRE(a.period);
  CHECK(std::abs(*a.period - period) < dt / 10.0);
  CHECK(fhn::test::contains(summary.str(), "\"path\":{\"class\":\"rigid\""));
}

TEST_CASE("TipTracker: a frame without tips ends the path; the period is that of the new path") {
  fhn::test::TempDir dir;
  fhn::TipTracker tracker(dir / "tips.csv", 0.5, kWIso, false);
  Sheet sheet(41, 41, 1.0);
  const Path p = circle(20.0, 20.0, 5.0, 5.0, 0.0, 0.25, 30.0);  // 6 turns
  auto feed = [&](double t0, std::size_t count) {
    for (std::size_t k = 0; k < count; ++k) {
      put_tip(sheet, p.x[k], p.y[k]);
      tracker.write(sheet.frame(t0 + p.t[k]));
    }
  };
  feed(0.0, p.t.size());
  CHECK(tracker.period().has_value());
  sheet.fill([](double, double) { return 0.0; }, [](double, double) { return 0.0; });
  tracker.write(sheet.frame(31.0));
  CHECK(tracker.period().has_value());  // the ended path still has its period
  feed(32.0, 40);                       // 2 turns: under 2 in the second half
  CHECK_FALSE(tracker.period().has_value());
  CHECK(tracker.frames_with_tips() == static_cast<index_t>(p.t.size() + 40));
}

TEST_CASE("TipTracker: save and restore continue the path, the period and tips.csv exactly") {
  fhn::test::TempDir dir;
  Sheet sheet(41, 41, 1.0);
  // A tip circling (a period to estimate) with a second tip at a fixed place (a tip 1 column).
  const Path p = circle(15.0, 20.0, 5.0, 6.0, 0.3, 0.25, 40.0);
  auto frame = [&](std::size_t k) {
    const double cx = p.x[k], cy = p.y[k];
    // v - 0.5 = (x - cx)(x - 33) / 10 is zero at x = cx and x = 33; w = w_iso at y = cy.
    sheet.fill([=](double x, double) { return 0.5 + (x - cx) * (x - 33.0) / 10.0; },
               [=](double, double y) { return kWIso + (y - cy); });
    return sheet.frame(p.t[k]);
  };
  fhn::TipTracker whole(dir / "whole.csv", 0.5, kWIso, false);
  for (std::size_t k = 0; k < p.t.size(); ++k) whole.write(frame(k));

  const std::size_t checkpoint = 97;
  fhn::SchemeState state;
  state.step = checkpoint;  // a frame a step: the checkpoint holds checkpoint + 1 frames
  {
    fhn::TipTracker first(dir / "tips.csv", 0.5, kWIso, false);
    for (std::size_t k = 0; k <= checkpoint; ++k) first.write(frame(k));
    first.save(state);
    first.write(frame(checkpoint + 1));  // written after the checkpoint, then the run stopped
  }
  // The restart: rows at or after the checkpoint's time go, its frame comes again.
  fhn::keep_rows_before(dir / "tips.csv", p.t[checkpoint] - 1e-9, false);
  fhn::TipTracker resumed(dir / "tips.csv", 0.5, kWIso, true);
  resumed.restore(state);
  for (std::size_t k = checkpoint; k < p.t.size(); ++k) resumed.write(frame(k));

  CHECK(fhn::test::read_text(dir / "tips.csv") == fhn::test::read_text(dir / "whole.csv"));
  REQUIRE(whole.period().has_value());
  REQUIRE(resumed.period().has_value());
  CHECK(*resumed.period() == *whole.period());
  CHECK(resumed.rotation().rotations == whole.rotation().rotations);
  CHECK(resumed.frames_with_tips() == whole.frames_with_tips());
  CHECK(resumed.tips_at_end() == 2);
  CHECK(std::abs(*whole.period() - 6.0) < 0.025);
}

TEST_CASE("TipTracker: a vanished free end retracted where the excitation spread, else no wave") {
  // A tip that moves straight from the middle to x = 30 and vanishes (no turns: nothing drifted
  // out); the excited nodes per frame decide: only shrinking from the first frame's count is a
  // start that could not propagate (no_wave), growing beyond it waves that did (retract). No
  // file: the tracker follows the path alone, as a sweep's members' do.
  Sheet sheet(41, 41, 1.0);
  auto run = [&](const std::vector<index_t>& excited, fhn::TipTracker& tracker, std::size_t from,
                 std::size_t to) {
    for (std::size_t k = from; k < to; ++k) {
      std::vector<fhn::TipPoint> tips;
      if (k < 10) tips.push_back({20.0 + static_cast<double>(k), 20.0});
      tracker.write_tips(0.5 * static_cast<double>(k), sheet.domain, tips, excited[k]);
    }
  };
  const std::vector<index_t> shrinking{500, 480, 400, 300, 200, 100, 50, 20, 5, 2, 1, 0, 0, 0};
  std::vector<index_t> spreading = shrinking;
  spreading[3] = 501;
  for (const bool spread : {false, true}) {
    CAPTURE(spread);
    const std::vector<index_t>& counts = spread ? spreading : shrinking;
    fhn::TipTracker whole({}, 0.5, kWIso, false);
    run(counts, whole, 0, counts.size());
    CHECK(whole.tips_at_end() == 0);
    CHECK(whole.path_analysis().kind == (spread ? "retract" : "no_wave"));
    // The same after a checkpoint at frame 6 and a restart that repeats frame 6.
    fhn::SchemeState state;
    state.step = 6;
    fhn::TipTracker first({}, 0.5, kWIso, false);
    run(counts, first, 0, 7);
    first.save(state);
    fhn::TipTracker resumed({}, 0.5, kWIso, false);
    CHECK(resumed.restore(state).empty());
    run(counts, resumed, 6, counts.size());
    CHECK(resumed.path_analysis().kind == whole.path_analysis().kind);
  }
}

TEST_CASE("circulation_period: the last three intervals of a watched point's crossings") {
  using fhn::circulation_period;
  const std::vector<double> regular{2.0, 9.4, 16.7, 24.1, 31.4};  // intervals 7.3-7.4
  CHECK(*circulation_period({regular}, 33.0) == doctest::Approx((31.4 - 9.4) / 3.0));
  CHECK_FALSE(circulation_period({regular}, 45.0).has_value());  // stopped: 13.6 since the last
  CHECK_FALSE(circulation_period({{2.0, 9.4, 16.7}}, 17.0).has_value());  // 2 intervals
  CHECK_FALSE(circulation_period({{2.0, 9.4, 14.0, 24.1}}, 25.0).has_value());  // irregular
  CHECK_FALSE(circulation_period({}, 10.0).has_value());
  // Of two regular points, the one with more crossings.
  const std::vector<double> fewer{10.0, 20.0, 30.0, 40.0};
  CHECK(*circulation_period({fewer, regular}, 33.0) == doctest::Approx(22.0 / 3.0));
}

TEST_CASE("TipTracker: a wave circling an obstacle past a watched point is anchored, also restarted") {
  // No tip anywhere (w stays far from w_iso); v at every node 0.5 + 0.4 sin(2 pi t / 7.3): the
  // watched point crosses 0.5 upwards every 7.3. With a mask (a hole in the medium) that is a
  // wave circling it; without one, no class but none.
  fhn::test::TempDir dir;
  Sheet sheet(11, 11, 1.0);
  std::vector<std::uint8_t> hole(sheet.v.size(), 0);
  hole[60] = 1;
  const double period = 7.3, dt = 0.1;
  auto frame = [&](index_t k, bool masked) {
    const double t = dt * static_cast<double>(k);
    sheet.fill([=](double, double) { return 0.5 + 0.4 * std::sin(2.0 * kPi * t / period); },
               [](double, double) { return kWIso + 5.0; });
    fhn::FrameView f = sheet.frame(t);
    if (masked) f.outside = hole.data();
    return f;
  };
  const std::vector<fhn::Point> watch{{2.5, 2.5, 0.0}};
  const index_t frames = 400;
  fhn::TipTracker whole(dir / "whole.csv", 0.5, kWIso, false, {}, {}, watch);
  fhn::TipTracker plain(dir / "plain.csv", 0.5, kWIso, false, {}, {}, watch);
  for (index_t k = 0; k < frames; ++k) {
    whole.write(frame(k, true));
    plain.write(frame(k, false));
  }
  CHECK(whole.path_analysis().kind == "anchored");
  REQUIRE(whole.path_analysis().period.has_value());
  CHECK(*whole.path_analysis().period == doctest::Approx(period).epsilon(1e-3));
  CHECK(plain.path_analysis().kind == "none");

  // Saved at frame 200 and restored: the same class and period, to the bit.
  fhn::SchemeState state;
  state.step = 200;
  {
    fhn::TipTracker first(dir / "first.csv", 0.5, kWIso, false, {}, {}, watch);
    for (index_t k = 0; k <= 200; ++k) first.write(frame(k, true));
    first.save(state);
  }
  fhn::TipTracker resumed(dir / "resumed.csv", 0.5, kWIso, false, {}, {}, watch);
  CHECK(resumed.restore(state).empty());
  for (index_t k = 200; k < frames; ++k) resumed.write(frame(k, true));
  CHECK(resumed.path_analysis().kind == "anchored");
  CHECK(*resumed.path_analysis().period == *whole.path_analysis().period);
  // Another set of watched points than the checkpoint's: said, and watched from the restart on.
  fhn::TipTracker other(dir / "other.csv", 0.5, kWIso, false, {}, {},
                        {{2.5, 2.5, 0.0}, {7.5, 7.5, 0.0}});
  CHECK(fhn::test::contains(other.restore(state), "the checkpoint holds no crossings of these 2 probes"));
}

TEST_CASE("phase singularities: one per iso-line tip, in its cell, the winding's sign its charge") {
  Sheet sheet(21, 21, 1.0);
  put_tip(sheet, 7.3, 11.6);  // theta = atan2(y - 11.6, x - 7.3): winds +1 counter-clockwise
  std::vector<fhn::IsoCell> cells;
  fhn::straddling_cells(sheet.domain, sheet.v.data(), sheet.w.data(), nullptr, 0.5, kWIso, cells);
  const auto singular = fhn::phase_singularities(cells, 0.5, kWIso);
  REQUIRE(singular.size() == 1);
  CHECK(singular[0].i == 7);
  CHECK(singular[0].j == 11);
  CHECK(singular[0].charge == 1);
  const std::vector<TipPoint> tips = sheet.tips();
  REQUIRE(tips.size() == 1);
  CHECK(static_cast<index_t>(std::floor(tips[0].x)) == singular[0].i);
  CHECK(static_cast<index_t>(std::floor(tips[0].y)) == singular[0].j);
  // w mirrored: the phase winds the other way.
  sheet.fill([](double x, double) { return 0.5 + (x - 7.3); },
             [](double, double y) { return kWIso - (y - 11.6); });
  cells.clear();
  fhn::straddling_cells(sheet.domain, sheet.v.data(), sheet.w.data(), nullptr, 0.5, kWIso, cells);
  const auto mirrored = fhn::phase_singularities(cells, 0.5, kWIso);
  REQUIRE(mirrored.size() == 1);
  CHECK(mirrored[0].charge == -1);
  // A planar front (w uniform above its level): cells straddle v's level only, no singularity.
  sheet.fill([](double x, double) { return 0.5 + (x - 7.3); }, [](double, double) { return 1.0; });
  cells.clear();
  fhn::straddling_cells(sheet.domain, sheet.v.data(), sheet.w.data(), nullptr, 0.5, kWIso, cells);
  CHECK(fhn::phase_singularities(cells, 0.5, kWIso).empty());
}

TEST_CASE("phase singularities of a Barkley spiral: as many as its iso-line tips, in summary.json") {
  const fhn::Config c = fhn::test::config_from(
      "model: {form: barkley}\ndomain: {length: [20, 20], dx: 0.25}\n"
      "time: {end: 20, dt: 0.005}\noutput: {every: 0.5}\n"
      "initial: {v: {type: spiral, wavelength: 10}, w: {type: spiral, wavelength: 10}}\n");
  fhn::test::TempDir dir;
  fhn::TipTracker tips(dir / "tips.csv", c.output.tips.v_iso, c.output.tips.w_iso, false);
  fhn::test::run_with_sinks(c, {&tips});
  REQUIRE(tips.tips_at_end() == 1);
  fhn::JsonObject summary;
  tips.add_summary(summary);
  const std::string json = summary.str();
  CHECK(fhn::test::contains(json, "\"phase_singularities_at_end\":1"));
  const bool charged = fhn::test::contains(json, "\"phase_singularity_charge_at_end\":1") ||
                       fhn::test::contains(json, "\"phase_singularity_charge_at_end\":-1");
  CHECK(charged);
}
