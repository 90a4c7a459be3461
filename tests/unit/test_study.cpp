// Studies (fhn converge): the runner's logic on synthetic data with known errors, small
// convergence studies that assert the orders of both schemes, the stability and Newton studies,
// and the study loader's checks.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "config/study_config.hpp"
#include "core/error.hpp"
#include "study/study.hpp"
#include "support.hpp"

using fhn::test::contains;

namespace {


// u(x) = x^2 + c h^2 on the grid of spacing h over [0, 1].
fhn::Snapshot synthetic(double h, double c) {
  fhn::Snapshot s;
  const int n = static_cast<int>(std::lround(1.0 / h)) + 1;
  s.domain = fhn::cable(n, h);
  for (int i = 0; i < n; ++i) {
    const double x = s.domain.coordinate(0, i);
    s.v.push_back(x * x + c * h * h);
    s.w.push_back(0.0);
  }
  return s;
}

struct CsvRow {
  double time, value, error, order;
};

std::vector<CsvRow> read_convergence_csv(const std::filesystem::path& file) {
  std::istringstream in(fhn::test::read_text(file));
  std::string line;
  std::getline(in, line);  // header
  std::vector<CsvRow> rows;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::istringstream fields(line);
    for (std::string cell; std::getline(fields, cell, ',');) f.push_back(cell);
    rows.push_back({std::stod(f[0]), std::stod(f[2]), std::stod(f[4]), f.size() > 5 ? std::stod(f[5]) : NAN});
  }
  return rows;
}

// Runs a study given as text, with a small base config (a bump on a short axon) beside it.
std::vector<CsvRow> run_small_study(const std::string& study_body, const std::string& scheme) {
  fhn::test::TempDir dir;
  fhn::test::write_text(dir / "base.yaml",
                        "name: base\n"
                        "domain: {length: 20, nodes: 81}\n"
                        "initial: {v: {type: gaussian, center: 8, width2: 4}}\n"
                        "time: {end: 1, dt: 0.002}\n"
                        "scheme: {type: " + scheme + "}\n"
                        "output: {every: 1}\n");
  const fhn::StudyConfig study =
      fhn::load_study_text("base: base.yaml\n" + study_body, (dir / "study.yaml").string());
  fhn::StudyOptions options;
  options.output_dir = dir / "out";
  std::ostringstream out;
  const auto csv = fhn::run_study(study, options, out);
  CHECK(contains(out.str(), "convergence study"));
  return read_convergence_csv(csv);
}

// Runs the study `kind` from the file `file` ("study: <kind>", base: the shipped config `base`,
// then `rest`) into `folder`, its report into `out`; returns the <kind>.csv it wrote there.
std::string run_on_shipped_base(const std::string& kind, const std::string& base,
                                const std::string& rest, const std::string& file,
                                const std::filesystem::path& folder, std::ostringstream& out) {
  fhn::StudyOptions options;
  options.output_dir = folder;
  fhn::run_study(fhn::load_study_text("study: " + kind + "\nbase: " +
                                          fhn::test::source_path("configs/" + base) + "\n" + rest,
                                      file),
                 options, out);
  return fhn::test::read_text(folder / (kind + ".csv"));
}

void check_study_orders(const std::vector<CsvRow>& rows, double expected) {
  REQUIRE(rows.size() >= 3);
  for (const CsvRow& r : rows) {
    if (std::isnan(r.order)) continue;
    CAPTURE(r.value);
    CAPTURE(r.order);
    CHECK(std::abs(r.order - expected) < 0.2);
  }
}

}  // namespace

TEST_CASE("convergence table: errors and orders of a synthetic case with a known error") {
  // Levels h = 0.2, 0.1, 0.05 against the exact x^2 on the finest grid: error = 3 h^2.
  const std::vector<double> h{0.2, 0.1, 0.05};
  std::vector<std::vector<fhn::Snapshot>> levels;
  for (double value : h) levels.push_back({synthetic(value, 3.0)});
  const std::vector<fhn::Snapshot> exact{synthetic(0.025, 0.0)};
  for (const auto norm : {fhn::Norm::rmse, fhn::Norm::max}) {
    const auto rows = fhn::convergence_table(levels, h, exact, {1.0}, 2.0, norm);
    REQUIRE(rows.size() == 3);
    for (std::size_t l = 0; l < 3; ++l) {
      CHECK(rows[l].error == doctest::Approx(3.0 * h[l] * h[l]).epsilon(1e-12));
      CHECK(rows[l].nodes == static_cast<fhn::index_t>(std::lround(1.0 / h[l])) + 1);
    }
    CHECK(std::isnan(rows[0].order));
    CHECK(rows[1].order == doctest::Approx(2.0));
    CHECK(rows[2].order == doctest::Approx(2.0));
  }
}

