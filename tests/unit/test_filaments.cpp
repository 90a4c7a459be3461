// Filaments of scroll waves in boxes (study/filaments.hpp): synthetic fields whose iso-surfaces
// meet in a known line or ring, two filaments at once, the straight scroll of a box run against
// the 2-D tip of its plane, filaments.csv / summary.json of a shrinking ring, and a box run's
// filaments.csv across a restart.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "config/loader.hpp"
#include "io/json.hpp"
#include "model/problem.hpp"
#include "run/checkpoint.hpp"
#include "run/run.hpp"
#include "schemes/scheme.hpp"
#include "grid/snapshot.hpp"
#include "study/filaments.hpp"
#include "study/spiral_tips.hpp"
#include "support.hpp"

namespace {

using fhn::index_t;
using fhn::real;

fhn::Domain box(real lx, real ly, real lz, real dx) {
  fhn::Domain d;
  d.dims = 3;
  d.dx = dx;
  d.length = {lx, ly, lz};
  for (int a = 0; a < 3; ++a) d.nodes[a] = static_cast<index_t>(std::llround(d.length[a] / dx)) + 1;
  return d;
}

// v and w at every node of d from functions of the position.
struct Fields {
  std::vector<real> v, w;
};
Fields sample(const fhn::Domain& d, const std::function<real(const fhn::Point&)>& v,
              const std::function<real(const fhn::Point&)>& w) {
  Fields f;
  for (index_t n = 0; n < d.node_count(); ++n) {
    const fhn::Point p = d.position(n);
    f.v.push_back(v(p));
    f.w.push_back(w(p));
  }
  return f;
}

}  // namespace

TEST_CASE("filaments: the line where two planes meet, and two such lines") {
  // v = x - 3.3, w = y - 2.7: the iso-surfaces v = 0 and w = 0 meet in the line x = 3.3,
  // y = 2.7 through the whole box (4 deep): one open filament of length 4, a crossing per plane.
  const fhn::Domain d = box(6, 5, 4, 0.5);
  const Fields f = sample(d, [](const fhn::Point& p) { return p[0] - 3.3; },
                          [](const fhn::Point& p) { return p[1] - 2.7; });
  const auto filaments = fhn::find_filaments(d, f.v.data(), f.w.data(), 0.0, 0.0);
  REQUIRE(filaments.size() == 1);
  CHECK_FALSE(filaments[0].closed);
  CHECK(filaments[0].points.size() == 9);
  CHECK(filaments[0].length() == doctest::Approx(4.0).epsilon(1e-12));
  for (const fhn::Point& p : filaments[0].points) {
    CHECK(p[0] == doctest::Approx(3.3).epsilon(1e-12));
    CHECK(p[1] == doctest::Approx(2.7).epsilon(1e-12));
  }
  // (x - 1.2)(x - 4.6) changes sign twice along x: two parallel lines.
  const Fields two = sample(d, [](const fhn::Point& p) { return (p[0] - 1.2) * (p[0] - 4.6); },
                            [](const fhn::Point& p) { return p[1] - 2.7; });
  const auto pair = fhn::find_filaments(d, two.v.data(), two.w.data(), 0.0, 0.0);
  REQUIRE(pair.size() == 2);
  for (const fhn::Filament& fil : pair) CHECK(fil.length() == doctest::Approx(4.0).epsilon(1e-12));
  // No crossing anywhere: no filament.
  const Fields none = sample(d, [](const fhn::Point& p) { return p[0] + 1.0; },
                             [](const fhn::Point& p) { return p[1] - 2.7; });
  CHECK(fhn::find_filaments(d, none.v.data(), none.w.data(), 0.0, 0.0).empty());
}

