#include "run/run.hpp"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <memory>
#include <optional>

#include "config/loader.hpp"
#include "config/names.hpp"
#include "core/build_info.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "io/atomic_file.hpp"
#include "io/grid_csv.hpp"
#include "io/json.hpp"
#include "io/newton_csv.hpp"
#include "io/probes_csv.hpp"
#include "io/resampled_sink.hpp"
#include "io/vtk_writers.hpp"
#include "model/problem.hpp"
#include "run/progress.hpp"
#include "run/time_loop.hpp"
#include "schemes/scheme.hpp"
#include "study/front_tracker.hpp"

namespace fs = std::filesystem;

namespace fhn {
namespace {

// run.log: what ran, with which build, and how long it took. Flushed line by line.
class RunLog {
 public:
  explicit RunLog(const fs::path& file) : path_(file), out_(file) {
    if (!out_) throw IoError(file.string() + ": cannot create (" + std::strerror(errno) + ")");
  }
  void line(const std::string& text) {
    out_ << text << '\n';
    out_.flush();
    if (!out_) throw IoError(path_.string() + ": write failed (" + std::strerror(errno) + ")");
  }

 private:
  fs::path path_;
  std::ofstream out_;
};

// Creates the folder and proves it is writable before any step is taken. Frames left by an
// earlier run of the same name are removed so the folder describes this run only.
void prepare_output_dir(const fs::path& dir, const std::string& name) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir))
    throw IoError(dir.string() + ": cannot create the output folder (" +
                  (ec ? ec.message() : std::string("a file of that name exists")) + ")");
  const fs::path frames = dir / "frames";
  if (fs::is_directory(frames)) {
    for (const auto& entry : fs::directory_iterator(frames, ec)) {
      const std::string file = entry.path().filename().string();
      if (file.rfind(name + "_", 0) == 0 && entry.path().extension() == ".vtu")
        fs::remove(entry.path(), ec);
    }
  }
}

std::string instability_hint(const Config& c) {
  if (c.scheme.type == SchemeType::crank_nicolson)
    return "time.dt = " + format_exact(c.time.dt) +
           " may be too large for Newton to track the solution; try a smaller time.dt";
  // The odd-even mode grows by |1 - dt (4 D / dx^2 - f'(v))| per step, and f'(v) reaches
  // -(1 - a) where v = 1 (excited regions): stability there needs dt <= 2 / (4 D/dx^2 + 1 - a).
  const real h2 = c.domain.dx * c.domain.dx;
  const real diffusion_limit = h2 / (2.0 * c.model.diffusion);
  const real excited_limit = 2.0 / (4.0 * c.model.diffusion / h2 + 1.0 - c.model.a);
  return "time.dt = " + format_exact(c.time.dt) +
         " may be too large: forward Euler needs dt <= dx^2/(2 D) = " + format_exact(diffusion_limit) +
         " for diffusion alone, and dt <= 2/(4 D/dx^2 + 1 - a) = " + format_exact(excited_limit) +
         " where v is near 1 (the reaction term's slope f'(1) = a - 1); try a smaller time.dt";
}

JsonObject make_summary(const Config& c, const Scheme& scheme, const std::string& status,
                        const LoopResult& loop, double wall_seconds,
                        const std::optional<FrontSpeed>& front) {
  JsonObject s;
  s.add("name", c.name)
      .add("status", status)
      .add("scheme", name_of(scheme_type_names(), c.scheme.type))
      .add("backend", name_of(backend_names(), c.scheme.backend))
      .add("description", scheme.name())
      .add("nodes", c.domain.nodes)
      .add("dx", c.domain.dx)
      .add("dt", c.time.dt)
      .add("steps", loop.steps)
      .add("t_end", loop.last.t)
      .add("frames", loop.frames)
      .add("wall_seconds", wall_seconds)
      .add("step_seconds", loop.step_seconds);
  // Node-steps actually computed: the moving grid's own count, else steps x nodes.
  const GridStats* grid = scheme.grid_stats();
  const real node_steps = grid ? grid->node_steps()
                               : static_cast<real>(loop.steps) * static_cast<real>(c.domain.nodes);
  if (node_steps > 0)
    s.add("ns_per_node_step", 1e9 * loop.step_seconds / node_steps);
  else
    s.add_null("ns_per_node_step");
  real max_v = -std::numeric_limits<real>::infinity();
  for (real v : loop.last.v) max_v = std::max(max_v, v);
  s.add("final_max_v", max_v);
  if (const NewtonStats* newton = scheme.newton_stats()) {
    JsonObject n;
    n.add("mean_iterations", newton->mean_iterations())
        .add("max_iterations", newton->max_iterations())
        .add("steps", newton->steps())
        .add("tolerance", c.scheme.crank_nicolson.newton.tolerance);
    if (newton->order_samples() > 0)
      n.add("convergence_order", newton->convergence_order()).add("order_samples", newton->order_samples());
    else
      n.add_null("convergence_order");
    s.add("newton", n);
  }
  if (grid) {
    const auto base = static_cast<real>(grid->base_nodes());
    JsonObject g;
    g.add("base_nodes", grid->base_nodes())
        .add("mean_nodes", grid->mean_nodes())
        .add("max_nodes", grid->max_nodes())
        .add("mean_ratio", grid->mean_nodes() / base)
        .add("max_ratio", static_cast<real>(grid->max_nodes()) / base)
        .add("regrids", static_cast<index_t>(grid->regrids().size()));
    s.add("grid", g);
  }
  if (front) {
    JsonObject f;
    f.add("speed", front->speed)
        .add("direction", front->direction > 0 ? "right" : "left")
        .add("t_from", front->t_from)
        .add("t_to", front->t_to)
        .add("samples", front->samples)
        .add("threshold", 0.5);
    s.add("pulse_speed", front->speed).add("pulse_speed_fit", f);
  } else {
    s.add_null("pulse_speed");
  }
  return s;
}

}  // namespace