TEST_CASE("Richardson extrapolation removes the leading error term") {
  const fhn::Snapshot r = fhn::richardson(synthetic(0.1, 5.0), synthetic(0.05, 5.0), 2.0, 2.0);
  const std::vector<double> x = r.coordinates(0);
  REQUIRE(x.size() == 11);
  REQUIRE(r.v.size() == 11);
  for (std::size_t i = 0; i < x.size(); ++i)
    CHECK(r.v[i] == doctest::Approx(x[i] * x[i]).epsilon(1e-12));
}

TEST_CASE("zig-zag amplitude: zero for smooth profiles, 2A for an odd-even mode of amplitude A") {
  std::vector<double> smooth, zigzag;
  for (int i = 0; i < 50; ++i) {
    smooth.push_back(std::exp(-(i - 25.0) * (i - 25.0) / 20.0));
    zigzag.push_back(smooth.back() * 0.0 + (i % 2 == 0 ? 0.01 : -0.01));
  }
  CHECK(fhn::zigzag_amplitude(smooth) == 0.0);
  CHECK(fhn::zigzag_amplitude(zigzag) == doctest::Approx(0.02));
}

TEST_CASE("study: explicit scheme is first order in time") {
  check_study_orders(run_small_study("study: convergence\n"
                                     "refine: {key: time.dt, start: 0.02, levels: 4}\n"
                                     "reference: {value: 0.0000390625}\n"
                                     "compare: {times: [0.5, 1]}\n",
                                     "explicit"),
                     1.0);
}

TEST_CASE("study: explicit scheme is second order in space") {
  check_study_orders(run_small_study("study: convergence\n"
                                     "set: {time.dt: 0.0009765625}\n"
                                     "refine: {key: domain.dx, start: 0.5, levels: 4}\n"
                                     "reference: richardson\n",
                                     "explicit"),
                     2.0);
}

TEST_CASE("study: Crank-Nicolson is second order in time and in space") {
  check_study_orders(run_small_study("study: convergence\n"
                                     "refine: {key: time.dt, start: 0.25, levels: 4}\n"
                                     "reference: {value: 0.0078125}\n"
                                     "compare: {times: [1], norm: max}\n",
                                     "crank_nicolson"),
                     2.0);
  check_study_orders(run_small_study("study: convergence\n"
                                     "set: {time.dt: 0.01}\n"
                                     "refine: {key: domain.dx, start: 0.5, levels: 4}\n"
                                     "reference: richardson\n",
                                     "crank_nicolson"),
                     2.0);
}

TEST_CASE("study: stability sweeps report ok, refused and failed runs") {
  fhn::test::TempDir dir;
  std::ostringstream out;
  const std::string explicit_csv =
      run_on_shipped_base("stability", "pulse_split.yaml", "sweep: {ratios: [0.25, 0.6], end: 5}\n",
                          "explicit.yaml", dir / "out", out);
  CHECK(contains(explicit_csv, "-,0.25,0.0625,ok,"));
  CHECK(contains(explicit_csv, "-,0.6,0.15,refused,"));
  CHECK(contains(out.str(), "explicit: bounded and oscillation-free up to dt/dx^2 = 0.25; refused at dt/dx^2 = 0.6"));

  out.str("");
  const std::string cn_csv =
      run_on_shipped_base("stability", "pulse_split_cn.yaml",
                          "sweep: {ratios: [1, 10, 40], solvers: [thomas], end: 20}\n", "cn.yaml",
                          dir / "out", out);
  CHECK(contains(cn_csv, "thomas,1,0.25,ok,"));
  CHECK(contains(cn_csv, "thomas,10,2.5,ok,"));
  CHECK(contains(cn_csv, "thomas,40,10,failed,"));
  CHECK(contains(cn_csv, "not diagonally dominant"));
}

