#include "run/run.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
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
#include "core/interrupt.hpp"
#include "io/atomic_file.hpp"
#include "io/csv_resume.hpp"
#include "io/grid_csv.hpp"
#include "io/json.hpp"
#include "io/newton_csv.hpp"
#include "io/output_folder.hpp"
#include "io/probes_csv.hpp"
#include "io/run_log.hpp"
#include "io/vtk_writers.hpp"
#include "model/problem.hpp"
#include "model/stability.hpp"
#include "run/checkpoint.hpp"
#include "run/memory_estimate.hpp"
#include "run/progress.hpp"
#include "run/restart.hpp"
#include "run/run_loop.hpp"
#include "schemes/distributed_scheme.hpp"
#include "schemes/scheme.hpp"
#include "study/activation.hpp"
#include "study/front_tracker.hpp"
#include "study/filaments.hpp"
#include "study/probes.hpp"
#include "study/pseudo_ecg.hpp"
#include "study/restitution.hpp"
#include "study/spiral_tips.hpp"

namespace fs = std::filesystem;

namespace fhn {
namespace {

// Unless a restart continues them, frames left by an earlier run of the same name are removed
// so the folder describes this run only.
void prepare_output_dir(const fs::path& dir, const std::string& name, bool clean_frames) {
  std::error_code ec;
  const fs::path frames = dir / "frames";
  if (clean_frames && fs::is_directory(frames)) {
    for (const auto& entry : fs::directory_iterator(frames, ec)) {
      const std::string file = entry.path().filename().string();
      const auto ext = entry.path().extension();
      if (file.rfind(name + "_", 0) == 0 && (ext == ".vtu" || ext == ".vti"))
        fs::remove(entry.path(), ec);
    }
  }
}

// What a run of `c` writes in its output folder: files, and folders (ending in '/') whose
// contents are all its own. checkpoints/ is claimed always: an interrupt writes one.
std::vector<std::string> run_outputs(const Config& c) {
  std::vector<std::string> outputs{"config.yaml", "run.log", "summary.json", "checkpoints/"};
  if (c.output.vtk) outputs.insert(outputs.end(), {c.name + ".pvd", "frames/"});
  if (c.output.vtk && c.output.filaments.enabled) outputs.push_back(c.name + "_filaments.pvd");
  if (c.output.spacetime) outputs.push_back("spacetime.vti");
  if (!c.output.probes.empty()) outputs.push_back("probes.csv");
  if (c.output.restitution.enabled) outputs.insert(outputs.end(), {"restitution.csv", "cv.csv"});
  if (c.output.ecg.enabled()) outputs.push_back("ecg.csv");
  if (c.scheme.type == SchemeType::adaptive_explicit) outputs.push_back("grid.csv");
  if (c.output.activation.enabled) outputs.push_back("activation.vti");
  if (c.output.tips.enabled) outputs.push_back("tips.csv");
  if (c.output.filaments.enabled) outputs.push_back("filaments.csv");
  if (c.output.newton_log) outputs.push_back("newton.csv");
  return outputs;
}

// Checks at every frame that the output folder is still there: a file a writer keeps open
// survives the folder's removal (writes then go nowhere), so the loss must be looked for.
class OutputFolderWatch final : public FrameSink {
 public:
  explicit OutputFolderWatch(fs::path dir) : dir_(std::move(dir)) {}
  void write(const FrameView&) override {
    std::error_code ec;
    if (!fs::is_directory(dir_, ec))
      throw IoError(dir_.string() + ": the output folder disappeared during the run; the results "
                                    "written so far went with it");
  }

 private:
  fs::path dir_;
};

// Writes checkpoints of the running scheme and keeps the two most recent.
class CheckpointWriter {
 public:
  CheckpointWriter(fs::path dir, const Config& c, std::vector<InputDigest> inputs,
                   const Scheme& scheme, const std::vector<FrameSink*>& sinks)
      : dir_(std::move(dir)),
        config_(c),
        scheme_(scheme),
        sinks_(sinks),
        digest_(config_digest(c)),
        inputs_(std::move(inputs)) {}

