#include "run/restart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>

#include "core/error.hpp"
#include "core/format.hpp"
#include "io/csv_resume.hpp"
#include "io/probes_csv.hpp"
#include "io/pvd_collection.hpp"
#include "schemes/activation_record.hpp"
#include "study/front_tracker.hpp"
#include "study/pseudo_ecg.hpp"
#include "study/spiral_tips.hpp"

namespace fs = std::filesystem;

namespace fhn {
namespace {

// IoError (exit 4: the folder's files, not the config, are at fault), with what can be done.
[[noreturn]] void cannot_continue(const fs::path& file, const std::string& why,
                                  const std::string& remedy = "restore the file, restart from a "
                                                              "checkpoint it reaches, or move it "
                                                              "away") {
  throw IoError(file.string() + ": " + why + "; the restart cannot continue it (nothing was "
                "changed): " + remedy + ", or restart into another folder (--output), where the "
                "files start at the restart");
}

// probes.csv and ecg.csv, a row per sample at multiples of their cadence (the key `every`): the
// rows before the restart (t < resume_t) are exactly the samples' times before it.
void check_sample_rows(const fs::path& file, const std::vector<real>& sample_times, real resume_t,
                       real dt, const std::string& every) {
  std::vector<real> before;
  for_each_row(file, [&](const std::string&, real t) {
    if (t < resume_t - 1e-9 * dt) before.push_back(t);
  });
  const std::size_t common = std::min(before.size(), sample_times.size());
  for (std::size_t i = 0; i < common; ++i)
    if (!(std::abs(before[i] - sample_times[i]) <= 1e-9 * dt))
      cannot_continue(file, "row " + std::to_string(i + 1) + " is at t = " +
                                format_exact(before[i]) + " where this run's sample " +
                                std::to_string(i) + " is at t = " + format_exact(sample_times[i]) +
                                " (rows missing, or " + every + " changed since the checkpoint)");
  if (before.size() == sample_times.size()) return;
  std::string why = "it holds " + std::to_string(before.size()) + " rows before the checkpoint's " +
                    "t = " + format_exact(resume_t) + " where the run wrote " +
                    std::to_string(sample_times.size()) + " (one per sample)";
  if (!before.empty()) why += "; its rows end at t = " + format_exact(before.back());
  cannot_continue(file, why);
}

// The header of `file` (a CSV the restart continues) must be `expected`, the columns this run
// writes: ConfigError naming `key`, whose change since the checkpoint changed them.
void check_header(const fs::path& file, const std::string& expected, const std::string& key) {
  std::ifstream in(file);
  std::string header;
  std::getline(in, header);
  if (header + "\n" != expected)
    throw ConfigError(file.string() + ": its columns (" + header + ") are not this run's (" +
                      expected.substr(0, expected.size() - 1) + "): " + key + " changed since "
                      "the checkpoint; keep them, or restart into another folder (--output)");
}

// newton.csv (rows for every step) and grid.csv (a row per regrid): the distinct steps of the
// rows before `end` must be 0, stride, 2 stride, ... < end.
void check_step_rows(const fs::path& file, index_t stride, index_t end, index_t resume_step) {
  index_t next = 0;  // the step expected next
  for_each_row(file, [&](const std::string&, real value) {
    const auto step = static_cast<index_t>(value);
    if (value >= static_cast<real>(end) || (next > 0 && step == next - stride)) return;
    if (step != next || static_cast<real>(step) != value)
      cannot_continue(file, "a row of step " + format_exact(value) + " where step " +
                                std::to_string(next) + " was due (rows missing or out of order)");
    next += stride;
  });
  if (next < end)
    cannot_continue(file, "its rows end at step " + std::to_string(next - stride) +
                              ", before the checkpoint's step " + std::to_string(resume_step));
}

// tips.csv: rows only for frames with tips, so the distinct times before the restart count
// the frames with tips before it (tips.state in the checkpoint).
void check_tip_rows(const fs::path& file, real resume_t, real dt, index_t frames_with_tips) {
  index_t frames = 0;
  real previous = -1.0;
  for_each_row(file, [&](const std::string&, real t) {
    if (t < resume_t - 1e-9 * dt && t != previous) {
      ++frames;
      previous = t;
    }
  });
  if (frames != frames_with_tips)
    cannot_continue(file, "its rows before the checkpoint's t = " + format_exact(resume_t) +
                              " come from " + std::to_string(frames) + " frames where the run "
                              "found tips in " + std::to_string(frames_with_tips));
}

// The .pvd and frames/: see restart.hpp.
void check_frames(const Config& c, const fs::path& dir, index_t frames_before, real cutoff,
                  RestartPlan& plan) {
  const fs::path pvd = dir / (c.name + ".pvd");
  const char* extension = c.domain.dims >= 2 ? "vti" : "vtu";
  std::string expected;
  std::vector<std::string> lines, missing;
  for (index_t i = 0; i < frames_before; ++i) {
    const std::string file = "frames/" + frame_file_name(c.name, i, extension);
    const real t = c.time.grid().t(i * c.output.every_steps);
    lines.push_back(pvd_dataset_line(t, file));
    expected += lines.back();
    std::error_code ec;
    if (!fs::is_regular_file(dir / file, ec) || fs::file_size(dir / file, ec) == 0 || ec)
      missing.push_back(file);
  }
  const std::optional<std::vector<PvdDataset>> datasets = read_pvd_datasets(pvd);
  std::error_code ec;
  const bool pvd_exists = fs::exists(pvd, ec);

  // A folder without any of the run's frames: a restart into another folder.
  if (!pvd_exists && missing.size() == lines.size()) {
    if (frames_before > 0)
      plan.notes.push_back("frames: none of the " + std::to_string(frames_before) +
                           " frames before the restart is in " + dir.string() + "; " +
                           pvd.filename().string() + " lists only the frames from the restart on");
    return;
  }
  if (!missing.empty())
    cannot_continue(dir / "frames",
                    std::to_string(missing.size()) + " of the " + std::to_string(frames_before) +
                        " frames before the checkpoint are missing (" + missing.front() +
                        (missing.size() > 1 ? " ... " + missing.back() : std::string()) + ")",
                    "restore the frames");

  auto entry = [](const std::string& line) {  // a <DataSet .../> line without indent and '\n'
    return line.substr(4, line.size() - 5);
  };
  std::size_t listed = 0;  // the collection's frames before the restart, all as expected
  if (datasets) {
    for (const PvdDataset& d : *datasets) {
      if (!(d.t < cutoff)) continue;
      if (listed >= lines.size() || d.line != lines[listed])
        cannot_continue(pvd, "it lists " + entry(d.line) +
                                 (listed < lines.size()
                                      ? " where this run's frame " + std::to_string(listed) +
                                            " is " + entry(lines[listed])
                                      : std::string(" after this run's frames before it")) +
                                 " (output.every or the name changed since the checkpoint?)");
      ++listed;
    }
    if (listed == lines.size()) return;
  }
  std::string why = "not a collection fhnsim wrote (does not parse)";
  if (!pvd_exists) why = "missing";
  if (datasets)
    why = "listed " + std::to_string(listed) + " of the " + std::to_string(frames_before) +
          " frames before the restart";
  plan.pvd = expected;
  plan.notes.push_back(pvd.filename().string() + ": " + why + "; rebuilt from the " +
                       std::to_string(frames_before) +
                       " frame files in frames/ (the damaged file is replaced)");
}

}  // namespace

void check_checkpoint(const Checkpoint& checkpoint, const Config& c, const fs::path& file) {
  const SchemeState& state = checkpoint.state;
  try {
    if (checkpoint.dt != c.time.dt)
      throw IoError("checkpoint: dt = " + format_exact(checkpoint.dt) +
                    ", not this config's time.dt = " + format_exact(c.time.dt));
    // t is written as step dt; a few ulps allow for another compiler's rounding.
    const real t = c.time.grid().t(state.step);
    const real ulps = 4.0 * std::numeric_limits<real>::epsilon() * std::max(t, c.time.dt);
    if (!(std::abs(checkpoint.t - t) <= ulps))
      throw IoError("checkpoint: t = " + format_exact(checkpoint.t) + ", not step " +
                    std::to_string(state.step) + " x dt = " + format_exact(t));
    const index_t base = c.domain.node_count();
    std::size_t nodes = static_cast<std::size_t>(base);
    if (c.scheme.type == SchemeType::adaptive_explicit) {
      const std::vector<index_t>& list = state.nodes;
      bool increasing = !list.empty() && list.front() == 0 && list.back() == base - 1;
      for (std::size_t i = 1; increasing && i < list.size(); ++i)
        increasing = list[i - 1] < list[i];
      if (!increasing)
        throw IoError("checkpoint: its adaptive grid is not a strictly increasing list of "
                      "base-grid nodes from 0 to " + std::to_string(base - 1));
      nodes = list.size();
    } else if (!state.nodes.empty()) {
      throw IoError("checkpoint: it holds an adaptive grid's node list, and this run's grid is "
                    "fixed");
    }
    state.get_finite("v", nodes);  // present, sized and finite
    state.get_finite("w", nodes);
    for (const auto& [name, values] : state.arrays)  // the scheme's others; sinks' names have a '.'
      if (name != "v" && name != "w" && name.find('.') == std::string::npos)
        state.get_finite(name, nodes);
    if (c.domain.dims == 1) FrontTracker(c.domain.length[0], c.output.activation.threshold).restore(state);
    if (c.output.tips.enabled)
      if (const auto tips = TipTracker::check_state(state); tips && tips->last_t > checkpoint.t)
        throw IoError("checkpoint: the tips' last frame is at t = " + format_exact(tips->last_t) +
                      ", after the checkpoint's t = " + format_exact(checkpoint.t));
    if (c.output.activation.enabled) {  // as the scheme will take them (record_activation)
      ActivationRecord activation;
      activation.start(static_cast<index_t>(nodes), c.output.activation.threshold, c.output.activation.last);
      activation.restore(state);
    }
  } catch (const IoError& e) {
    throw IoError(file.string() + ": " + e.what() + " (the file is damaged or was altered)");
  }
}

RestartPlan check_restart_outputs(const Config& c, const fs::path& dir,
                                  const Checkpoint& checkpoint) {
  RestartPlan plan;
  const index_t resume_step = checkpoint.state.step;
  const real resume_t = c.time.grid().t(resume_step);
  // probes.csv's samples before the checkpoint: at steps 0, k, 2k, ... < resume_step
  // (k = output.probes_every in steps).
  const index_t every = c.output.probes_every_steps;
  const index_t samples_before = (resume_step + every - 1) / every;
  const index_t frames_before = c.output.frames_before(resume_step);
  const real cutoff = c.time.grid().t(resume_step) - 1e-9 * c.time.dt;
  std::vector<real> sample_times;
  for (index_t i = 0; i < samples_before; ++i)
    sample_times.push_back(c.time.grid().t(i * every));
  auto present = [&](const std::string& file, const std::string& what) {
    std::error_code ec;
    if (fs::exists(dir / file, ec)) return true;
    if (resume_step > 0)
      plan.notes.push_back(file + ": not in " + dir.string() + "; " + what +
                           " cover only the time from the restart on");
    return false;
  };
  if (!c.output.probes.empty() && present("probes.csv", "its rows")) {
    const fs::path probes = dir / "probes.csv";
    check_header(probes, probes_csv_header(c.output.probes, c.domain.dims), "output.probes");
    check_sample_rows(probes, sample_times, resume_t, c.time.dt, "output.probes_every");
  }
  if (c.output.ecg.enabled() && present("ecg.csv", "its rows")) {
    // A sample at every multiple of the ECG's cadence (and at the end, which no checkpoint
    // precedes).
    const fs::path ecg = dir / "ecg.csv";
    check_header(ecg, PseudoEcg::header(c.output.ecg.electrodes, c.domain.dims),
                 "output.ecg.electrodes");
    std::vector<real> ecg_times;
    for (index_t step = 0; step < resume_step; step += c.output.ecg.every_steps)
      ecg_times.push_back(c.time.grid().t(step));
    check_sample_rows(ecg, ecg_times, resume_t, c.time.dt, "output.ecg.every");
  }
  if (c.output.newton_log && c.scheme.type == SchemeType::crank_nicolson &&
      present("newton.csv", "its rows"))
    check_step_rows(dir / "newton.csv", 1, resume_step, resume_step);
  if (c.scheme.type == SchemeType::adaptive_explicit && present("grid.csv", "its rows"))
    check_step_rows(dir / "grid.csv", c.scheme.adaptive.regrid_every, resume_step + 1,
                    resume_step);
  const std::optional<TipTracker::Saved> tips =
      c.output.tips.enabled ? TipTracker::check_state(checkpoint.state) : std::nullopt;
  if (tips && present("tips.csv", "its rows")) {
    // The frame at the checkpoint's step (when it is one) counted, but its rows are written again.
    const bool frame_at_resume = resume_step % every == 0 && tips->tips_at_end > 0;
    check_tip_rows(dir / "tips.csv", resume_t, c.time.dt,
                   tips->frames_with_tips - (frame_at_resume ? 1 : 0));
  }
  if (c.output.vtk) check_frames(c, dir, frames_before, cutoff, plan);
  return plan;
}

void repair_restart_outputs(const Config& c, const fs::path& dir, const RestartPlan& plan) {
  if (plan.pvd) write_pvd(dir / (c.name + ".pvd"), *plan.pvd);
}

std::string continue_command(const Config& c, const RunOptions& options, const fs::path& checkpoint,
                             const fs::path& output_dir) {
  std::string command;
  if (options.comm && options.comm->size() > 1)
    command = "mpirun -np " + std::to_string(options.comm->size()) + " ";
  command += "fhn run " + shell_quoted(c.source);
  for (const std::string& set : options.overrides) command += " --set " + shell_quoted(set);
  return command + " --restart " + shell_quoted(checkpoint.string()) + " --output " +
         shell_quoted(output_dir.string());
}

}  // namespace fhn