TEST_CASE("filaments: a ring of radius R is closed, 2 pi R long and R in radius within 1%") {
  // v = |(x, y) - (5, 5)| - R, w = z - 2.3: the circle of radius R in the plane z = 2.3 (between
  // grid planes), crossed by the faces normal to x and y; its polyline's chords are inside it.
  const fhn::Domain d = box(10, 10, 4, 0.25);
  for (const real radius : {2.0, 3.0}) {
    CAPTURE(radius);
    const Fields f = sample(
        d, [&](const fhn::Point& p) { return std::hypot(p[0] - 5.0, p[1] - 5.0) - radius; },
        [](const fhn::Point& p) { return p[2] - 2.3; });
    const auto filaments = fhn::find_filaments(d, f.v.data(), f.w.data(), 0.0, 0.0);
    REQUIRE(filaments.size() == 1);
    CHECK(filaments[0].closed);
    CHECK(filaments[0].length() == doctest::Approx(2.0 * M_PI * radius).epsilon(0.01));
    CHECK(filaments[0].radius() == doctest::Approx(radius).epsilon(0.01));
    for (const fhn::Point& p : filaments[0].points) CHECK(p[2] == doctest::Approx(2.3));
  }
}

TEST_CASE("filaments: a straight scroll's filament is the box's depth long and sits on the 2-D tip") {
  // configs/scroll_3d.yaml, 1 deep, to t = 6: every plane is the same 2-D spiral, so the
  // filament is the line through the plane's tip.
  const fhn::Config c = fhn::load_config(fhn::test::source_path("configs/scroll_3d.yaml"),
                                         {"domain.length=[30, 30, 1]", "time.end=6",
                                          "output.probes=[]", "output.vtk=false"});
  const fhn::test::SchemeRun run = fhn::test::run_scheme(c, c.time.steps);
  const fhn::Snapshot& s = run.state;
  const auto filaments =
      fhn::find_filaments(s.domain, s.v.data(), s.w.data(), c.output.tips.v_iso, c.output.tips.w_iso);
  // The plane z = 0 as a sheet, and its tips.
  fhn::Domain sheet = s.domain;
  sheet.dims = 2;
  sheet.nodes[2] = 1;
  sheet.length[2] = 0.0;
  const auto tips = fhn::find_tips(sheet, s.v.data(), s.w.data(), nullptr, c.output.tips.v_iso,
                                   c.output.tips.w_iso);
  REQUIRE(!tips.empty());
  REQUIRE(filaments.size() == tips.size());
  for (const fhn::Filament& fil : filaments) {
    CHECK_FALSE(fil.closed);
    CHECK(fil.length() == doctest::Approx(1.0).epsilon(1e-9));
    bool on_a_tip = false;
    for (const fhn::TipPoint& t : tips)
      on_a_tip = on_a_tip || (std::abs(fil.points[0][0] - t.x) < 1e-9 &&
                              std::abs(fil.points[0][1] - t.y) < 1e-9);
    CHECK(on_a_tip);
  }
}

TEST_CASE("filaments.csv and summary.json: a ring shrinking as R^2 = 9 - 0.5 t") {
  fhn::test::TempDir dir;
  const fhn::Domain d = box(10, 10, 4, 0.25);
  fhn::FilamentTracker tracker(dir / "filaments.csv", 0.0, 0.0);
  for (int k = 0; k < 9; ++k) {
    const real t = 1.5 * k, radius = std::sqrt(9.0 - 0.5 * t);
    const Fields f = sample(
        d, [&](const fhn::Point& p) { return std::hypot(p[0] - 5.0, p[1] - 5.0) - radius; },
        [](const fhn::Point& p) { return p[2] - 2.3; });
    fhn::FrameView view;
    view.index = k;
    view.t = t;
    view.n = d.node_count();
    view.domain = &d;
    view.v = f.v.data();
    view.w = f.w.data();
    tracker.write(view);
  }
  const std::string csv = fhn::test::read_text(dir / "filaments.csv");
  CHECK(csv.rfind("t,filament,closed,points,length,radius\n0,0,1,", 0) == 0);
  fhn::JsonObject summary;
  tracker.add_summary(summary);
  const std::string json = summary.str();
  CHECK(fhn::test::contains(json, "\"count_at_end\":1"));
  CHECK(fhn::test::contains(json, "\"ring_frames\":9"));
  // Over the last two thirds (t >= 4): frames 3 to 8.
  CHECK(fhn::test::contains(json, "\"ring_fit_from\":4.5,\"ring_fit_to\":12,\"ring_fit_frames\":6"));
  // The slope of R^2 from the polylines' radii: -0.5 to their 1% (R^2 to 2%).
  const std::string key = "\"ring_radius2_rate\":";
  const std::size_t at = json.find(key);
  REQUIRE(at != std::string::npos);
  const real rate = std::stod(json.substr(at + key.size()));
  CHECK(rate == doctest::Approx(-0.5).epsilon(0.05));
}