TEST_CASE("study: newton records every iteration of each solver") {
  fhn::test::TempDir dir;
  std::ostringstream out;
  const std::string csv = run_on_shipped_base("newton", "pulse_split_cn.yaml",
                                              "newton: {solvers: [thomas], steps: 20}\n",
                                              "newton.yaml", dir / "out", out);
  CHECK(csv.rfind("solver,step,iteration,du_inf,residual_inf\nthomas,0,1,", 0) == 0);
  CHECK(contains(csv, "thomas,19,3,"));
  CHECK(contains(out.str(), "thomas            3         3"));
}

TEST_CASE("study loader: errors name the key and the line") {
  auto error = [](const std::string& text) {
    return fhn::test::thrown_message<fhn::ConfigError>(
        [&] { fhn::load_study_text(text, "s.yaml"); });
  };
  CHECK(contains(error("study: convergence\nbase: b.yaml\nrefine: {key: time.dt, start: 0.1}\nrefernce: finest\n"),
                 "s.yaml:4:1: unknown key 'refernce'; did you mean 'reference'?"));
  CHECK(contains(error("base: b.yaml\n"), "missing required key 'study'"));
  CHECK(contains(error("study: convergence\nrefine: {start: 0.1}\n"), "missing required key 'base'"));
  CHECK(contains(error("study: convergence\nbase: b.yaml\nrefine: {key: model.a, start: 0.1}\n"),
                 "refine.key: 'model.a' cannot be refined; expected time.dt or domain.dx"));
  CHECK(contains(error("study: convergence\nbase: b.yaml\nrefine: {key: time.dt}\n"),
                 "missing required key 'refine.start'"));
  CHECK(contains(error("study: convergence\nbase: b.yaml\nrefine: {start: 1}\nreference: best\n"),
                 "reference: 'best' is not allowed; expected finest, richardson or {value:"));
  CHECK(contains(error("study: stability\nbase: b.yaml\nsweep: {ratios: [1, -2]}\n"),
                 "sweep.ratios[1]: expected a number > 0, got '-2'"));
  CHECK(contains(error("study: newton\nbase: b.yaml\nnewton: {solvers: [thomas, lu]}\n"),
                 "newton.solvers[1]: 'lu' is not a tridiagonal solver"));
  CHECK(contains(error("study: survey\nbase: b.yaml\n"), "expected one of: convergence, stability, newton"));
  CHECK(contains(error("study: adaptive\nbase: b.yaml\ntolerances: [1.0e-3, 0]\n"),
                 "tolerances[1]: expected a number > 0, got '0'"));
  CHECK(contains(
      error("study: convergence\nbase: b.yaml\nrefine: {start: 1}\ntolerances: [1.0e-3]\n"),
      "s.yaml:4:1: unknown key 'tolerances'"));
  const std::string several = "study: adaptive\nbase: b.yaml\ntolerances: [1.0e-3, 2.5e-4]\n";
  CHECK(fhn::load_study_text(several, "s.yaml").tolerances == std::vector<double>{1e-3, 2.5e-4});
}

TEST_CASE("fhn converge runs a study and reports bad ones with exit code 2") {
  fhn::test::TempDir dir;
  const auto ok = fhn::test::run_cli({"converge", fhn::test::source_path("configs/studies/explicit_dt.yaml"),
                                      "--output", (dir / "out").string()});
  CHECK(ok.code == 0);
  CHECK(contains(ok.out, "convergence study 'explicit_dt'"));
  CHECK(contains(ok.out, "convergence.csv"));
  const auto bad = fhn::test::run_cli({"converge", fhn::test::write_text(dir / "bad.yaml", "study: convergence\n")});
  CHECK(bad.code == 2);
  CHECK(contains(bad.err, "missing required key 'base'"));
}

TEST_CASE("every shipped study validates") {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(fhn::test::source_path("configs/studies"))) {
    if (entry.path().extension() != ".yaml") continue;
    CAPTURE(entry.path().string());
    CHECK_NOTHROW(fhn::load_study(entry.path().string()));
    ++count;
  }
  CHECK(count >= 8);
}