  void write() {
    Checkpoint checkpoint;
    checkpoint.digest = digest_;
    checkpoint.inputs = inputs_;
    checkpoint.scheme = scheme_.name();
    checkpoint.state = scheme_.save_state();
    for (FrameSink* sink : sinks_) sink->save(checkpoint.state);
    checkpoint.dt = config_.time.dt;
    checkpoint.t = config_.time.grid().t(checkpoint.state.step);
    const fs::path file = checkpoint_path(dir_, config_.name, checkpoint.state.step);
    write_checkpoint(file, checkpoint);
    if (written_.empty() || written_.back() != file) written_.push_back(file);
    while (written_.size() > 2) {
      std::error_code ec;
      fs::remove(written_.front(), ec);
      written_.erase(written_.begin());
    }
  }
  fs::path last() const { return written_.empty() ? fs::path("(none)") : written_.back(); }

 private:
  fs::path dir_;
  const Config& config_;
  const Scheme& scheme_;
  const std::vector<FrameSink*>& sinks_;
  std::string digest_;
  std::vector<InputDigest> inputs_;
  std::vector<fs::path> written_;
};

std::string instability_hint(const Config& c, const Problem& problem) {
  if (c.scheme.type == SchemeType::crank_nicolson)
    return "time.dt = " + format_exact(c.time.dt) +
           " may be too large for Newton to track the solution; try a smaller time.dt";
  const ExplicitLimit limit =
      explicit_limit(problem.model, problem.boundary, problem.domain, problem.fields);
  return "time.dt = " + format_exact(c.time.dt) + " may be too large: " + limit.explain() +
         "; try a smaller time.dt";
}

// Says in run.log and on stderr how much the frames of this run will take (before compression:
// an upper bound), with the activation map of a sheet or a box (float64 at every node: the first
// activation times, the conduction velocity and, with `last`, the last times), and warns before
// the first step when that exceeds the free disk space.
void announce_output_size(const Config& c, const fs::path& dir, index_t resume_step, RunLog& log,
                          bool quiet) {
  if (!c.output.vtk) return;
  const index_t frames = c.output.frames_in(c.time.steps) - c.output.frames_before(resume_step);
  // Nodes kept per frame, and bytes per node: v, w (and a cable's points and line cells).
  index_t kept = 1;
  for (int a = 0; a < c.domain.dims; ++a) kept *= (c.domain.nodes[a] - 1) / c.output.stride + 1;
  const real value = c.output.precision == Precision::float64 ? 8.0 : 4.0;
  const real per_node = c.domain.dims >= 2 ? 2.0 * value : 5.0 * value + 25.0;
  const real per_frame = static_cast<real>(kept) * per_node;
  const real maps = c.output.activation.enabled
                        ? (c.output.activation.last ? 3.0 : 2.0) * 8.0 *
                              static_cast<real>(c.domain.node_count())
                        : 0.0;
  const real total = per_frame * static_cast<real>(frames) + maps;
  const std::string line = "output: " + std::to_string(frames) + " frames x " +
                           human_bytes(per_frame) +
                           (maps > 0.0 ? " + activation.vti " + human_bytes(maps) : "") + " = " +
                           human_bytes(total) + " at most (before compression) in " + dir.string();
  log.line(line);
  if (!quiet) std::fprintf(stderr, "fhn: %s\n", line.c_str());
  std::error_code ec;
  const fs::space_info space = fs::space(dir, ec);
  if (!ec && total > static_cast<real>(space.available)) {
    const std::string warning = "warning: the frames may not fit: " + human_bytes(total) +
                                " against " + human_bytes(static_cast<real>(space.available)) +
                                " free; raise output.every, set output.stride or output.precision: "
                                "float32, or free disk space";
    log.line(warning);
    std::fprintf(stderr, "fhn: %s\n", warning.c_str());
  }
}

// Where this process's part of the run began: a restart continues a run from a checkpoint, and
// summary.json reports the whole run, with this segment apart.
struct Segment {
  fs::path checkpoint;  // empty: a fresh run, the whole of it
  index_t step = 0;     // the checkpoint's step
  index_t frames = 0;   // frames written before it
};

JsonObject make_summary(const Config& c, const Scheme& scheme, const std::string& status,
                        const RunLoopResult& loop, double wall_seconds,
                        const std::optional<FrontSpeed>& front, const TipTracker* tips,
                        const FilamentTracker* filaments, const PseudoEcg* ecg,
                        const RestitutionTracker* restitution,
                        const Segment& segment) {
  JsonObject s;
  s.add("name", c.name)
      .add("status", status)
      .add("scheme", name_of(scheme_type_names(), c.scheme.type))
      .add("backend", name_of(backend_names(), c.scheme.backend))
      .add("description", scheme.name())
      .add("dims", static_cast<index_t>(c.domain.dims))
      .add("nodes", c.domain.node_count())
      .add("dx", c.domain.dx)
      .add("dt", c.time.dt)
      .add("steps", segment.step + loop.steps)
      .add("t_end", loop.last.t)
      .add("frames", segment.frames + loop.frames)
      .add("wall_seconds", wall_seconds)
      .add("step_seconds", loop.step_seconds);
  // Node-steps actually computed: the moving grid's own count, else steps x nodes.
  const GridStats* grid = scheme.grid_stats();
  const real node_steps = grid ? grid->node_steps()
                               : static_cast<real>(loop.steps) * static_cast<real>(c.domain.node_count());
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
        .add("threshold", c.output.activation.threshold);
    s.add("pulse_speed", front->speed).add("pulse_speed_fit", f);
  } else if (c.domain.dims == 1) {
    s.add_null("pulse_speed");
  }
  if (tips) tips->add_summary(s);
  if (filaments) filaments->add_summary(s);
  if (ecg) ecg->add_summary(s, c.output.ecg.every);
  if (restitution) restitution->add_summary(s);
  if (!segment.checkpoint.empty()) {  // the timings above are this segment's too
    JsonObject part;
    part.add("restarted_from", segment.checkpoint.string())
        .add("t_from", c.time.grid().t(segment.step))
        .add("steps", loop.steps)
        .add("frames", loop.frames)
        .add("wall_seconds", wall_seconds)
        .add("step_seconds", loop.step_seconds);
    s.add("segment", part);
  }
  return s;
}

// The loop's cadence, the same on every rank.
RunLoopSettings loop_settings(const Config& c, const Problem& problem, index_t resume_step) {
  RunLoopSettings settings;
  settings.time = c.time.grid();
  settings.frame_every = c.output.every_steps;
  settings.probes.every = c.output.probes_every_steps;
  settings.tips.every = c.output.tips.every_steps;
  settings.filaments.every = c.output.filaments.every_steps;
  settings.instability_hint = instability_hint(c, problem);
  settings.first_frame_index = c.output.frames_before(resume_step);
  settings.checkpoint_every = c.output.checkpoint_every_steps;
  settings.ecg_every = c.output.ecg.every_steps;
  return settings;
}

// activation.vti's times, taken by the scheme at every step (before a restart restores them).
void record_activation(const Config& c, Scheme& scheme) {
  try {
    scheme.record_activation(c.output.activation.threshold, c.output.activation.last);
  } catch (const ConfigError& e) {
    throw ConfigError(c.where(e.key()) + ": " + e.what());
  }
}

// A rank other than the root of a distributed run: the same scheme calls and the same loop as
// the root's, in the same order (they are collective), without writers: the root gathers and
// writes everything, checkpoints included.
RunSummary run_worker(const Config& c, const RunOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  Communicator& comm = *options.comm;
  const Problem problem = make_problem(c);
  DistributedScheme scheme(problem.domain, comm, make_slab_scheme(c, problem, comm));
  if (c.output.activation.enabled) record_activation(c, scheme);
  if (!options.restart.empty()) scheme.restore_state(SchemeState{});
  RunLoopSettings settings = loop_settings(c, problem, scheme.steps_done());
  settings.checkpoint = [&scheme] { scheme.save_state(); };
  ProbeSampler probes(problem.domain, c.output.probes, problem.fields.outside_mask());
  if (!c.output.probes.empty()) settings.probes.take = [&](index_t) { probes.read(scheme); };
  // The root's tips' and filaments' collectives: the scheme's snapshot for the squares, the
  // watched points.
  ProbeSampler watch(problem.domain, c.output.tips.enabled ? c.output.probes : std::vector<Point>{},
                     problem.fields.outside_mask());
  if (c.output.tips.enabled)
    settings.tips.take = [&](index_t) {
      std::vector<IsoCell> cells;
      index_t excited = 0;
      scheme.iso_cells(c.output.tips.v_iso, c.output.tips.w_iso, nullptr, nullptr, cells, excited);
      watch.read(scheme);
    };
  if (c.output.filaments.enabled)
    settings.filaments.take = [&](index_t) {
      std::vector<IsoCell> faces;
      index_t excited = 0;
      scheme.iso_cells(c.output.filaments.v_iso, c.output.filaments.w_iso, nullptr, nullptr, faces,
                       excited);
    };
  const InterruptGuard interrupt;
  settings.interrupted = interrupt.flag();
  settings.comm = &comm;
  Progress progress(c.time.grid(), false);
  RunLoopResult loop;
  advance_run(scheme, settings, {}, progress, loop);
  RunSummary summary;  // the whole run's counts, as the root's
  summary.steps = settings.time.steps;
  summary.frames = settings.first_frame_index + loop.frames;
  summary.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return summary;
}

}  // namespace

