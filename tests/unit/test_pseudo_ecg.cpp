// The pseudo-ECG (study/pseudo_ecg.hpp, output.ecg): its quadrature against a closed form and an
// independent fine sum, its order in dx, its symmetry, the mask, the biphasic deflection of a
// pulse passing an electrode, ecg.csv across a restart, and the refusals at their keys.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "config/loader.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "io/vtk_writers.hpp"
#include "run/checkpoint.hpp"
#include "run/memory_estimate.hpp"
#include "study/pseudo_ecg.hpp"
#include "support.hpp"

namespace fs = std::filesystem;
using fhn::Point;
using fhn::test::contains;

namespace {

// The observed order of a quantity whose errors fell from e_coarse to e_fine as dx halved.
double order(double e_coarse, double e_fine) { return std::log2(e_coarse / e_fine); }

// A smooth bump on a sheet, with its gradient in closed form.
struct Bump {
  double cx, cy, s2;
  double v(double x, double y) const {
    return std::exp(-((x - cx) * (x - cx) + (y - cy) * (y - cy)) / s2);
  }
  double dx(double x, double y) const { return -2.0 * (x - cx) / s2 * v(x, y); }
  double dy(double x, double y) const { return -2.0 * (y - cy) / s2 * v(x, y); }
};

// v of the bump at the nodes of an n x n sheet of side L.
std::vector<double> bump_on(const fhn::Domain& d, const Bump& b) {
  std::vector<double> v(static_cast<std::size_t>(d.node_count()));
  for (fhn::index_t j = 0; j < d.nodes[1]; ++j)
    for (fhn::index_t i = 0; i < d.nodes[0]; ++i)
      v[static_cast<std::size_t>(i + d.nodes[0] * j)] = b.v(d.coordinate(0, i), d.coordinate(1, j));
  return v;
}

// The same integral written independently: the midpoint rule on m x m cells of the square
// [0, L]^2 with the bump's exact gradient, D the tensor [[xx, xy], [xy, yy]]:
//   phi = sum over cells of area * (-D grad v) . (x_e - x) / r^3.
double fine_sum(const Bump& b, double L, int m, const Point& e, double xx, double xy, double yy) {
  const double h = L / m;
  double sum = 0.0;
  for (int j = 0; j < m; ++j)
    for (int i = 0; i < m; ++i) {
      const double x = (i + 0.5) * h, y = (j + 0.5) * h;
      const double gx = b.dx(x, y), gy = b.dy(x, y);
      const double jx = -(xx * gx + xy * gy), jy = -(xy * gx + yy * gy);
      const double rx = e[0] - x, ry = e[1] - y, rz = e[2];
      const double r = std::sqrt(rx * rx + ry * ry + rz * rz);
      sum += h * h * (jx * rx + jy * ry) / (r * r * r);
    }
  return sum;
}

}  // namespace

