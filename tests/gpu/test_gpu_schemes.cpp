// The CUDA schemes against the CPU: same configs, same number of steps, results equal to
// round-off (the kernels call the same node functions; only FMA contraction differs).
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>

#include "config/loader.hpp"
#include "core/cuda/device_buffer.hpp"
#include "core/error.hpp"
#include "run/run.hpp"
#include "schemes/scheme.hpp"
#include "sheet_support.hpp"
#include "support.hpp"

namespace {

using fhn::test::max_state_difference;
using fhn::test::run_scheme;
using fhn::test::SchemeRun;
using fhn::real;

fhn::Config config(const std::string& file, std::vector<std::string> overrides) {
  overrides.insert(overrides.end(), {"output.vtk=false", "output.spacetime=false"});
  return fhn::load_config(fhn::test::source_path(file), overrides);
}

class CountingLog final : public fhn::NewtonLog {
 public:
  void record(const fhn::NewtonIteration&) override { ++count; }
  long count = 0;
};

// A sheet's 1000 explicit steps on the GPU against the CPU (to 1e-10), and in uneven pieces
// (7 + 993 steps: the same bits); the GPU's final state.
fhn::Snapshot check_gpu_sheet(const std::string& yaml) {
  const SchemeRun cpu = run_scheme(fhn::test::config_from(yaml), 1000);
  const SchemeRun gpu = run_scheme(fhn::test::config_from(yaml, {"scheme.backend=cuda"}), 1000);
  CHECK(gpu.scheme->name().find("cuda") != std::string::npos);
  CHECK(max_state_difference(cpu.state, gpu.state) < 1e-10);
  SchemeRun pieces = run_scheme(fhn::test::config_from(yaml, {"scheme.backend=cuda"}), 7);
  pieces.scheme->advance(993);
  fhn::Snapshot s;
  pieces.scheme->snapshot(s);
  CHECK(max_state_difference(s, gpu.state) == 0.0);
  return gpu.state;
}

}  // namespace

TEST_CASE("GPU explicit matches the CPU after 1000 steps") {
  for (const char* file : {"configs/pulse_split.yaml", "configs/wave_train.yaml"}) {
    for (const char* order : {"1", "2"}) {
      CAPTURE(file);
      CAPTURE(order);
      const std::vector<std::string> common{std::string("boundary.no_flux_order=") + order};
      auto cpu_overrides = common;
      auto gpu_overrides = common;
      gpu_overrides.push_back("scheme.backend=cuda");
      const SchemeRun cpu = run_scheme(config(file, cpu_overrides), 1000);
      const SchemeRun gpu = run_scheme(config(file, gpu_overrides), 1000);
      CHECK(gpu.state.step == 1000);
      CHECK(max_state_difference(cpu.state, gpu.state) < 1e-10);
      CHECK(gpu.scheme->name().find("cuda") != std::string::npos);
    }
  }
}