namespace {

// The rows of a CSV with a header, as text cells by column name.
std::vector<std::map<std::string, std::string>> read_csv(const std::filesystem::path& file) {
  std::istringstream in(fhn::test::read_text(file));
  auto split = [](const std::string& line) {
    std::vector<std::string> cells;
    std::istringstream fields(line);
    for (std::string cell; std::getline(fields, cell, ',');) cells.push_back(cell);
    if (!line.empty() && line.back() == ',') cells.emplace_back();
    return cells;
  };
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> header = split(line);
  std::vector<std::map<std::string, std::string>> rows;
  while (std::getline(in, line)) {
    const std::vector<std::string> cells = split(line);
    REQUIRE(cells.size() == header.size());
    std::map<std::string, std::string> row;
    for (std::size_t k = 0; k < header.size(); ++k) row[header[k]] = cells[k];
    rows.push_back(row);
  }
  return rows;
}

// The text of a work-precision study of configs/<base> with `set`, the quantity and reference,
// and two methods (each "{label: ..., set: {...}, dt: [...]}").
std::string work_precision_text(const std::string& base, const std::string& set,
                                const std::string& quantity, const std::string& reference,
                                const std::string& first, const std::string& second,
                                const std::string& targets) {
  return "study: work_precision\nbase: " + fhn::test::source_path("configs/" + base) +
         "\nset: " + set + "\nquantity: " + quantity + "\nreference: " + reference +
         "\nmethods:\n  - " + first + "\n  - " + second + "\ntargets: " + targets + "\n";
}

// A work-precision study given as text (read as s.yaml), run into a temporary folder: what it
// printed and the rows of its work_precision.csv and work_precision_choice.csv.
struct WorkPrecisionRun {
  std::string printed;
  std::vector<std::map<std::string, std::string>> rows, choice;
};
WorkPrecisionRun run_work_precision(const std::string& study) {
  fhn::test::TempDir dir;
  fhn::StudyOptions options;
  options.output_dir = dir / "out";
  std::ostringstream out;
  fhn::run_study(fhn::load_study_text(study, (dir / "s.yaml").string()), options, out);
  return {out.str(), read_csv(dir / "out" / "work_precision.csv"),
          read_csv(dir / "out" / "work_precision_choice.csv")};
}

// Rows 0-1: a first-order method at dt and dt/2; rows 2-4: a second-order one at dt', dt'/2,
// dt'/4. Halving dt halves the first one's error and quarters the second one's.
void check_first_then_second_order(const std::vector<std::map<std::string, std::string>>& rows) {
  REQUIRE(rows.size() == 5);
  auto error = [&](std::size_t k) { return std::stod(rows[k].at("error")); };
  CHECK(error(0) / error(1) == doctest::Approx(2.0).epsilon(0.1));
  CHECK(error(2) / error(3) == doctest::Approx(4.0).epsilon(0.15));
  CHECK(error(3) / error(4) == doctest::Approx(4.0).epsilon(0.15));
}

}  // namespace

TEST_CASE("study: work_precision on a cable pulse: forward Euler first order in dt, "
          "Crank-Nicolson second, and the choice is the fastest run within each target") {
  // FitzHugh's pulse (configs/fitzhugh_pulse.yaml) on 80 space units for 70 time units; the
  // reference a Crank-Nicolson run at dt = 0.005.
  const WorkPrecisionRun run = run_work_precision(
      work_precision_text("fitzhugh_pulse.yaml",
                          "{domain.length: 80, time.end: 70, output.probes: []}", "pulse_speed",
                          "{dt: 0.005, set: {scheme.type: crank_nicolson}}",
                          "{label: explicit, set: {scheme.type: explicit}, dt: [0.0125, 0.00625]}",
                          "{label: cn, set: {scheme.type: crank_nicolson}, "
                          "dt: [0.25, 0.125, 0.0625]}",
                          "[1.0e-3, 2.0e-4, 1.0e-9]"));
  CHECK(contains(run.printed, "work-precision study"));
  const auto& rows = run.rows;
  check_first_then_second_order(rows);
  for (std::size_t k = 0; k < rows.size(); ++k) {
    CAPTURE(k);
    CHECK(std::abs(std::stod(rows[k].at("pulse_speed")) - 0.81) < 0.01);  // fitzhugh_pulse: 0.8105
    CHECK(std::stod(rows[k].at("seconds")) > 0.0);
  }
  CHECK(rows[0].at("method") == "explicit");
  CHECK(rows[0].at("steps") == "5600");
  // Each target's choice reaches it and no run that reaches it is faster; 1e-9 none reaches.
  const auto& choice = run.choice;
  REQUIRE(choice.size() == 3);
  for (const auto& c : choice) {
    const double target = std::stod(c.at("target"));
    CAPTURE(target);
    double fastest = INFINITY;
    for (const auto& r : rows)
      if (std::stod(r.at("relative_error")) <= target)
        fastest = std::min(fastest, std::stod(r.at("seconds")));
    if (std::isinf(fastest)) {
      CHECK(c.at("method").empty());
      continue;
    }
    CHECK(std::stod(c.at("relative_error")) <= target);
    CHECK(std::stod(c.at("seconds")) == fastest);
  }
  CHECK(choice[2].at("method").empty());
  CHECK(contains(run.printed, "no run reaches it"));
}