TEST_CASE("a box run writes filaments.csv; restarted from a checkpoint, the same file and summary") {
  // scroll_3d, 1 deep, to t = 4 with checkpoints every 1: one straight filament per frame; the
  // run stopped at t = 2.5 and continued from its checkpoint at t = 2 writes what the whole run
  // writes.
  const std::vector<std::string> common{"domain.length=[30, 30, 1]", "output.probes=[]",
                                        "output.vtk=false", "output.checkpoint_every=1"};
  auto run = [&](std::vector<std::string> extra, const std::filesystem::path& dir,
                 const std::filesystem::path& restart = {}) {
    extra.insert(extra.end(), common.begin(), common.end());
    fhn::RunOptions options;
    options.output_dir = dir;
    options.quiet = true;
    options.restart = restart;
    fhn::run_simulation(
        fhn::load_config(fhn::test::source_path("configs/scroll_3d.yaml"), extra), options);
  };
  fhn::test::TempDir dir;
  run({"time.end=4"}, dir / "a");
  run({"time.end=2.5"}, dir / "b");
  const std::filesystem::path checkpoint = fhn::checkpoint_path(dir / "b", "scroll_3d", 400);
  REQUIRE(std::filesystem::exists(checkpoint));
  run({"time.end=4"}, dir / "b", checkpoint);
  const std::string csv = fhn::test::read_text(dir / "a" / "filaments.csv");
  CHECK(csv == fhn::test::read_text(dir / "b" / "filaments.csv"));
  CHECK(fhn::test::contains(csv, "\n4,0,0,5,1,\n"));  // t = 4: filament 0, open, 5 points, 1 long
  const std::string summary = fhn::test::read_text(dir / "b" / "summary.json");
  CHECK(fhn::test::contains(summary, "\"filaments\": {\"count_at_end\":1"));
}