TEST_CASE("every kinetics form: the GPU matches the CPU after 1000 steps on every scheme") {
  // Each form other than the cubic one (tested above) in the units of its literature (FitzHugh
  // rests near v = -1.2), a bump and a stimulus so that the run excites; cables and sheets, every
  // scheme the GPU runs.
  struct Form {
    const char* name;
    const char* model;
    const char* dt_cable;
    const char* dt_sheet;
  };
  const Form forms[] = {
      {"fitzhugh",
       "model: {form: fitzhugh}\n"
       "initial: {v: {type: gaussian, width2: 4, amplitude: 2.5, background: -1.2},"
       " w: {type: constant, value: -0.62}}\n",
       "0.05", "0.04"},
      // Barkley's: the stimulus drives v past 1 on the excited bump, where every scheme
      // confines it (kinetics/barkley.hpp), on both backends alike.
      {"barkley",
       "model: {form: barkley}\n"
       "initial: {v: {type: gaussian, width2: 4, amplitude: 1}, w: {type: constant, value: 0}}\n",
       "0.02", "0.0125"},
      // Aliev and Panfilov's: five parameters and a g not affine in w, added with one header
      // and one registry line; Crank-Nicolson and ADI recover w+ by Newton's iteration
      // (schemes/trapezoidal_w_point.hpp), the same function on both backends.
      {"aliev_panfilov",
       "model: {form: aliev_panfilov}\n"
       "initial: {v: {type: gaussian, width2: 4, amplitude: 1}, w: {type: constant, value: 0}}\n",
       "0.02", "0.0125"},
  };
  const char* schemes[][2] = {
      {"explicit", "scheme: {type: explicit}\n"},
      {"crank_nicolson", "scheme: {type: crank_nicolson}\n"},
      {"adi", "scheme: {type: crank_nicolson, crank_nicolson: {formulation: adi}}\n"}};
  for (const Form& form : forms)
    for (const auto& scheme : schemes)
      for (const bool sheet : {false, true}) {
        const std::string scheme_name = scheme[0];
        if (sheet && scheme_name == "crank_nicolson") continue;  // Newton runs on cables
        CAPTURE(form.name);
        CAPTURE(scheme_name);
        CAPTURE(sheet);
        const std::string yaml =
            std::string(form.model) + scheme[1] +
            (sheet ? "domain: {length: [20, 20], nodes: [41, 41]}\n"
                     "stimulus: [{x_min: 0, x_max: 2, y_min: 0, y_max: 20, start: 1, duration: 1,"
                     " amplitude: 0.5}]\n"
                   : "domain: {length: 50, nodes: 101}\n"
                     "stimulus: [{x_min: 40, x_max: 50, start: 1, duration: 1, amplitude: 0.5}]\n") +
            "time: {end: 100, dt: " + (sheet ? form.dt_sheet : form.dt_cable) + "}\n"
            "output: {vtk: false, spacetime: false}\n";
        const SchemeRun cpu = run_scheme(fhn::test::config_from(yaml), 1000);
        const SchemeRun gpu = run_scheme(fhn::test::config_from(yaml, {"scheme.backend=cuda"}), 1000);
        CHECK(gpu.scheme->name().find("cuda") != std::string::npos);
        CHECK(max_state_difference(cpu.state, gpu.state) < 1e-10);
        // The run moved: the bump left the initial state behind.
        const std::vector<double> v0 = fhn::make_problem(fhn::test::config_from(yaml)).v0;
        double moved = 0.0;
        for (std::size_t i = 0; i < v0.size(); ++i)
          moved = std::max(moved, std::abs(gpu.state.v[i] - v0[i]));
        CHECK(moved > 0.5);
      }
}

TEST_CASE("GPU explicit with stimuli matches the CPU") {
  const std::string yaml =
      "initial: {v: {type: constant, value: 0}}\n"
      "stimulus:\n"
      "  - {x_min: 0, x_max: 5, start: 1, duration: 2, amplitude: 0.5, period: 40, count: 3}\n"
      "  - {x_min: 3, x_max: 9, start: 0, duration: 1.5, amplitude: 0.25}\n"
      "time: {end: 100, dt: 0.1}\n"
      "output: {vtk: false, spacetime: false}\n";
  const SchemeRun cpu = run_scheme(fhn::test::config_from(yaml), 1000);
  const SchemeRun gpu = run_scheme(fhn::test::config_from(yaml, {"scheme.backend=cuda"}), 1000);
  CHECK(max_state_difference(cpu.state, gpu.state) < 1e-10);
  CHECK(*std::max_element(gpu.state.v.begin(), gpu.state.v.end()) > 0.5);  // a pulse was launched
}

TEST_CASE("GPU Crank-Nicolson matches the CPU after 1000 steps, for every GPU solver") {
  for (const char* solver : {"partitioned", "cyclic_reduction", "cusparse", "cusparse_pivot"}) {
    for (const char* w_update : {"trapezoidal", "leapfrog"}) {
      CAPTURE(solver);
      CAPTURE(w_update);
      const std::string w = std::string("scheme.crank_nicolson.w_update=") + w_update;
      const SchemeRun cpu = run_scheme(config("configs/pulse_split_cn.yaml", {w}), 1000);
      const SchemeRun gpu = run_scheme(config("configs/pulse_split_cn.yaml",
                                 {w, "scheme.backend=cuda",
                                  std::string("scheme.crank_nicolson.tridiagonal=") + solver}),
                          1000);
      CHECK(max_state_difference(cpu.state, gpu.state) < 1e-10);
      REQUIRE(gpu.stats != nullptr);
      CHECK(gpu.stats->steps() == 1000);
      CHECK(gpu.stats->mean_iterations() == doctest::Approx(cpu.stats->mean_iterations()).epsilon(0.02));
      CHECK(gpu.stats->convergence_order() == doctest::Approx(2.0).epsilon(0.1));
    }
  }
}