TEST_CASE("study loader: work_precision's keys and mistakes") {
  auto error = [](const std::string& text) {
    return fhn::test::thrown_message<fhn::ConfigError>(
        [&] { fhn::load_study_text(text, "s.yaml"); });
  };
  const std::string head = "study: work_precision\nbase: b.yaml\n";
  const std::string methods = "methods: [{label: e, set: {scheme.type: explicit}, dt: [0.1]}]\n";
  CHECK(contains(error(head + "reference: {value: 1}\n" + methods),
                 "missing required key 'quantity' (spiral_period, pulse_speed, field_rmse or "
                 "activation_time)"));
  CHECK(contains(error(head + "quantity: field_rmse\nreference: {value: 1}\n" + methods),
                 "s.yaml:4:20: reference.value: quantity field_rmse compares each run's v at "
                 "time.end with a reference run's"));
  CHECK(contains(error(head + "quantity: pulse_speed\n" + methods),
                 "reference: expected {value: <the exact quantity>} or {dt: <a fine time step>"));
  CHECK(contains(error(head + "quantity: pulse_speed\nreference: {value: 1, dt: 0.1}\n" + methods),
                 "reference.dt: a reference is a value or a run (dt and set), not both"));
  CHECK(contains(error(head + "quantity: pulse_speed\nreference: {value: 1}\n"
                              "methods: [{label: e, dt: [0.1]}, {label: e, dt: [0.2]}]\n"),
                 "methods[1].label: 'e' names an earlier method too"));
  CHECK(contains(error(head + "quantity: pulse_speed\nreference: {value: 1}\n"
                              "methods: [{label: e, set: {scheme.type: explicit}}]\n"),
                 "missing required key 'methods[0].dt'"));
  CHECK(contains(error(head + "quantity: activation_time\nreference: {value: 1}\n" + methods),
                 "missing required key 'probe' (quantity activation_time: the point whose first "
                 "activation is timed"));
  CHECK(contains(error(head + "quantity: pulse_speed\nprobe: 10\nreference: {value: 1}\n" +
                       methods),
                 "s.yaml:4:8: probe: only quantity activation_time reads it"));
  CHECK(contains(error(head + "quantity: activation_time\nprobe: [1, 2, 3, 4]\n"
                              "reference: {value: 1}\n" + methods),
                 "probe: 4 coordinates; a point has at most 3 (x, y, z)"));
  CHECK(contains(error(head + "quantity: pulse_speed\nreference: {value: 1}\n"
                              "methods: [{label: e, dt: [0.1, 0.05], dx: [0.5]}]\n"),
                 "methods[0].dx: 1 grid spacings for 2 time steps; give one dx for each dt"));
  CHECK(contains(error(head + "quantity: period\nreference: {value: 1}\n" + methods),
                 "quantity: 'period' is not allowed"));
  const fhn::StudyConfig st = fhn::load_study_text(
      head + "quantity: spiral_period\nreference: {dt: 0.01, set: {scheme.type: crank_nicolson}}\n" +
          methods + "repeats: 3\ntargets: [1.0e-3]\n",
      "s.yaml");
  CHECK(st.kind == fhn::StudyKind::work_precision);
  CHECK(st.reference_dt == 0.01);
  REQUIRE(st.reference_overrides.size() == 1);
  CHECK(st.reference_overrides[0].assignment == "scheme.type=crank_nicolson");
  REQUIRE(st.methods.size() == 1);
  REQUIRE(st.methods[0].overrides.size() == 1);
  CHECK(st.methods[0].overrides[0].assignment == "scheme.type=explicit");
  CHECK(st.repeats == 3);
  // A quantity the base cannot show is refused before anything runs.
  fhn::test::TempDir dir;
  fhn::StudyOptions options;
  options.output_dir = dir / "out";
  std::ostringstream out;
  const fhn::StudyConfig on_cable = fhn::load_study_text(
      "study: work_precision\nbase: " + fhn::test::source_path("configs/fitzhugh_pulse.yaml") +
          "\nquantity: spiral_period\nreference: {value: 1}\n"
          "methods: [{label: cn, dt: [0.1]}]\n",
      (dir / "s.yaml").string());
  CHECK(contains(fhn::test::thrown_message<fhn::ConfigError>(
                     [&] { fhn::run_study(on_cable, options, out); }),
                 "s.yaml:3:11: quantity: spiral_period needs a sheet with a spiral (the base "
                 "config, " + fhn::test::source_path("configs/fitzhugh_pulse.yaml") +
                 ", is a cable; field_rmse and activation_time measure any domain)"));
  const fhn::StudyConfig on_box = fhn::load_study_text(
      "study: work_precision\nbase: " + fhn::test::source_path("configs/planar_3d.yaml") +
          "\nquantity: pulse_speed\nreference: {value: 1}\n"
          "methods: [{label: e, dt: [0.04]}]\n",
      (dir / "s.yaml").string());
  const std::string box_error = fhn::test::thrown_message<fhn::ConfigError>(
      [&] { fhn::run_study(on_box, options, out); });
  CHECK(contains(box_error, "quantity: pulse_speed needs a cable (the base config, "));
  CHECK(contains(box_error, "is a box; field_rmse and activation_time measure any domain)"));
}