fs::path default_output_dir(const Config& config) { return fs::path("output") / config.name; }

RunSummary run_simulation(const Config& c, const RunOptions& options) {
  const bool distributed = options.comm && options.comm->size() > 1;
  // A run this machine cannot hold is refused before anything is allocated or written.
  check_run_fits(c, distributed ? options.comm->size() : 1,
                 distributed ? options.comm->local_size() : 1,
                 !distributed || options.comm->root());
  if (distributed && !options.comm->root()) return run_worker(c, options);
  using Clock = std::chrono::steady_clock;
  const auto started = Clock::now();
  const bool restart = !options.restart.empty();

  // 1. A restart's checkpoint, checked against this config and its input files (the digests of
  // their bytes, which the run's checkpoints record) before anything is touched.
  const std::vector<InputDigest> inputs = input_digests(c);
  Checkpoint checkpoint;
  if (restart) {
    checkpoint = read_checkpoint(options.restart, checkpoint_payload_limit(c));
    const std::string digest = config_digest(c);
    if (checkpoint.digest != digest)
      throw ConfigError(options.restart.string() + ": written by a run with a different configuration "
                        "(digest " + checkpoint.digest + ", this config " + digest +
                        "); a restart may change only name, time.end and output.*");
    check_input_digests(checkpoint, inputs, options.restart);
    if (checkpoint.state.step >= c.time.steps)
      throw ConfigError(options.restart.string() + ": the checkpoint is at t = " +
                        format_exact(checkpoint.t) + ", not before time.end = " +
                        format_exact(c.time.end) + "; raise time.end to continue the run");
    check_checkpoint(checkpoint, c, options.restart);
  }
  // The problem is the config's alone: made before the output folder, so that what it refuses
  // (the loader has asked the same, check_problem) leaves no folder behind.
  const Problem problem = make_problem(c);
  const index_t resume_step = checkpoint.state.step;
  const real resume_t = c.time.grid().t(resume_step);
  const Segment segment{options.restart, resume_step,
                        c.output.frames_before(resume_step)};
  auto warn = [](RunLog& log, const std::string& line) {
    log.line(line);
    std::fprintf(stderr, "fhn: warning: %s\n", line.c_str());
  };

  // 2. Output folder, proven writable before the first step. A restart continues its files.
  const fs::path dir = options.output_dir.empty() ? default_output_dir(c) : options.output_dir;
  OutputFolder folder(dir);  // locked until the run returns: a second run stops here
  folder.claim(run_outputs(c), input_files(c));  // replaces no file fhn did not write
  const RestartPlan plan = restart ? check_restart_outputs(c, dir, checkpoint) : RestartPlan{};
  prepare_output_dir(dir, c.name, !restart);
  RunLog log(dir / "run.log", restart);
  write_file_atomically(dir / "config.yaml", to_yaml(c));
  if (restart) {
    repair_restart_outputs(c, dir, plan);
    keep_rows_before(dir / "probes.csv", resume_t - 1e-9 * c.time.dt, false);
    keep_rows_before(dir / "ecg.csv", resume_t - 1e-9 * c.time.dt, false);
    keep_rows_before(dir / "newton.csv", static_cast<real>(resume_step), false);
    keep_rows_before(dir / "grid.csv", static_cast<real>(resume_step), true);
    keep_rows_before(dir / "tips.csv", resume_t - 1e-9 * c.time.dt, false);
    keep_rows_before(dir / "filaments.csv", resume_t - 1e-9 * c.time.dt, false);
  }

  // 3. The scheme.
  std::unique_ptr<NewtonCsvWriter> newton_log;
  if (c.output.newton_log)
    newton_log = std::make_unique<NewtonCsvWriter>(
        dir / "newton.csv", restart, c.scheme.crank_nicolson.formulation == Formulation::adi);
  std::unique_ptr<Scheme> scheme =
      distributed ? std::make_unique<DistributedScheme>(
                        problem.domain, *options.comm,
                        make_slab_scheme(c, problem, *options.comm, newton_log.get()))
                  : make_scheme(c, problem, newton_log.get());
  if (c.output.activation.enabled) record_activation(c, *scheme);
  if (restart) scheme->restore_state(checkpoint.state);
  log.line(build_line());
  if (distributed)
    log.line("ranks: " + options.comm->describe() + "; each owns a slab of " +
             axis_name(c.domain.dims - 1) + " planes, rank 0 gathers and writes");
  log.line("config: " + c.source + " (resolved copy: config.yaml)");
  if (restart)
    log.line("restarted from " + options.restart.string() + " at t = " + format_exact(resume_t) +
             " (step " + std::to_string(resume_step) + ")");
  for (const std::string& note : plan.notes) warn(log, "restart: " + note);
  log.line("scheme: " + scheme->name());
  for (const std::string& note : c.notes) log.line("override: " + note);
  for (const std::string& warning : c.warnings) warn(log, warning);
  log.line("grid: " + c.domain.summary() +
           (scheme->grid_stats() ? " (the base grid; the adaptive grid is a subset, see grid.csv)"
                                 : ""));
  log.line("time: dt = " + format_exact(c.time.dt) + ", end = " + format_exact(c.time.end) + ", " +
           std::to_string(c.time.steps) + " steps, a frame every " +
           std::to_string(c.output.every_steps) + " steps");
  announce_output_size(c, dir, resume_step, log, options.quiet);

  // 4. Writers, in the order they see each frame.
  const real resume_before = restart ? resume_t - 1e-9 * c.time.dt : -1.0;
  std::vector<std::unique_ptr<FrameSink>> owned;
  owned.push_back(std::make_unique<OutputFolderWatch>(dir));
  if (c.output.vtk)
    owned.push_back(make_vtk_series_writer(dir, c.name, c.output.precision, c.output.stride,
                                           resume_before, frame_phase(c)));
  if (c.output.spacetime)
    owned.push_back(make_spacetime_writer(dir / "spacetime.vti", kSpacetimeColumns, resume_before,
                                          segment.frames));
  if (const GridStats* grid = scheme->grid_stats())
    owned.push_back(make_grid_writer(dir / "grid.csv", *grid, restart ? resume_step : -1));
  if (c.output.activation.enabled)
    owned.push_back(make_activation_writer(dir / "activation.vti", c.domain,
                                           c.output.activation.threshold, c.output.activation.last));
  std::unique_ptr<FrontTracker> tracker;
  if (c.domain.dims == 1)
    tracker = std::make_unique<FrontTracker>(c.domain.length[0], c.output.activation.threshold);
  std::unique_ptr<TipTracker> tips;
  if (c.output.tips.enabled)
    tips = std::make_unique<TipTracker>(
        dir / "tips.csv", c.output.tips.v_iso, c.output.tips.w_iso, restart,
        cut_off_nodes(problem.fields),
        TipPathLimits{c.output.tips.breakup, c.output.tips.drift, c.output.tips.meander},
        c.output.probes);
  std::unique_ptr<FilamentTracker> filaments;
  if (c.output.filaments.enabled)
    filaments = std::make_unique<FilamentTracker>(
        dir / "filaments.csv", c.output.filaments.v_iso, c.output.filaments.w_iso,
        c.output.filaments.settle, restart,
        c.output.vtk ? make_curve_series(dir, c.name + "_filaments", resume_before) : nullptr);
  // The probes at their own cadence (output.probes_every): probes.csv, and the beats at each
  // probe, which a restart takes back from the probes.csv it continues.
  std::unique_ptr<ProbesCsv> probes_csv;
  std::unique_ptr<RestitutionTracker> restitution;
  ProbeSampler probes(problem.domain, c.output.probes, problem.fields.outside_mask());
  if (!c.output.probes.empty())
    probes_csv = std::make_unique<ProbesCsv>(dir / "probes.csv", c.output.probes, c.domain.dims, restart);
  if (c.output.restitution.enabled) {
    restitution = std::make_unique<RestitutionTracker>(
        c.output.probes, c.domain.dims, c.output.activation.threshold, c.output.restitution.level);
    if (restart) restitution->replay(dir / "probes.csv");
  }
  std::vector<FrameSink*> sinks;
  for (auto& sink : owned) sinks.push_back(sink.get());
  if (tracker) sinks.push_back(tracker.get());
  if (newton_log) sinks.push_back(newton_log.get());
  // The pseudo-ECG takes snapshots at its own cadence (the loop's event), not frames; with the
  // frames' sinks it is checkpointed, restored and finished.
  std::unique_ptr<PseudoEcg> ecg;
  if (c.output.ecg.enabled())
    ecg = std::make_unique<PseudoEcg>(dir / "ecg.csv", c.output.ecg.electrodes,
                                      ecg_medium(problem), c.domain.dims, restart);
  // The tips and the filaments likewise, at theirs (output.tips.every, output.filaments.every).
  std::vector<FrameSink*> stateful = sinks;
  if (tips) stateful.push_back(tips.get());
  if (filaments) stateful.push_back(filaments.get());
  if (ecg) stateful.push_back(ecg.get());
  // What a sink cannot take back (one switched on at the restart finds nothing of its own in
  // the checkpoint; an image the earlier run never wrote) is said in run.log and on stderr.
  if (restart)
    for (FrameSink* sink : stateful)
      if (const std::string lost = sink->restore(checkpoint.state); !lost.empty())
        warn(log, "restart: " + lost);

  // 5. The time loop, with checkpoints and SIGINT/SIGTERM turned into a clean stop; whatever
  // happens, the writers close their files and summary.json says how the run ended.
  RunLoopSettings settings = loop_settings(c, problem, resume_step);
  if (distributed) settings.comm = options.comm;
  settings.outside = problem.fields.outside_mask();
  settings.ecg = ecg.get();
  if (probes_csv)
    settings.probes.take = [&](index_t step) {
      probes.read(*scheme);
      const real t = problem.time.t(step);
      probes_csv->write(t, probes.v(), probes.w());
      if (restitution) restitution->add(t, probes.v());
    };
  // The tips without a frame: the cells the scheme finds (a device scheme on the device, copying
  // back the cells alone) and v at the watched points (the probes, read as the probes are).
  ProbeSampler watch(problem.domain, tips ? tips->watched() : std::vector<Point>{},
                     problem.fields.outside_mask());
  if (tips)
    settings.tips.take = [&](index_t step) {
      std::vector<IsoCell> cells;
      index_t excited = 0;
      scheme->iso_cells(c.output.tips.v_iso, c.output.tips.w_iso, tips->skip(settings.outside),
                        settings.outside, cells, excited);
      watch.read(*scheme);
      tips->write_sample(problem.time.t(step), problem.domain, cells, excited, watch.v(),
                         settings.outside != nullptr);
    };
  // The filaments likewise (output.filaments.every): the cube faces the scheme finds; the .vtp
  // series numbered by sample, as the frames are.
  if (filaments)
    settings.filaments.take = [&](index_t step) {
      std::vector<IsoCell> faces;
      index_t excited = 0;
      scheme->iso_cells(c.output.filaments.v_iso, c.output.filaments.w_iso, nullptr, nullptr,
                        faces, excited);
      const index_t every = settings.filaments.every;
      filaments->write_sample((step + every - 1) / every, problem.time.t(step), problem.domain,
                              faces);
    };
  CheckpointWriter checkpoints(dir, c, inputs, *scheme, stateful);
  settings.checkpoint = [&checkpoints] { checkpoints.write(); };
  const InterruptGuard interrupt;
  settings.interrupted = interrupt.flag();
  Progress progress(c.time.grid(), !options.quiet);
  RunLoopResult loop;
  try {
    advance_run(*scheme, settings, sinks, progress, loop);
  } catch (const Error& e) {
    const std::string status = e.code() == ExitCode::numerical     ? "numerical_failure"
                               : e.code() == ExitCode::interrupted ? "interrupted"
                                                                   : "error";
    std::string message = e.what();
    if (e.code() == ExitCode::interrupted)
      message += "; checkpoint: " + checkpoints.last().string() + "\n  continue with: " +
                 continue_command(c, options, checkpoints.last(), dir);
    // Close what can be closed; a second failure (the disk is still full) must not hide the first.
    try {
      log.line("stopped: " + message);
      for (FrameSink* sink : stateful) sink->finish();
      if (restitution) restitution->write(dir);
      write_file_atomically(dir / "summary.json",
                            make_summary(c, *scheme, status, loop,
                                         std::chrono::duration<double>(Clock::now() - started).count(),
                                         std::nullopt, tips.get(), filaments.get(), ecg.get(),
                                         restitution.get(), segment)
                                    .str(2) +
                                "\n");
    } catch (const Error&) {
    }
    if (e.code() == ExitCode::interrupted) throw InterruptedError(message);
    throw;
  }
  for (FrameSink* sink : stateful) sink->finish();
  if (restitution) restitution->write(dir);

  // 6. Summary.
  RunSummary summary;
  summary.output_dir = dir;
  summary.steps = segment.step + loop.steps;  // the whole run's, as in summary.json
  summary.frames = segment.frames + loop.frames;
  summary.wall_seconds = std::chrono::duration<double>(Clock::now() - started).count();
  write_file_atomically(dir / "summary.json",
                        make_summary(c, *scheme, "ok", loop, summary.wall_seconds,
                                     tracker ? tracker->speed() : std::nullopt, tips.get(),
                                     filaments.get(), ecg.get(), restitution.get(), segment)
                                .str(2) +
                            "\n");
  log.line("done: " + std::to_string(segment.step + loop.steps) + " steps, " +
           std::to_string(segment.frames + loop.frames) + " frames" +
           (restart ? " in all (this segment from t = " + format_exact(resume_t) + ": " +
                          std::to_string(loop.steps) + " steps, " + std::to_string(loop.frames) +
                          " frames)"
                    : std::string()) +
           ", " + format_exact(summary.wall_seconds) + " s wall, " +
           format_exact(loop.step_seconds) + " s stepping");
  if (tips) {
    const Rotation rotation = tips->rotation();
    log.line("spiral tips: " + std::to_string(tips->tips_at_end()) + " in the last frame; " +
             (rotation.period ? "rotation period " + format_exact(*rotation.period) + " (" +
                                    std::to_string(rotation.rotations) + " turns from t = " +
                                    format_exact(rotation.t_from) + ")"
                              : std::string("no rotation period (fewer than 2 turns of one tip)")) +
             "; tip path: " + tips->path_analysis().kind);
    // A turn resolved by fewer than 20 samples (output.tips.every's default is output.every,
    // which knows nothing of the rotation): say which cadence, a multiple of dt, resolves it.
    constexpr index_t kSamplesPerTurn = 20;
    const index_t every = c.output.tips.every_steps;
    const TimeGrid time = c.time.grid();
    if (rotation.period && *rotation.period < static_cast<real>(kSamplesPerTurn) * time.t(every)) {
      const auto fine = std::max<index_t>(
          1, static_cast<index_t>(*rotation.period / kSamplesPerTurn / c.time.dt));
      warn(log, "spiral tips: sampled every " + format_exact(time.t(every)) +
                    " (output.tips.every), " +
                    std::to_string(static_cast<index_t>(*rotation.period / time.t(every))) +
                    " samples a turn of " + format_exact(*rotation.period) +
                    "; output.tips.every: " + format_exact(time.t(fine)) + " takes " +
                    std::to_string(kSamplesPerTurn) + " or more");
    }
  }
  if (const GridStats* grid = scheme->grid_stats())
    log.line("adaptive grid: " + format_exact(grid->mean_nodes()) + " nodes on average, at most " +
             std::to_string(grid->max_nodes()) + ", of " + std::to_string(grid->base_nodes()) +
             " base nodes");
  return summary;
}

}  // namespace fhn