TEST_CASE("pseudo-ECG of v = x on a cable: -D (1/r(L) - 1/r(0)), second order in dx") {
  // grad v = 1 is exact in the differences; the trapezoid rule of
  //   phi = -D integral_0^L (x_e - x) / r^3 dx = -D [1/r]_0^L   (d(1/r)/dx = (x_e - x) / r^3)
  // is the only error.
  const double L = 20.0, D = 1.3;
  const Point e{7.25, 1.5, 0.0};
  const double exact = -D * (1.0 / std::hypot(L - e[0], e[1]) - 1.0 / std::hypot(e[0], e[1]));
  fhn::EcgMedium medium;
  medium.diffusion = D;
  std::vector<double> errors;
  for (fhn::index_t n : {41, 81, 161, 321}) {
    const fhn::Domain d = fhn::cable(n, L / static_cast<double>(n - 1));
    std::vector<double> v(static_cast<std::size_t>(n));
    for (fhn::index_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = d.coordinate(0, i);
    errors.push_back(std::abs(fhn::pseudo_ecg(d, v.data(), medium, {e})[0] - exact));
  }
  CAPTURE(errors[0]);
  CAPTURE(errors[3]);
  CHECK(errors[3] < 1e-4 * std::abs(exact));
  for (std::size_t k = 0; k + 1 < errors.size(); ++k) {
    CAPTURE(k);
    CHECK(order(errors[k], errors[k + 1]) == doctest::Approx(2.0).epsilon(0.02));
  }
}

TEST_CASE("pseudo-ECG of a bump on a sheet: an independent fine sum, second order in dx, "
          "isotropic and with a tensor") {
  const double L = 20.0;
  const Bump bump{9.0, 11.5, 6.0};
  const Point e{12.3, 8.1, 2.5};
  struct Medium {
    double xx, xy, yy;
  };
  for (const Medium m : {Medium{1.2, 0.0, 1.2}, Medium{1.5, 0.3, 0.7}}) {
    CAPTURE(m.xy);
    const double reference = fine_sum(bump, L, 4000, e, m.xx, m.xy, m.yy);
    fhn::TensorField tensor;
    tensor.enabled = true;
    tensor.xx = m.xx, tensor.xy = m.xy, tensor.yy = m.yy;
    fhn::EcgMedium medium;
    medium.diffusion = m.xx;
    if (m.xy != 0.0) medium.tensor = &tensor;  // the isotropic one takes the scalar path
    std::vector<double> errors;
    for (fhn::index_t n : {41, 81, 161, 321}) {
      const fhn::Domain d = fhn::test::sheet_domain(n, n, L / static_cast<double>(n - 1));
      const std::vector<double> v = bump_on(d, bump);
      errors.push_back(std::abs(fhn::pseudo_ecg(d, v.data(), medium, {e})[0] - reference));
    }
    CAPTURE(reference);
    CAPTURE(errors[0]);
    CAPTURE(errors[3]);
    CHECK(errors[3] < 2e-3 * std::abs(reference));
    for (std::size_t k = 0; k + 1 < errors.size(); ++k) {
      CAPTURE(k);
      CHECK(order(errors[k], errors[k + 1]) == doctest::Approx(2.0).epsilon(0.05));
    }
  }
}

TEST_CASE("pseudo-ECG: an electrode mirrored with the state gives the same signal") {
  const fhn::Domain d = fhn::test::sheet_domain(61, 41, 0.5);  // [0, 30] x [0, 20]
  const Bump bump{11.0, 8.0, 5.0};
  const Bump mirrored{30.0 - 11.0, 8.0, 5.0};  // x -> 30 - x
  const std::vector<double> v = bump_on(d, bump), w = bump_on(d, mirrored);
  fhn::EcgMedium medium;
  const std::vector<Point> electrodes{{14.2, 6.3, 1.0}, {3.1, 15.0, 4.0}};
  const std::vector<Point> mirror{{30.0 - 14.2, 6.3, 1.0}, {30.0 - 3.1, 15.0, 4.0}};
  const std::vector<double> a = fhn::pseudo_ecg(d, v.data(), medium, electrodes);
  const std::vector<double> b = fhn::pseudo_ecg(d, w.data(), medium, mirror);
  for (std::size_t k = 0; k < a.size(); ++k) {
    CAPTURE(k);
    CHECK(std::abs(a[k]) > 1e-3);
    CHECK(b[k] == doctest::Approx(a[k]).epsilon(1e-12));
  }
  // Below the sheet (z -> -z) the same: the sheet is its own mirror image in z.
  CHECK(fhn::pseudo_ecg(d, v.data(), medium, {{14.2, 6.3, -1.0}})[0] ==
        doctest::Approx(a[0]).epsilon(1e-14));
}

TEST_CASE("pseudo-ECG on a masked sheet: only tissue nodes count, one-sided differences at its "
          "edge") {
  const fhn::Domain d = fhn::test::sheet_domain(41, 41, 0.5);
  const Bump bump{8.0, 10.0, 4.0};
  std::vector<double> v = bump_on(d, bump);
  std::vector<std::uint8_t> outside(v.size(), 0);
  for (fhn::index_t j = 0; j < 41; ++j)
    for (fhn::index_t i = 30; i < 41; ++i) outside[static_cast<std::size_t>(i + 41 * j)] = 1;
  fhn::EcgMedium medium;
  medium.outside = outside.data();
  const Point e{12.0, 10.2, 1.0};
  const double masked = fhn::pseudo_ecg(d, v.data(), medium, {e})[0];
  // The nodes outside are never read: any values there give the same number, NaN included.
  for (std::size_t n = 0; n < v.size(); ++n)
    if (outside[n]) v[n] = std::numeric_limits<double>::quiet_NaN();
  CHECK(fhn::pseudo_ecg(d, v.data(), medium, {e})[0] == masked);
  // By hand at one edge node (i = 29, its neighbour i = 30 outside): removing the mask there
  // changes the sum by its term with the one-sided difference against the central one.
  fhn::EcgMedium whole;
  std::vector<double> u = bump_on(d, bump);
  std::vector<std::uint8_t> only_beyond(outside);
  for (fhn::index_t j = 0; j < 41; ++j) only_beyond[static_cast<std::size_t>(30 + 41 * j)] = 0;
  // Tissue to i = 30 against tissue to i = 29: the difference is node 30's terms and the
  // x-difference of nodes 29 and 30 switching form; all far from the bump, so small but not 0.
  medium.outside = only_beyond.data();
  const double wider = fhn::pseudo_ecg(d, u.data(), medium, {e})[0];
  CHECK(wider != masked);
  CHECK(std::abs(wider - masked) < 1e-3 * std::abs(masked));
  // Without a mask the whole sheet counts.
  CHECK(fhn::pseudo_ecg(d, u.data(), whole, {e})[0] != masked);
}

namespace {

// A pulse started at the left end of a cable runs to the right under electrodes at x = 30 and
// 50, 1 above the cable.
const char* kCable =
    "name: ecg\n"
    "domain: {length: 80, dx: 0.5}\n"
    "initial: {v: {type: constant, value: 0}}\n"
    "stimulus: [{x_min: 0, x_max: 2, start: 0, duration: 2, amplitude: 0.5}]\n"
    "time: {end: 140, dt: 0.05}\n"
    "output:\n"
    "  every: 2\n"
    "  probes: [30, 50]\n"
    "  checkpoint_every: 40\n"
    "  ecg: {electrodes: [[30, 1], [50, 1]], every: 0.25}\n";

fhn::Config cable_config(std::vector<std::string> overrides = {}) {
  if (!fhn::vtk_compiled()) overrides.insert(overrides.end(), {"output.vtk=false", "output.spacetime=false"});
  return fhn::test::config_from(kCable, overrides);
}

}  // namespace

TEST_CASE("a pulse passing an electrode draws + then - (its front), then - and + (its back)") {
  fhn::test::TempDir dir;
  fhn::test::run_config(cable_config(), dir.path());
  const auto rows = fhn::test::read_csv(dir / "ecg.csv");
  REQUIRE(rows.size() == 1 + 561);  // t = 0, 0.25, ..., 140
  CHECK(rows[0] == std::vector<std::string>{"t", "phi@(30 1)", "phi@(50 1)"});
  CHECK(rows[1][0] == "0");
  CHECK(rows[561][0] == "140");
  const auto probes = fhn::test::read_csv(dir / "probes.csv");
  const std::string summary = fhn::test::read_text(dir / "summary.json");
  for (std::size_t e = 0; e < 2; ++e) {
    CAPTURE(e);
    // The front's and the back's passage at the electrode's x: v of the probe there crossing
    // 0.5 upwards, then downwards (frames every 2).
    const std::size_t v_col = fhn::test::column(probes[0], e == 0 ? "v@30" : "v@50");
    double t_up = -1.0, t_down = -1.0;
    for (std::size_t r = 2; r < probes.size(); ++r) {
      const double before = std::stod(probes[r - 1][v_col]), now = std::stod(probes[r][v_col]);
      if (t_up < 0 && before < 0.5 && now >= 0.5) t_up = std::stod(probes[r][0]);
      if (t_up > 0 && t_down < 0 && before >= 0.5 && now < 0.5) t_down = std::stod(probes[r][0]);
    }
    REQUIRE(t_up > 0.0);
    REQUIRE(t_down > t_up + 10.0);
    // The extremes of the trace within `window` of t0, and when.
    struct Peak {
      double max = -1e300, min = 1e300, t_max = 0, t_min = 0;
    };
    auto peaks = [&](double from, double to) {
      Peak p;
      for (std::size_t r = 1; r < rows.size(); ++r) {
        const double t = std::stod(rows[r][0]), phi = std::stod(rows[r][1 + e]);
        if (t < from || t > to) continue;
        if (phi > p.max) p.max = phi, p.t_max = t;
        if (phi < p.min) p.min = phi, p.t_min = t;
      }
      return p;
    };
    // The front: approaching (+) before v rises at the electrode, leaving (-) after.
    const Peak front = peaks(t_up - 8.0, t_up + 8.0);
    CAPTURE(t_up);
    CAPTURE(front.t_max);
    CAPTURE(front.t_min);
    CHECK(front.max > 0.05);
    CHECK(front.min < -0.05);
    CHECK(front.t_max < t_up);
    CHECK(front.t_min > t_up - 2.0);  // t_up is the first frame past the crossing
    CHECK(front.t_max < front.t_min);
    // The back (v falls): the reverse, - then +.
    const Peak back = peaks(t_down - 8.0, t_down + 8.0);
    CAPTURE(t_down);
    CHECK(back.t_min < back.t_max);
    CHECK(back.min < -0.05);
    CHECK(back.max > 0.05);
    // summary.json: the whole trace's extremes and when.
    const Peak all = peaks(0.0, 140.0);
    CHECK(contains(summary, "{\"at\":\"(" + std::string(e == 0 ? "30" : "50") + " 1)\",\"max\":" +
                                fhn::format_exact(all.max) + ",\"t_max\":" +
                                fhn::format_exact(all.t_max) + ",\"min\":" +
                                fhn::format_exact(all.min) + ",\"t_min\":" +
                                fhn::format_exact(all.t_min) + "}"));
  }
  CHECK(contains(summary, "\"every\":0.25,\"samples\":561,"));
}

TEST_CASE("ecg.csv and the ECG's extremes after a restart are those of the run that never stopped") {
  fhn::test::TempDir dir;
  fhn::test::run_config(cable_config(), dir / "a");
  // Stops at t = 130 (checkpoints at t = 40, 80 and 120), continues from t = 120: the pulse
  // passed both electrodes before, so the extremes come from the checkpoint.
  fhn::test::run_config(cable_config({"time.end=130"}), dir / "b");
  const fs::path checkpoint = fhn::checkpoint_path(dir / "b", "ecg", 2400);
  REQUIRE(fs::exists(checkpoint));
  fhn::test::run_config(cable_config(), dir / "b", checkpoint);
  CHECK(fhn::test::read_text(dir / "a" / "ecg.csv") == fhn::test::read_text(dir / "b" / "ecg.csv"));
  // summary.json's "ecg" line (its value is written on one line).
  auto ecg_entry = [](const fs::path& summary) {
    const std::string text = fhn::test::read_text(summary);
    const std::size_t at = text.find("\"ecg\"");
    REQUIRE(at != std::string::npos);
    return text.substr(at, text.find('\n', at) - at);
  };
  CHECK(ecg_entry(dir / "a" / "summary.json") == ecg_entry(dir / "b" / "summary.json"));
  // A restart whose electrodes changed is refused before anything is written.
  const std::string message = fhn::test::thrown_message<fhn::ConfigError>([&] {
    fhn::test::run_config(cable_config({"output.ecg.electrodes=[[30, 2], [50, 1]]"}), dir / "b", checkpoint);
  });
  CHECK(contains(message, "ecg.csv: its columns (t,phi@(30 1),phi@(50 1)) are not this run's "
                          "(t,phi@(30 2),phi@(50 1)): output.ecg.electrodes changed"));
}

TEST_CASE("output.ecg and output.phase refused at their keys and lines") {
  // An electrode on a node: r = 0.
  std::string message = fhn::test::config_error(
      "domain: {length: 40, dx: 0.5}\n"
      "output:\n"
      "  ecg:\n"
      "    electrodes: [[10.25, 1], [20, 0]]\n");
  CHECK(contains(message, "test.yaml:4:30: output.ecg.electrodes[1]: [20, 0] is on the node "
                          "x = 20 (r = 0, where the potential's 1/r is infinite); move it off "
                          "the nodes, e.g. to a distance y > 0 from the cable"));
  message = fhn::test::config_error(
      "domain: {length: [20, 20], dx: 0.5}\n"
      "output: {ecg: {electrodes: [[10, 10.5, 0]]}}\n");
  CHECK(contains(message, "output.ecg.electrodes[0]: [10, 10.5, 0] is on the node x = 10, "
                          "y = 10.5"));
  message = fhn::test::config_error(
      "domain: {length: [10, 10, 10], dx: 0.5}\n"
      "output: {ecg: {electrodes: [[10, 0, 5]]}, filaments: {enabled: false}}\n");
  CHECK(contains(message, "output.ecg.electrodes[0]: [10, 0, 5] is on the node x = 10, y = 0, "
                          "z = 5 (r = 0, where the potential's 1/r is infinite); move it off the "
                          "nodes, e.g. between two nodes or outside the box"));
  // Off the node by more than round-off: accepted.
  CHECK(fhn::test::config_error("domain: {length: 40, dx: 0.5}\n"
                                "output: {ecg: {electrodes: [[20, 0.001]]}}\n") == "");
  // The wrong number of coordinates.
  message = fhn::test::config_error(
      "domain: {length: [20, 20], dx: 0.5}\n"
      "output:\n"
      "  ecg: {electrodes: [[5.2, 5.2]]}\n");
  CHECK(contains(message, "test.yaml:3:22: output.ecg.electrodes[0]: expected a list [x, y, z] "
                          "(a sheet's electrode: x, y and z its height above it), got a list"));
  message = fhn::test::config_error("domain: {length: 40, dx: 0.5}\n"
                                    "output: {ecg: {electrodes: [3.2]}}\n");
  CHECK(contains(message, "output.ecg.electrodes[0]: expected a list [x, y] (a cable's electrode: "
                          "x along it, y its distance from it), got '3.2'"));
  message = fhn::test::config_error("domain: {length: 40, dx: 0.5}\n"
                                    "output: {ecg: {every: 1}}\n");
  CHECK(contains(message, "test.yaml:2:15: missing required key 'output.ecg.electrodes'"));
  message = fhn::test::config_error("domain: {length: 40, dx: 0.5}\ntime: {dt: 0.05}\n"
                                    "output: {ecg: {electrodes: [[3.2, 1]], every: 0.12}}\n");
  CHECK(contains(message, "output.ecg.every = 0.12 must be a whole multiple of time.dt = 0.05"));
  message = fhn::test::config_error(
      "domain: {length: 40, dx: 0.5}\nscheme: {type: adaptive_explicit}\n"
      "output: {ecg: {electrodes: [[3.2, 1]]}}\n");
  CHECK(contains(message, "test.yaml:3:15: output.ecg: the pseudo-ECG is computed on the uniform "
                          "grid"));
  message = fhn::test::config_error("domain: {length: 40, dx: 0.5}\noutput: {phase: true}\n");
  CHECK(contains(message, "test.yaml:2:17: output.phase: the phase map is drawn on sheets and "
                          "boxes only"));
  message = fhn::test::config_error(
      "domain: {length: [20, 20], dx: 0.5}\noutput: {phase: true, vtk: false}\n");
  CHECK(contains(message, "output.phase: the phase is a point array of the frames; it needs "
                          "output.vtk: true"));
}

TEST_CASE("a sweep over a base with output.ecg is refused at the base's key and line") {
  fhn::test::TempDir dir;
  std::string sweep;
  const auto r = fhn::test::sweep_over_base(dir.path(), "cable.yaml",
                                            "name: cable\ndomain: {length: 20, dx: 0.5}\n"
                                            "time: {end: 1, dt: 0.05}\n"
                                            "output: {vtk: false, spacetime: false,\n"
                                            "         ecg: {electrodes: [[5.25, 1]]}}\n",
                                            sweep);
  CHECK(r.code == 2);
  CHECK(contains(r.err, sweep + ": " + (dir / "cable.yaml").string() +
                            ":5:15: output.ecg: the pseudo-ECG is written by fhn run; a sweep's "
                            "members do not write ecg.csv"));
}

TEST_CASE("the memory estimate counts the ECG's snapshot") {
  const std::string sheet = "domain: {length: [20, 10], dx: 0.5}\ntime: {dt: 0.05}\n";
  const fhn::MemoryEstimate plain = fhn::estimate_run_memory(fhn::test::config_from(sheet));
  const fhn::MemoryEstimate e = fhn::estimate_run_memory(fhn::test::config_from(
      sheet + "output: {ecg: {electrodes: [[5, 5, 1]]}}\n"));
  const double n = 41 * 21;
  CHECK(e.host.size() == plain.host.size() + 1);
  CHECK(e.host_total() - e.host_peak_temporary.bytes ==
        plain.host_total() - plain.host_peak_temporary.bytes + 2 * 8 * n);
  bool listed = false;
  for (const fhn::MemoryItem& item : e.host)
    listed = listed || (item.what == "the pseudo-ECG's snapshot: v, w" && item.bytes == 2 * 8 * n);
  CHECK(listed);
}

TEST_CASE("output.ecg and output.phase round-trip through the resolved config") {
  const fhn::Config c = fhn::test::config_from(
      "domain: {length: [20, 20], dx: 0.5}\ntime: {dt: 0.05}\n"
      "output: {every: 1, phase: true, ecg: {electrodes: [[5.25, 5, 2], [15, 15, -1]], "
      "every: 0.5}}\n");
  const std::string yaml = fhn::to_yaml(c);
  CHECK(contains(yaml, "ecg:\n    electrodes: [[5.25, 5, 2], [15, 15, -1]]\n    every: 0.5\n"));
  CHECK(contains(yaml, "phase: true"));
  const fhn::Config again = fhn::test::config_from(yaml);
  CHECK(again.output.ecg.electrodes == c.output.ecg.electrodes);
  CHECK(again.output.ecg.every_steps == 10);
  CHECK(again.output.phase);
  // Off by default, and then not written: the resolved configs of other runs stay as they were.
  const std::string plain = fhn::to_yaml(
      fhn::test::config_from("domain: {length: [20, 20], dx: 0.5}\ntime: {dt: 0.05}\n"));
  CHECK(!contains(plain, "ecg"));
  CHECK(!contains(plain, "phase"));
}