TEST_CASE("study: work_precision of the field (field_rmse) on a sheet: forward Euler first order "
          "in dt, ADI second, against a reference run") {
  // A Gaussian excitation on a 41 x 41 sheet (target_2d's model, dx = 0.5) to t = 4; v at
  // t = 4 of each run against ADI at dt = 0.0125.
  const WorkPrecisionRun run = run_work_precision(
      work_precision_text("target_2d.yaml",
                          "{domain.length: [20, 20], stimulus: [], output.probes: [], "
                          "output.every: 0.4, initial.v: {type: gaussian, center: [10, 10], "
                          "width2: 10}, time.end: 4}",
                          "field_rmse", "{dt: 0.0125, set: {scheme.type: crank_nicolson}}",
                          "{label: explicit, set: {scheme.type: explicit}, dt: [0.05, 0.025]}",
                          "{label: adi, set: {scheme.type: crank_nicolson}, dt: [0.4, 0.2, 0.1]}",
                          "[1.0e-2, 1.0e-4]"));
  CHECK(contains(run.printed, "field_rmse against a run with dt = 0.0125 "
                              "(scheme.type=crank_nicolson): v at t = 4, RMS "));
  const auto& rows = run.rows;
  check_first_then_second_order(rows);  // forward Euler, then ADI
  for (const auto& row : rows) {
    // The csv's quantity is the RMSE itself, and relative_error that over the reference's RMS.
    const double error = std::stod(row.at("error"));
    CHECK(std::stod(row.at("field_rmse")) == error);
    CHECK(error > 0.0);
    CHECK(std::stod(row.at("relative_error")) > error);  // the RMS of v is below 1
  }
  CHECK(rows[1].at("steps") == "160");
  // A method on another grid is refused with the grids named, at its dx's line.
  const std::string other_grid =
      "study: work_precision\nbase: " + fhn::test::source_path("configs/target_2d.yaml") +
      "\nset: {domain.length: [20, 20], stimulus: [], output.probes: [], output.every: 0.4,"
      " time.end: 0.4}\nquantity: field_rmse\nreference: {dt: 0.05}\n"
      "methods: [{label: off, dt: [0.02], dx: [0.4]}]\n";
  CHECK(contains(fhn::test::thrown_message<fhn::ConfigError>(
                     [&] { run_work_precision(other_grid); }),
                 "work_precision: method 'off' runs on 51 x 51 = 2601 nodes, dx = 0.4, [0, 20] x "
                 "[0, 20], the reference on 41 x 41 = 1681 nodes, dx = 0.5, [0, 20] x [0, 20]; "
                 "field_rmse compares each run with the reference at the run's nodes"));
  CHECK(contains(fhn::test::thrown_message<fhn::ConfigError>(
                     [&] { run_work_precision(other_grid); }),
                 "s.yaml:6:40: work_precision: method 'off'"));
}