TEST_CASE("GPU Crank-Nicolson with a Dirichlet end, first-order no-flux and stimuli") {
  const std::vector<std::string> variant{"boundary.no_flux_order=1", "time.end=250"};
  auto gpu_overrides = variant;
  gpu_overrides.insert(gpu_overrides.end(), {"scheme.backend=cuda", "scheme.crank_nicolson.tridiagonal=cusparse"});
  const SchemeRun cpu = run_scheme(config("configs/wave_train_cn.yaml", variant), 1000);
  const SchemeRun gpu = run_scheme(config("configs/wave_train_cn.yaml", gpu_overrides), 1000);
  CHECK(max_state_difference(cpu.state, gpu.state) < 1e-10);
}

// The default GPU solver (partitioned) builds J and F inside its passes: on grids larger than one
// block's PCR (1024 rows) the rows come from shared-memory tiles of 1024 rows, with halo values
// of u at the tile edges, and reduced levels. 1025: one tile and one level; 70001: 69 tiles,
// two levels. Both end conditions (Dirichlet and first-order no-flux in wave_train_cn) and
// stimuli.
TEST_CASE("GPU Crank-Nicolson on grids of many partitioned-solver tiles matches the CPU") {
  for (const char* nodes : {"1025", "2049", "70001"}) {
    for (const char* file : {"configs/pulse_split_cn.yaml", "configs/wave_train_cn.yaml"}) {
      CAPTURE(nodes);
      CAPTURE(file);
      const std::vector<std::string> grid{"domain.dx=~", std::string("domain.nodes=") + nodes,
                                          "boundary.no_flux_order=1"};
      auto gpu_overrides = grid;
      gpu_overrides.insert(gpu_overrides.end(), {"scheme.backend=cuda",
                                                 "scheme.crank_nicolson.tridiagonal=partitioned"});
      const SchemeRun cpu = run_scheme(config(file, grid), 100);
      const SchemeRun gpu = run_scheme(config(file, gpu_overrides), 100);
      CHECK(max_state_difference(cpu.state, gpu.state) < 1e-10);
      CHECK(gpu.stats->mean_iterations() == doctest::Approx(cpu.stats->mean_iterations()).epsilon(0.02));
    }
  }
}

// The whole cable defers a step's w+ = p + c u to the next step's start or the end of advance():
// a run advanced a step at a time (every accept done at once) equals one advanced in a single
// call (all but the last deferred) bit for bit. Trapezoidal and leapfrog w (whose w buffers
// rotate), Barkley's form (which confines u and accepts at once), a stimulus; the fused
// partitioned path with the one-block PCR (101 nodes) and with tiles (2049), and the separate
// kernels (cyclic_reduction).
TEST_CASE("GPU Crank-Nicolson advanced in pieces equals one advance bit for bit") {
  struct Grid {
    int nodes;
    const char* solver;
  };
  for (const Grid grid : {Grid{101, "partitioned"}, Grid{2049, "partitioned"},
                          Grid{2049, "cyclic_reduction"}})
    for (const std::string form : {"cubic", "barkley"})
      for (const std::string w_update : {"trapezoidal", "leapfrog"}) {
        const int nodes = grid.nodes;
        const std::string solver = grid.solver;
        CAPTURE(nodes);
        CAPTURE(solver);
        CAPTURE(form);
        CAPTURE(w_update);
        const std::string yaml = fhn::test::cn_cable_yaml(nodes, form, w_update, solver);
        const SchemeRun whole = run_scheme(fhn::test::config_from(yaml), 300);
        SchemeRun pieces = run_scheme(fhn::test::config_from(yaml), 1);
        for (int s = 1; s < 100; ++s) pieces.scheme->advance(1);
        pieces.scheme->advance(200);
        fhn::Snapshot s;
        pieces.scheme->snapshot(s);
        CHECK(s.step == 300);
        CHECK(max_state_difference(s, whole.state) == 0.0);
        CHECK(pieces.scheme->newton_stats()->mean_iterations() == whole.stats->mean_iterations());
        // The stimulus (on from t = 1.005, inside a step) excited the cable.
        const SchemeRun unstimulated =
            run_scheme(fhn::test::config_from(yaml, {"stimulus=[]"}), 300);
        CHECK(max_state_difference(unstimulated.state, whole.state) > 0.1);
      }
}