TEST_CASE("a scroll-ring start: one ring of the given radius in the plane z = c_z; its checks") {
  // Barkley's medium (scroll_3d.yaml) with the spiral swept around the axis x = 8, y = 7: the
  // cores form a circle of radius 4 at z = 3, and so does the filament, to the grid's spacing.
  const std::string base = "model: {form: barkley, a: 0.75, b: 0.02, eps: 0.02}\n"
                           "domain: {length: [16, 14, 6], dx: 0.25}\ntime: {end: 1, dt: 0.005}\n";
  const std::string ring = "{type: scroll_ring, center: [8, 7, 3], radius: 4, wavelength: 8}";
  const fhn::Config c =
      fhn::test::config_from(base + "initial: {v: " + ring + ", w: " + ring + "}\n");
  CHECK(c.initial.v.radius == 4.0);
  CHECK(c.initial.w.center[2] == 3.0);
  const fhn::Problem p = fhn::make_problem(c);
  const auto filaments = fhn::find_filaments(c.domain, p.v0.data(), p.w0.data(),
                                             c.output.filaments.v_iso, c.output.filaments.w_iso);
  REQUIRE(filaments.size() == 1);
  const fhn::Filament& f = filaments[0];
  CHECK(f.closed);
  CHECK(f.radius() == doctest::Approx(4.0).epsilon(0.25 / 4.0));
  real z = 0.0, x = 0.0, y = 0.0;
  for (const fhn::Point& q : f.points) {
    x += q[0];
    y += q[1];
    z += q[2];
  }
  const auto m = static_cast<real>(f.points.size());
  CHECK(std::abs(x / m - 8.0) < 0.05);  // the ring is symmetric about the axis
  CHECK(std::abs(y / m - 7.0) < 0.05);
  CHECK(std::abs(z / m - 3.0) < 0.25);
  // The node's value depends only on its distance from the axis and its z.
  auto v0 = [&](index_t i, index_t j, index_t k) {
    return p.v0[static_cast<std::size_t>(i + c.domain.nodes[0] * (j + c.domain.nodes[1] * k))];
  };
  CHECK(v0(48, 28, 12) == v0(32, 44, 12));  // (12, 7, 3) and (8, 11, 3): 4 from the axis
  CHECK(v0(48, 28, 12) != v0(40, 28, 12));
  const fhn::Config again = fhn::load_config_text(fhn::to_yaml(c), "again.yaml");
  CHECK(fhn::to_yaml(again) == fhn::to_yaml(c));

  using fhn::test::config_error;
  using fhn::test::contains;
  const std::string on_sheet = config_error("domain: {length: [16, 14], dx: 0.25}\ninitial: {v: " +
                                            ring + ", w: " + ring + "}\n");
  CHECK(contains(on_sheet, "initial.v.type: a scroll ring needs a box (domain.length: [Lx, Ly, "
                           "Lz]); on a sheet use type: spiral"));
  // Said once, at the type: the ring's own keys are not reported again as unknown, nor the pair.
  CHECK_FALSE(contains(on_sheet, "unknown key"));
  CHECK_FALSE(contains(on_sheet, "needs the same"));
  CHECK(contains(config_error(base + "initial: {v: {type: scroll_ring, radius: 7.5}, w: "
                                     "{type: scroll_ring, radius: 7.5}}\n"),
                 "initial.v.radius: a ring of radius 7.5 about y = 7 leaves the box (0 < y < 14); "
                 "expected a radius below 7"));
  CHECK(contains(config_error(base + "initial: {v: " + ring + ", w: {type: spiral}}\n"),
                 "initial.w: a scroll_ring start sets v and w together: give {type: scroll_ring} "
                 "(with the same center, radius and wavelength) for both initial.v and initial.w"));
  CHECK(contains(config_error(base + "initial: {v: " + ring + ", w: {type: scroll_ring}}\n"),
                 "initial.w: a scroll_ring start needs the same center, radius and wavelength for "
                 "v and w (initial.v has center 8, 7, 3, radius 4 and wavelength 8)"));
}