fs::path default_output_dir(const Config& config) { return fs::path("output") / config.name; }

RunSummary run_simulation(const Config& c, const RunOptions& options) {
  using Clock = std::chrono::steady_clock;
  const auto started = Clock::now();

  // 1. Output folder, proven writable before the first step.
  const fs::path dir = options.output_dir.empty() ? default_output_dir(c) : options.output_dir;
  prepare_output_dir(dir, c.name);
  RunLog log(dir / "run.log");
  write_file_atomically(dir / "config.yaml", to_yaml(c));

  // 2. The problem and the scheme.
  std::unique_ptr<NewtonCsvWriter> newton_log;
  if (c.output.newton_log) newton_log = std::make_unique<NewtonCsvWriter>(dir / "newton.csv");
  const Problem problem = make_problem(c);
  std::unique_ptr<Scheme> scheme = make_scheme(c, problem, newton_log.get());
  log.line(std::string("fhnsim ") + version() + " (" + git_revision() + ", " + build_type() +
           ", " + compiler() + ", CUDA " + (cuda_compiled() ? "on" : "off") + ", VTK " +
           (vtk_compiled() ? "on" : "off") + ")");
  log.line("config: " + c.source + " (resolved copy: config.yaml)");
  log.line("scheme: " + scheme->name() + ", device: host CPU");
  log.line("grid: " + std::to_string(c.domain.nodes) + " nodes, dx = " + format_exact(c.domain.dx) +
           ", length = " + format_exact(c.domain.length) +
           (scheme->grid_stats() ? " (the base grid; the adaptive grid is a subset, see grid.csv)"
                                 : ""));
  log.line("time: dt = " + format_exact(c.time.dt) + ", end = " + format_exact(c.time.end) + ", " +
           std::to_string(c.time.steps) + " steps, a frame every " +
           std::to_string(c.output.every_steps) + " steps");

  // 3. Writers, in the order they see each frame.
  std::vector<std::unique_ptr<FrameSink>> owned;
  if (c.output.vtk) owned.push_back(make_vtk_series_writer(dir, c.name, c.output.precision));
  if (c.output.spacetime) {
    std::unique_ptr<FrameSink> spacetime = make_spacetime_writer(dir / "spacetime.vti", 4096);
    // Its columns come from the first frame: a moving grid's frames go to it on the base grid.
    if (scheme->grid_stats()) spacetime = make_resampling_sink(std::move(spacetime), problem.x);
    owned.push_back(std::move(spacetime));
  }
  if (!c.output.probes.empty()) owned.push_back(make_probe_writer(dir / "probes.csv", c.output.probes));
  if (const GridStats* grid = scheme->grid_stats())
    owned.push_back(make_grid_writer(dir / "grid.csv", *grid));
  auto tracker = std::make_unique<FrontTracker>(c.domain.length);
  std::vector<FrameSink*> sinks;
  for (auto& sink : owned) sinks.push_back(sink.get());
  sinks.push_back(tracker.get());
  if (newton_log) sinks.push_back(newton_log.get());

  // 4. The time loop; whatever happens, the writers close their files and summary.json says how
  // the run ended.
  LoopSettings settings;
  settings.total_steps = c.time.steps;
  settings.frame_every = c.output.every_steps;
  settings.dt = c.time.dt;
  settings.instability_hint = instability_hint(c);
  Progress progress(c.time.steps, c.time.dt, !options.quiet);
  LoopResult loop;
  std::string status = "ok";
  try {
    run_time_loop(*scheme, settings, sinks, progress, loop);
  } catch (const Error& e) {
    status = e.code() == ExitCode::numerical ? "numerical_failure" : "error";
    log.line(std::string("stopped: ") + e.what());
    for (FrameSink* sink : sinks) sink->finish();
    write_file_atomically(dir / "summary.json",
                          make_summary(c, *scheme, status, loop,
                                       std::chrono::duration<double>(Clock::now() - started).count(),
                                       std::nullopt)
                                  .str(2) +
                              "\n");
    throw;
  }
  for (FrameSink* sink : sinks) sink->finish();

  // 5. Summary.
  RunSummary summary;
  summary.output_dir = dir;
  summary.steps = loop.steps;
  summary.frames = loop.frames;
  summary.wall_seconds = std::chrono::duration<double>(Clock::now() - started).count();
  write_file_atomically(dir / "summary.json",
                        make_summary(c, *scheme, status, loop, summary.wall_seconds,
                                     tracker->speed())
                                .str(2) +
                            "\n");
  log.line("done: " + std::to_string(loop.steps) + " steps, " + std::to_string(loop.frames) +
           " frames, " + format_exact(summary.wall_seconds) + " s wall, " +
           format_exact(loop.step_seconds) + " s stepping");
  if (const GridStats* grid = scheme->grid_stats())
    log.line("adaptive grid: " + format_exact(grid->mean_nodes()) + " nodes on average, at most " +
             std::to_string(grid->max_nodes()) + ", of " + std::to_string(grid->base_nodes()) +
             " base nodes");
  return summary;
}

}  // namespace fhn