TEST_CASE("GPU Newton log sees every iteration") {
  CountingLog cpu_log, gpu_log;
  run_scheme(config("configs/pulse_split_cn.yaml", {}), 200, &cpu_log);
  run_scheme(config("configs/pulse_split_cn.yaml", {"scheme.backend=cuda"}), 200, &gpu_log);
  CHECK(gpu_log.count == cpu_log.count);
  CHECK(gpu_log.count >= 400);
}

TEST_CASE("GPU Newton failure and loss of diagonal dominance are reported") {
  CHECK_THROWS_WITH_AS(
      run_scheme(config("configs/pulse_split_cn.yaml",
                 {"scheme.backend=cuda", "scheme.crank_nicolson.newton.max_iterations=2"}),
          5),
      doctest::Contains("Newton did not converge in step 0"), fhn::NumericalError);
  // Not dominant, with the step and its time as the CPU scheme names them.
  const std::string message = fhn::test::thrown_message<fhn::NumericalError>([] {
    run_scheme(config("configs/pulse_split_cn.yaml",
                      {"scheme.backend=cuda", "time.dt=10", "output.every=10"}),
               5);
  });
  CHECK(fhn::test::contains(message, "not diagonally dominant at row "));
  CHECK(fhn::test::contains(message, " in step 0 (t = 0 -> 10): the GPU solvers do not pivot"));
}

TEST_CASE("GPU NaN watch finds the first bad node") {
  const SchemeRun gpu = run_scheme(fhn::test::config_from("initial: {v: {type: constant, value: 100}}\n"
                                             "output: {vtk: false, spacetime: false}\n",
                                             {"scheme.backend=cuda"}),
                      20);
  CHECK(gpu.scheme->first_non_finite() == 0);
}

TEST_CASE("fhn run with scheme.backend: cuda writes the usual output") {
  fhn::test::TempDir dir;
  for (const char* file : {"configs/pulse_split.yaml", "configs/pulse_split_cn.yaml"}) {
    CAPTURE(file);
    const auto r = fhn::test::run_cli({"run", fhn::test::source_path(file), "--quiet", "--output",
                                       (dir / "out").string(), "--set", "scheme.backend=cuda",
                                       "--set", "time.end=20", "--set", "output.vtk=false", "--set",
                                       "output.spacetime=false"});
    CHECK(r.code == 0);
    CHECK(r.err.empty());
    const std::string summary = fhn::test::read_text(dir / "out" / "summary.json");
    CHECK(summary.find("\"backend\": \"cuda\"") != std::string::npos);
    CHECK(summary.find("\"frames\": 21") != std::string::npos);
  }
}