TEST_CASE("a ring's rate is fitted over the settled ring, with its uncertainty") {
  // R^2 falls at 0.5 while the start settles (t < 9), then at 3, with a wobble of amplitude 0.4
  // and period 3.16 (the rotation); frames every 0.25 to t = 21.
  std::vector<real> t, r2;
  for (int k = 0; k <= 84; ++k) {
    const real s = 0.25 * k;
    t.push_back(s);
    r2.push_back((s < 9.0 ? 36.0 - 0.5 * s : 31.5 - 3.0 * (s - 9.0)) +
                 0.4 * std::sin(2.0 * M_PI * s / 3.16));
  }
  const auto settled = fhn::ring_rate(t, r2, 10.0);
  REQUIRE(settled.has_value());
  CHECK(settled->from == 10.0);
  CHECK(settled->to == 21.0);
  CHECK(settled->frames == 45);
  CHECK(settled->rate == doctest::Approx(-3.0).epsilon(0.02));
  CHECK(std::abs(settled->rate + 3.0) <= 2.0 * settled->error);  // -3 within its uncertainty
  CHECK(settled->error < 0.1);
  // The whole run's rate mixes in the settling: -2.4, far outside that uncertainty.
  CHECK(settled->whole_rate > -2.6);
  CHECK(std::abs(settled->whole_rate + 3.0) > 10.0 * settled->error);
  // By default the first third (7 time units) is left out: [7, 21] still holds t = 7..9, and
  // the halves' slopes differ, which the uncertainty shows.
  const auto by_default = fhn::ring_rate(t, r2);
  REQUIRE(by_default.has_value());
  CHECK(by_default->from == 7.0);
  CHECK(by_default->error > settled->error);
  // An exact line: the rate exactly, no uncertainty to speak of.
  std::vector<real> line;
  for (real s : t) line.push_back(30.0 - 1.25 * s);
  const auto exact = fhn::ring_rate(t, line);
  REQUIRE(exact.has_value());
  CHECK(exact->rate == doctest::Approx(-1.25).epsilon(1e-12));
  CHECK(exact->error < 1e-12);
  // Too few frames in the window: none.
  CHECK_FALSE(fhn::ring_rate({0, 1, 2, 3, 4, 5}, {6, 5, 4, 3, 2, 1}).has_value());
}

TEST_CASE("filaments at their own cadence: filaments.csv as the frames gave it, whatever output.every") {
  // The scroll-ring start above in a 16 x 14 x 6 box to t = 2, no frames on disk.
  auto ring = [](const std::vector<std::string>& cadence) {
    std::vector<std::string> o = {"output.vtk=false"};
    o.insert(o.end(), cadence.begin(), cadence.end());
    const std::string start = "{type: scroll_ring, center: [8, 7, 3], radius: 4, wavelength: 8}";
    return fhn::test::config_from(
        "name: ring\nmodel: {form: barkley, a: 0.75, b: 0.02, eps: 0.02}\n"
        "domain: {length: [16, 14, 6], dx: 0.5}\ntime: {end: 2, dt: 0.01}\n"
        "initial: {v: " + start + ", w: " + start + "}\noutput: {probes: []}\n",
        o);
  };
  fhn::test::TempDir dir;
  fhn::test::run_config(ring({"output.every=0.2"}), dir / "frames");
  fhn::test::run_config(ring({"output.every=1", "output.filaments.every=0.2"}), dir / "own");
  const std::string frames = fhn::test::read_text(dir / "frames" / "filaments.csv");
  CHECK(fhn::test::contains(frames, "\n2,0,1,"));  // a ring at the end
  CHECK(fhn::test::read_text(dir / "own" / "filaments.csv") == frames);
  auto filaments_of = [](const std::string& json) {
    const std::string from = json.substr(json.find("\"filaments\": {"));
    return from.substr(0, from.find('}'));
  };
  CHECK(filaments_of(fhn::test::read_text(dir / "own" / "summary.json")) ==
        filaments_of(fhn::test::read_text(dir / "frames" / "summary.json")));
  // Finer than the frames: a sample every 0.04 (51 samples, 3 frames), one ring in each.
  fhn::test::run_config(ring({"output.every=1", "output.filaments.every=0.04"}), dir / "fine");
  const auto rows = fhn::test::read_csv(dir / "fine" / "filaments.csv");
  REQUIRE(rows.size() == 52);
  for (std::size_t r = 1; r < rows.size(); ++r) {
    CHECK(std::stod(rows[r][0]) == doctest::Approx(0.04 * static_cast<real>(r - 1)).epsilon(1e-12));
    CHECK(rows[r][1] == "0");
    CHECK(rows[r][2] == "1");
  }
  CHECK(fhn::test::contains(fhn::test::read_text(dir / "fine" / "summary.json"),
                            "\"ring_frames\":51"));
  CHECK(fhn::test::config_error(
            "domain: {length: [4, 4, 4], dx: 0.5}\ntime: {end: 1, dt: 0.04}\n"
            "output: {filaments: {every: 0.1}}\n") ==
        "invalid configuration:\n  test.yaml:3:29: output.filaments.every = 0.1 must be a whole "
        "multiple of time.dt = 0.04");
  // A cadence where nothing is measured: a sheet has no filaments, a box no tips.
  CHECK(fhn::test::config_error("domain: {length: [10, 10], dx: 0.5}\ntime: {dt: 0.05}\n"
                                "output: {filaments: {every: 1}}\n") ==
        "invalid configuration:\n  test.yaml:3:29: output.filaments.every: the filaments' cadence "
        "applies to boxes only (domain.length: [Lx, Ly, Lz])");
  CHECK(fhn::test::config_error("domain: {length: [4, 4, 4], dx: 0.5}\ntime: {dt: 0.04}\n"
                                "output: {tips: {every: 0.4}}\n") ==
        "invalid configuration:\n  test.yaml:3:24: output.tips.every: the tips' cadence applies "
        "to sheets only (domain.length: [Lx, Ly])");
}