TEST_CASE("study: work_precision of an activation time at a point (activation_time): forward "
          "Euler first order, Crank-Nicolson second") {
  // pulse_split_cn's Gaussian impulse (a smooth start: no stimulus switching on or off) splits
  // into two pulses; the right one reaches x = 150 at t = 76.35. Frames every 0.4.
  const WorkPrecisionRun run = run_work_precision(
      work_precision_text("pulse_split_cn.yaml",
                          "{time.end: 100, output.probes: [], output.every: 0.4}\nprobe: 150",
                          "activation_time", "{dt: 0.0125}",
                          "{label: explicit, set: {scheme.type: explicit}, dt: [0.05, 0.025]}",
                          "{label: cn, dt: [0.4, 0.2, 0.1]}", "[1.0e-3, 1.0e-4]"));
  CHECK(contains(run.printed, "activation_time against a run with dt = 0.0125"));
  check_first_then_second_order(run.rows);
  for (const auto& row : run.rows)
    CHECK(std::abs(std::stod(row.at("activation_time")) - 76.35) < 0.3);
  // The point must fit the domain: its axes, and inside it.
  for (const auto& [probe, message] : std::vector<std::pair<std::string, std::string>>{
           {"[150, 10]", "probe: 2 coordinates; the base config's domain has 1 axis (expected x)"},
           {"250", "probe: 250 lies outside the domain's [0, 200] along x"}}) {
    CAPTURE(probe);
    const std::string study = work_precision_text(
        "pulse_split_cn.yaml", "{time.end: 1, output.probes: []}\nprobe: " + probe,
        "activation_time", "{dt: 0.1}", "{label: a, dt: [0.2]}", "{label: b, dt: [0.1]}",
        "[1.0e-3]");
    CHECK(contains(fhn::test::thrown_message<fhn::ConfigError>(
                       [&] { run_work_precision(study); }),
                   message));
  }
}

TEST_CASE("study: work_precision with dx paired to dt: the grid refined with the time step, "
          "the field compared at each run's nodes") {
  // pulse_split_cn's Gaussian impulse to t = 10; Crank-Nicolson with dt and dx halved together
  // and forward Euler with dt quartered as dx halves: both errors fall as dx^2 (4x a level),
  // against Crank-Nicolson at dx = 0.0625, dt = 0.0125 (its own error 1/16 of the finest run's).
  const WorkPrecisionRun run = run_work_precision(
      work_precision_text("pulse_split_cn.yaml",
                          "{time.end: 10, output.probes: [], output.every: 1}", "field_rmse",
                          "{dt: 0.0125, dx: 0.0625}",
                          "{label: cn, dt: [0.2, 0.1, 0.05], dx: [1, 0.5, 0.25]}",
                          "{label: explicit, set: {scheme.type: explicit}, dt: [0.05, 0.0125], "
                          "dx: [0.5, 0.25]}",
                          "[1.0e-2, 1.0e-3]"));
  CHECK(contains(run.printed, "against a run with dt = 0.0125, dx = 0.0625 (the base config's "
                              "scheme)"));
  CHECK(contains(run.printed, "explicit at dt = 0.0125, dx = 0.25, "));
  const auto& rows = run.rows;
  REQUIRE(rows.size() == 5);
  auto error = [&](std::size_t k) { return std::stod(rows[k].at("error")); };
  CHECK(error(0) / error(1) == doctest::Approx(4.0).epsilon(0.1));
  CHECK(error(1) / error(2) == doctest::Approx(4.0).epsilon(0.1));
  CHECK(error(3) / error(4) == doctest::Approx(4.0).epsilon(0.1));
  const std::vector<std::string> dxs{"1", "0.5", "0.25", "0.5", "0.25"};
  const std::vector<std::string> steps{"50", "100", "200", "200", "800"};
  for (std::size_t k = 0; k < rows.size(); ++k) {
    CAPTURE(k);
    CHECK(rows[k].at("dx") == dxs[k]);
    CHECK(rows[k].at("steps") == steps[k]);
  }
}