TEST_CASE("a GPU run's step_seconds covers the work of its steps, not only their launch") {
  // 2^22 + 1 nodes, 200 explicit steps: at least 200/16 passes over v and w (32 B per node each),
  // which take at least that many bytes over this device's copy bandwidth, measured here.
  const std::size_t n = (std::size_t{1} << 22) + 1;
  fhn::cuda::DeviceBuffer<double> a(2 * n, "copy from"), b(2 * n, "copy to");
  cudaEvent_t start, stop;
  REQUIRE(cudaEventCreate(&start) == cudaSuccess);
  REQUIRE(cudaEventCreate(&stop) == cudaSuccess);
  float best_ms = 1e30f;
  for (int r = 0; r < 5; ++r) {
    cudaEventRecord(start);
    cudaMemcpy(b.data(), a.data(), 2 * n * sizeof(double), cudaMemcpyDeviceToDevice);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0.0f;
    cudaEventElapsedTime(&ms, start, stop);
    best_ms = std::min(best_ms, ms);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  const double copy_bytes_per_s = 2.0 * 2.0 * static_cast<double>(n) * sizeof(double) / (1e-3 * best_ms);
  fhn::test::TempDir dir;
  const auto r = fhn::test::run_cli({"run", fhn::test::source_path("configs/pulse_split.yaml"), "--quiet",
                                     "--output", (dir / "out").string(), "--set", "scheme.backend=cuda",
                                     "--set", "domain.nodes=4194305", "--set", "time.dt=1e-9",
                                     "--set", "time.end=2e-7", "--set", "output.every=2e-7",
                                     "--set", "output.vtk=false", "--set", "output.spacetime=false",
                                     "--set", "output.probes=[]"});
  REQUIRE(r.code == 0);
  const std::string summary = fhn::test::read_text(dir / "out" / "summary.json");
  const std::size_t at = summary.find("\"step_seconds\": ");
  REQUIRE(at != std::string::npos);
  const double step_seconds = std::stod(summary.substr(at + 16));
  const double floor = (200.0 / 16.0) * 32.0 * static_cast<double>(n) / copy_bytes_per_s;
  MESSAGE("step_seconds " << step_seconds << " s, byte floor " << floor << " s");
  CHECK(step_seconds >= floor);
}

TEST_CASE("GPU restart continues bit for bit (explicit, Crank-Nicolson leapfrog)") {
  for (const char* scheme : {"explicit", "crank_nicolson"}) {
    CAPTURE(scheme);
    fhn::test::TempDir dir;
    const std::vector<std::string> common{std::string("scheme.type=") + scheme, "scheme.backend=cuda",
                                          "scheme.crank_nicolson.w_update=leapfrog", "output.vtk=false",
                                          "output.spacetime=false", "output.checkpoint_every=5",
                                          "output.every=1"};
    auto full = common;
    full.push_back("time.end=20");
    auto first = common;
    first.push_back("time.end=13");
    auto config = [&](const std::vector<std::string>& overrides) {
      return fhn::load_config(fhn::test::source_path("configs/pulse_split.yaml"), overrides);
    };
    fhn::RunOptions options;
    options.quiet = true;
    options.output_dir = dir / "a";
    fhn::run_simulation(config(full), options);
    options.output_dir = dir / "b";
    fhn::run_simulation(config(first), options);
    options.restart = dir / "b" / "checkpoints" / "pulse_split_0000000100.chk";
    REQUIRE(std::filesystem::exists(options.restart));
    fhn::run_simulation(config(full), options);
    CHECK(fhn::test::read_text(dir / "a" / "probes.csv") == fhn::test::read_text(dir / "b" / "probes.csv"));
  }
}

TEST_CASE("GPU out of memory names the bytes asked and free") {
  CHECK_THROWS_WITH_AS(fhn::cuda::DeviceBuffer<double>(std::size_t{1} << 42, "a test array"),
                       doctest::Contains("out of device memory allocating a test array: 35184372088832 bytes asked"),
                       fhn::DeviceError);
}

TEST_CASE("a tissue mask: the GPU's explicit sheet matches the CPU after 1000 steps") {
  // A disc and a triangle removed, a Dirichlet side, a stimulus across the disc's edge: the
  // masked expressions of node_updates.hpp on both backends (tests/unit/test_tissue.cpp checks
  // them against the smaller domain and for conservation).
  const std::string yaml =
      "domain: {length: [30, 20], dx: 0.5}\n"
      "boundary: {left: {type: dirichlet, value: 0.3}}\n"
      "tissue:\n"
      "  - {shape: disc, center: [15, 10], radius: 4}\n"
      "  - {shape: polygon, points: [[24, 0], [30, 0], [30, 8]]}\n"
      "initial: {v: {type: rectangle, x_min: 0, x_max: 3, value: 1}}\n"
      "stimulus: [{x_min: 10, x_max: 14, y_min: 0, y_max: 20, start: 20, duration: 2, amplitude: 0.5}]\n"
      "time: {end: 100, dt: 0.05}\n"
      "output: {vtk: false, probes: []}\n";
  check_gpu_sheet(yaml);
}

TEST_CASE("fields and anisotropy: the GPU's explicit sheet matches the CPU after 1000 steps") {
  // The heterogeneous node update (schemes/node_updates.hpp) on both backends: per-node D with a
  // scar of D = 0 and a blended region, a kinetics parameter varying along x, an obstacle, a
  // Dirichlet side and a stimulus; then anisotropy at a constant angle and with a fibre-angle
  // field, on a masked sheet. Both GPU runs also split into uneven pieces: the same bits.
  const std::string common =
      "domain: {length: [30, 20], dx: 0.5}\n"
      "boundary: {left: {type: dirichlet, value: 0.3}}\n"
      "tissue: [{shape: disc, center: [15, 10], radius: 3}]\n"
      "initial: {v: {type: rectangle, x_min: 0, x_max: 3, value: 1}}\n"
      "stimulus: [{x_min: 9, x_max: 13, y_min: 0, y_max: 20, start: 20, duration: 2, "
      "amplitude: 0.5}]\n"
      "time: {end: 100, dt: 0.02}\n"
      "output: {vtk: false, probes: []}\n";
  const std::vector<std::string> media = {
      "fields:\n"
      "  - {parameter: diffusion, shape: polygon, points: [[20, 12], [26, 12], [23, 19]], value: 0}\n"
      "  - {parameter: diffusion, shape: disc, center: [8, 5], radius: 3, value: 2.5, edge: 2}\n"
      "  - {parameter: a, type: gradient, axis: x, from: 0.02, to: 0.2}\n",
      "anisotropy: {longitudinal: 2.0, transverse: 0.4, angle: 30}\n",
      "anisotropy: {longitudinal: 2.0, transverse: 0.4, angle: 30}\n"
      "fields: [{parameter: fibre_angle, type: gradient, axis: y, from: -60, to: 80}]\n"};
  for (const std::string& medium : media) {
    CAPTURE(medium);
    const fhn::Snapshot gpu = check_gpu_sheet(common + medium);
    // The wave went somewhere: v excited beyond x = 6, away from the initial strip.
    real largest = 0.0;
    for (std::size_t node = 0; node < gpu.v.size(); ++node)
      if (node % 61 > 12) largest = std::max(largest, gpu.v[node]);
    CHECK(largest > 0.5);
  }
}

TEST_CASE("Aliev-Panfilov with its fifth parameter per node: GPU explicit and ADI match the CPU") {
  // The per-node parameter arrays are as many as the registry's largest form has (five): mu2,
  // the fifth, and a vary over the sheet, read by the heterogeneous explicit update and by ADI's
  // reaction kernels (kinetics_at), on an obstacle's sheet.
  const std::string yaml =
      "model: {form: aliev_panfilov}\n"
      "domain: {length: [30, 20], dx: 0.5}\n"
      "tissue: [{shape: disc, center: [15, 10], radius: 3}]\n"
      "fields:\n"
      "  - {parameter: mu2, type: gradient, axis: x, from: 0.2, to: 0.4}\n"
      "  - {parameter: a, type: gradient, axis: y, from: 0.1, to: 0.2}\n"
      "initial: {v: {type: rectangle, x_min: 0, x_max: 3, value: 1}}\n"
      "time: {end: 100, dt: 0.02}\n"
      "output: {vtk: false, probes: []}\n";
  const fhn::Snapshot gpu = check_gpu_sheet(yaml + "scheme: {type: explicit}\n");
  real largest = 0.0;  // the wave went beyond x = 6
  for (std::size_t node = 0; node < gpu.v.size(); ++node)
    if (node % 61 > 12) largest = std::max(largest, gpu.v[node]);
  CHECK(largest > 0.5);
  const std::string adi = yaml + "scheme: {type: crank_nicolson, crank_nicolson: {formulation: adi}}\n";
  const SchemeRun cpu = run_scheme(fhn::test::config_from(adi), 1000);
  const SchemeRun gpu_adi = run_scheme(fhn::test::config_from(adi, {"scheme.backend=cuda"}), 1000);
  CHECK(gpu_adi.scheme->name().find("cuda") != std::string::npos);
  CHECK(max_state_difference(cpu.state, gpu_adi.state) < 1e-10);
}

TEST_CASE("a box: the GPU's explicit step equals the CPU's bit for bit after 1000 steps") {
  // 33 x 21 x 19 nodes (not multiples of the kernel's 32 x 8 x 16 tiles), Dirichlet faces on two
  // axes, an S1 slab, a stimulus block inside, the FitzHugh form too: the box node updates of
  // node_updates.hpp on both backends, without FMA contraction on the GPU.
  for (const char* form : {"cubic", "fitzhugh"}) {
    CAPTURE(std::string(form));
    const std::string yaml = fhn::test::box_yaml(form, "{type: explicit}");
    const SchemeRun cpu = run_scheme(fhn::test::config_from(yaml), 1000);
    const SchemeRun gpu = run_scheme(fhn::test::config_from(yaml, {"scheme.backend=cuda"}), 1000);
    CHECK(gpu.scheme->name().find("box (cuda") != std::string::npos);
    CHECK(max_state_difference(cpu.state, gpu.state) == 0.0);
    // Not a trivial state: a wave (cubic) or the excursion from the start (FitzHugh) under way.
    const auto [lo, hi] = std::minmax_element(cpu.state.v.begin(), cpu.state.v.end());
    CHECK(*hi - *lo > 0.5);
  }
}