TEST_CASE("Scheme::iso_cells in a box: the cube faces find_filaments joins, on the host") {
  const std::string start = "{type: scroll_ring, center: [8, 7, 3], radius: 4, wavelength: 8}";
  const fhn::Config c = fhn::test::config_from(
      "model: {form: barkley, a: 0.75, b: 0.02, eps: 0.02}\n"
      "domain: {length: [16, 14, 6], dx: 0.5}\ntime: {end: 2, dt: 0.01}\n"
      "initial: {v: " + start + ", w: " + start + "}\noutput: {probes: []}\n");
  const fhn::Problem problem = fhn::make_problem(c);
  auto scheme = fhn::make_scheme(c, problem);
  scheme->advance(100);
  fhn::Snapshot s;
  scheme->snapshot(s);
  const real v_iso = c.output.filaments.v_iso, w_iso = c.output.filaments.w_iso;
  std::vector<fhn::IsoCell> faces;
  index_t excited = -1;
  scheme->iso_cells(v_iso, w_iso, nullptr, nullptr, faces, excited);
  // Faces of every normal, each straddling both levels, in the order normal, k, j, i.
  int normals[3] = {0, 0, 0};
  for (std::size_t f = 0; f < faces.size(); ++f) {
    const fhn::IsoCell& q = faces[f];
    ++normals[q.normal];
    CHECK(fhn::changes_sign(q.v[0] - v_iso, q.v[1] - v_iso, q.v[2] - v_iso, q.v[3] - v_iso));
    CHECK(fhn::changes_sign(q.w[0] - w_iso, q.w[1] - w_iso, q.w[2] - w_iso, q.w[3] - w_iso));
    const index_t stride[3] = {1, s.domain.nodes[0], s.domain.nodes[0] * s.domain.nodes[1]};
    const index_t c00 = q.i + stride[1] * q.j + stride[2] * q.k;
    CHECK(q.v[3] == s.v[static_cast<std::size_t>(c00 + stride[fhn::span_a(q.normal)] +
                                                 stride[fhn::span_b(q.normal)])]);
    if (f > 0) {
      const fhn::IsoCell& p = faces[f - 1];
      CHECK((p.normal < q.normal || (p.normal == q.normal && p.i + stride[1] * p.j + stride[2] * p.k < c00)));
    }
  }
  CHECK(normals[0] > 0);
  CHECK(normals[1] > 0);
  CHECK(normals[2] > 0);
  const auto joined = fhn::join_filaments(s.domain, faces, v_iso, w_iso);
  const auto found = fhn::find_filaments(s.domain, s.v.data(), s.w.data(), v_iso, w_iso);
  REQUIRE(joined.size() == 1);
  REQUIRE(found.size() == 1);
  CHECK(joined[0].closed);
  CHECK(joined[0].points == found[0].points);
  CHECK(excited == fhn::excited_nodes(s.v.data(), static_cast<index_t>(s.v.size()), nullptr, v_iso));
}
