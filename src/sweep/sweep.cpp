#include "sweep/sweep.hpp"

#include <algorithm>
#include <cstdio>
#include <chrono>
#include <cstdlib>
#include <cmath>
#include <exception>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <sstream>

#include "config/names.hpp"
#include "core/build_info.hpp"
#include "core/cuda_device_select.hpp"
#include "core/error.hpp"
#include "core/first_error.hpp"
#include "core/format.hpp"
#include "io/atomic_file.hpp"
#include "io/json.hpp"
#include "io/output_folder.hpp"
#include "io/probes_csv.hpp"
#include "io/run_log.hpp"
#include "io/vtk_writers.hpp"
#include "model/problem.hpp"
#include "parallel/communicator.hpp"
#include "parallel/decomposition.hpp"
#include "run/memory_estimate.hpp"
#include "run/progress.hpp"
#include "run/run.hpp"
#include "run/time_loop.hpp"
#include "schemes/member_batch.hpp"
#include "sweep/measurements.hpp"

namespace fs = std::filesystem;

namespace fhn {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// ---- Members' configs -----------------------------------------------------------------------

// The dotted path of each line of to_yaml's output ("time.end: 300"), for naming a difference.
std::vector<std::string> keyed_lines(const std::string& yaml) {
  std::vector<std::string> out;
  std::vector<std::pair<std::size_t, std::string>> open;  // indentation, key
  std::istringstream in(yaml);
  for (std::string line; std::getline(in, line);) {
    const std::size_t indent = line.find_first_not_of(' ');
    if (indent == std::string::npos) continue;
    const std::size_t colon = line.find(':', indent);
    const std::string key = line.substr(indent, colon == std::string::npos ? std::string::npos : colon - indent);
    while (!open.empty() && open.back().first >= indent) open.pop_back();
    std::string path;
    for (const auto& entry : open) path += entry.second + ".";
    out.push_back(path + line.substr(indent));
    open.emplace_back(indent, key);
  }
  return out;
}

// The resolved config without what a member may set for itself (model, boundary values,
// initial profiles, stimulus values, name): the lines of to_yaml with their dotted keys.
std::vector<std::string> shared_lines(Config c) {
  c.name.clear();
  c.source.clear();
  c.notes.clear();
  c.model = ModelParams{};
  for (BoundarySide* side : {&c.boundary.left, &c.boundary.right, &c.boundary.bottom, &c.boundary.top})
    side->value = 0.0;
  c.initial = InitialSpec{};
  for (Stimulus& s : c.stimulus) s = Stimulus{};
  return keyed_lines(to_yaml(c));
}

// What a member may not change, as "time.end: 300 (member 0: time.end: 200)", or "" when it
// agrees with member 0 (`first`, whose shared_lines are `first_lines`) on all of it.
std::string lockstep_difference(const Config& member, const Config& first,
                                const std::vector<std::string>& first_lines) {
  if (member.stimulus.size() != first.stimulus.size())
    return std::to_string(member.stimulus.size()) + " stimuli (member 0: " +
           std::to_string(first.stimulus.size()) + ")";
  const std::vector<std::string> a = shared_lines(member);
  const std::vector<std::string>& b = first_lines;
  for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    const std::string x = i < a.size() ? a[i] : "(nothing)", y = i < b.size() ? b[i] : "(nothing)";
    if (x != y) return x + " (member 0: " + y + ")";
  }
  return "";
}

// The axis assignments of member m, e.g. "model.a=0.05".
std::vector<std::string> member_assignments(const SweepConfig& sweep, index_t m) {
  const std::vector<real> values = sweep_member_values(sweep, m);
  std::vector<std::string> out;
  for (std::size_t a = 0; a < values.size(); ++a)
    out.push_back(sweep.axes[a].key + "=" + format_exact(values[a]));
  return out;
}

std::string member_label(const SweepConfig& sweep, index_t m) {
  std::string label;
  for (const std::string& assignment : member_assignments(sweep, m))
    label += (label.empty() ? "" : ", ") + assignment;
  return "member " + std::to_string(m) + " (" + label + ")";
}

// Steps between samples of the probes: measure.every / dt (every step when 0).
index_t sample_every_steps(const SweepConfig& sweep, const Config& c) {
  return sweep.measure.every > 0.0 ? std::max<index_t>(1, std::llround(sweep.measure.every / c.time.dt)) : 1;
}

// ---- Probes ---------------------------------------------------------------------------------

// Where a probe at x is read: v(x) = (1 - f) v_i + f v_{i+1} on the uniform grid.
struct ProbeNodes {
  index_t i = 0;
  real f = 0.0;
};

std::vector<real> probe_positions(const SweepConfig& sweep, const Config& c) {
  const real length = c.domain.length[0];
  std::vector<real> probes = sweep.measure.probes;
  if (probes.empty()) probes = {0.25 * length, 0.75 * length};
  for (std::size_t p = 0; p < probes.size(); ++p)
    if (probes[p] > length)
      throw ConfigError(sweep.measure.probes_where + ": measure.probes[" + std::to_string(p) + "]: x = " +
                        format_exact(probes[p]) + " lies beyond the cable (domain.length = " +
                        format_exact(length) + ")");
  return probes;
}

std::vector<ProbeNodes> probe_nodes(const std::vector<real>& probes, const Config& c) {
  std::vector<ProbeNodes> out;
  const index_t n = c.domain.nodes[0];
  for (real x : probes) {
    const real s = x / c.domain.dx;
    const index_t i = std::min<index_t>(static_cast<index_t>(std::floor(s)), n - 2);
    out.push_back({i, s - static_cast<real>(i)});
  }
  return out;
}

// E: the stimulus pulses a member receives before time.end (stimuli of amplitude 0 are off).
index_t stimulus_pulses(const Config& c) {
  index_t pulses = 0;
  for (const Stimulus& s : c.stimulus) {
    if (s.amplitude == 0.0) continue;
    for (index_t k = 0; k < s.count; ++k)
      if (s.start + static_cast<real>(k) * s.period < c.time.end) ++pulses;
  }
  return pulses;
}

// ---- One member's row -------------------------------------------------------------------------

struct MemberRow {
  std::vector<real> values;  // axis values
  std::string status = "ok";
  std::string reason;
  MemberMeasurements measured;
  real max_v = std::numeric_limits<real>::quiet_NaN();
  real newton_mean = std::numeric_limits<real>::quiet_NaN();
  index_t newton_max = -1;
};

std::string csv_number(real x) { return std::isfinite(x) ? format_exact(x) : ""; }

std::string csv_text(const std::string& text) {
  std::string out = "\"";
  for (char ch : text) {
    if (ch == '"') out += '"';
    out += ch == '\n' ? ' ' : ch;
  }
  return out + "\"";
}

std::string sweep_csv_header(const SweepConfig& sweep, const std::vector<real>& probes, bool newton) {
  std::string text = "member";
  for (const SweepAxis& axis : sweep.axes) text += "," + axis.key;
  text += ",status,speed,last_speed,propagated";
  for (const char* what : {"pulses", "activation", "apd"})
    for (real x : probes) text += std::string(",") + what + "@" + format_exact(x);
  text += ",final_max_v";
  if (newton) text += ",newton_mean_iterations,newton_max_iterations";
  return text + ",reason\n";
}

// The sweep.csv lines of members first, first + 1, ... (rows[j] is member first + j), each
// ending in a newline: how a rank's rows travel to the root, which concatenates the ranks' lines
// in rank order (member order) below the header.
std::string sweep_csv_rows(const std::vector<MemberRow>& rows, index_t first,
                           const std::vector<real>& probes, bool newton) {
  std::string text;
  for (std::size_t j = 0; j < rows.size(); ++j) {
    const MemberRow& r = rows[j];
    text += std::to_string(first + static_cast<index_t>(j));
    for (real v : r.values) text += "," + format_exact(v);
    text += "," + r.status + "," + csv_number(r.measured.speed()) + "," +
            csv_number(r.measured.last_speed()) + "," + (r.measured.propagated() ? "1" : "0");
    for (std::size_t p = 0; p < probes.size(); ++p) text += "," + std::to_string(r.measured.pulses(p));
    for (std::size_t p = 0; p < probes.size(); ++p) text += "," + csv_number(r.measured.first_activation(p));
    for (std::size_t p = 0; p < probes.size(); ++p) text += "," + csv_number(r.measured.apd(p));
    text += "," + csv_number(r.max_v);
    if (newton)
      text += "," + csv_number(r.newton_mean) + "," + (r.newton_max >= 0 ? std::to_string(r.newton_max) : "");
    text += "," + (r.reason.empty() ? std::string() : csv_text(r.reason)) + "\n";
  }
  return text;
}

// The frames, probes.csv and kymograph of the members named in output.members, written by the
// rank that runs the member into members/<m>/ (made beforehand by the root).
struct MemberOutput {
  index_t member = 0;
  const Config* config = nullptr;
  std::vector<std::unique_ptr<FrameSink>> sinks;
  index_t frames = 0;
};

std::unique_ptr<MemberOutput> open_member_output(const fs::path& dir, index_t m, const Config& c,
                                                 const Problem& problem) {
  auto out = std::make_unique<MemberOutput>();
  out->member = m;
  out->config = &c;
  write_file_atomically(dir / "config.yaml", to_yaml(c));
  if (c.output.vtk) out->sinks.push_back(make_vtk_series_writer(dir, c.name, c.output.precision, c.output.stride, -1.0));
  if (c.output.spacetime) out->sinks.push_back(make_spacetime_writer(dir / "spacetime.vti", 4096, -1.0, problem.x));
  if (!c.output.probes.empty())
    out->sinks.push_back(make_probe_writer(dir / "probes.csv", c.output.probes, 1, false));
  return out;
}

void write_member_frame(MemberOutput& out, const MemberBatch& batch, index_t local, const Domain& domain) {
  Snapshot snap;
  batch.snapshot(local, snap);
  const FrameView view = frame_view(snap, out.frames++, &domain);
  for (auto& sink : out.sinks) sink->write(view);
}

// Host bytes of one member in a CPU batch: its problem, its scheme (state, work arrays and copy
// of the problem) and the batch's copy of its config.
real cpu_member_bytes(const Config& c) { return member_host_bytes(c) + config_bytes(c); }

// Members per batch: the sweep's batch key, else as many as fit in 70% of the memory of this
// rank's GPU `device` (cuda; shared evenly by the ranks of this machine that use it) or in 4 GB
// of host memory (cpu).
index_t members_per_batch(const SweepConfig& sweep, const Config& c, index_t members, int device,
                          const Communicator& comm, std::string& why) {
  const bool on_device = c.scheme.backend == Backend::cuda && device >= 0;
  const real per_member = on_device ? static_cast<real>(cuda_member_bytes(c)) : cpu_member_bytes(c);
  if (sweep.batch > 0) {
    why = "batch: " + std::to_string(sweep.batch) + " (sweep file)";
    return std::min(sweep.batch, members);
  }
  real budget = 4e9;
  std::string where = "4 GB of host memory";
  if (on_device) {
    std::string none;
    const std::vector<CudaDevice> devices = cuda_devices(&none);
    const CudaDevice& d = devices.at(static_cast<std::size_t>(device));
    const int count = static_cast<int>(devices.size());
    const int sharing = comm.local_size() / count + (device < comm.local_size() % count ? 1 : 0);
    budget = 0.7 * static_cast<real>(d.memory_bytes) / sharing;
    where = "70% of " + human_bytes(static_cast<real>(d.memory_bytes)) + " on " + d.name +
            (sharing > 1 ? " (device " + std::to_string(device) + ", shared by " +
                               std::to_string(sharing) + " ranks)"
                         : "");
  }
  const auto fit = std::max<index_t>(1, static_cast<index_t>(budget / per_member));
  why = human_bytes(per_member) + " per member; " + std::to_string(fit) + " members fit in " + where;
  return std::min(fit, members);
}

// run.log is the root's. The other ranks hold their lines (batches, failures) until the members
// are done; then the root appends them, each prefixed with its rank ("rank 1: batch 1/2: ...").
class SweepLog {
 public:
  // Root only: opens run.log (throws IoError).
  void open(const fs::path& file) { log_.emplace(file, false); }
  void line(const std::string& text) {
    if (log_) log_->line(text);
    else held_ += text + "\n";
  }
  // Collective: the held lines go to the root's run.log, ranks in order.
  void gather(Communicator& comm) {
    const std::vector<std::string> held = comm.gather(held_);
    for (std::size_t r = 1; r < held.size(); ++r) {
      std::istringstream in(held[r]);
      for (std::string text; std::getline(in, text);) line("rank " + std::to_string(r) + ": " + text);
    }
  }

 private:
  std::optional<RunLog> log_;
  std::string held_;
};

// Member m's config from the base config's text: the sweep's overrides, the command line's,
// then the member's axis values. Throws ConfigError.
Config member_config(const SweepConfig& sweep, const SweepOptions& options,
                     const std::string& base_text, const std::string& base_source, index_t m) {
  std::vector<std::string> overrides = sweep.overrides;
  overrides.insert(overrides.end(), options.overrides.begin(), options.overrides.end());
  const std::vector<std::string> mine = member_assignments(sweep, m);
  overrides.insert(overrides.end(), mine.begin(), mine.end());
  Config c = load_config_text(base_text, base_source, overrides, options.build);
  c.name = sweep.name + "_" + std::to_string(m);
  return c;
}

std::string base_source_of(const SweepConfig& sweep) {
  return sweep.base.empty() ? sweep.source + " (config:)" : sweep.base;
}

std::string base_text_of(const SweepConfig& sweep) {
  return sweep.base.empty() ? sweep.base_text : read_config_file(sweep.base);
}

// Refuses (ConfigError) a sweep whose members this rank cannot hold, before their configs are
// made: every rank holds all the members' configs (checked against each other), its members'
// rows and one batch of members at a time (CPU: members_per_batch's; cuda: the host side of a
// batch, each member's problem, for every member of the rank in the worst case). Member 0's
// config stands for all (they share the grid and the scheme). A member 0 that does not load is
// left to sweep_member_configs to report.
void check_sweep_fits(const SweepConfig& sweep, const SweepOptions& options, Communicator& comm) {
  Config c;
  try {
    c = member_config(sweep, options, base_text_of(sweep), base_source_of(sweep), 0);
  } catch (const ConfigError&) {
    return;
  }
  const index_t count = sweep_member_count(sweep);
  const index_t mine = split_range(count, comm.rank(), comm.size()).count;
  std::string why;
  const bool cpu = c.scheme.backend == Backend::cpu;
  const index_t batch = cpu ? members_per_batch(sweep, c, mine, -1, comm, why)
                            : (sweep.batch > 0 ? std::min(sweep.batch, mine) : mine);
  // A row: its axis values and, per probe (2 by default), a measurement's few numbers.
  const real probes = static_cast<real>(std::max<std::size_t>(sweep.measure.probes.size(), 2));
  const real row = static_cast<real>(sizeof(MemberRow)) +
                   8.0 * static_cast<real>(sweep.axes.size()) + 64.0 * probes;
  const real bytes = static_cast<real>(count) * config_bytes(c) + static_cast<real>(mine) * row +
                     static_cast<real>(batch) * (cpu ? cpu_member_bytes(c) : member_host_bytes(c));
  check_host_memory(bytes,
                    "the sweep (" + std::to_string(count) + " members" +
                        (comm.size() > 1 ? ", " + std::to_string(mine) + " on this rank" : "") +
                        "; " + human_bytes(config_bytes(c)) + " per member's config, batches of " +
                        std::to_string(batch) + ")",
                    "Fewer members (axes' counts), or a sweep split into several runs, would fit");
}

}  // namespace

std::vector<Config> sweep_member_configs(const SweepConfig& sweep, const SweepOptions& options) {
  // The base config's text, read once for all members.
  const std::string base_source = base_source_of(sweep);
  const std::string base_text = base_text_of(sweep);
  const index_t count = sweep_member_count(sweep);
  // Each member's config is read on its own (in parallel: thousands of members), then checked
  // against member 0; the first problem in member order is reported.
  std::vector<Config> members(static_cast<std::size_t>(count));
  std::vector<std::string> invalid(members.size()), different(members.size());
  std::vector<std::string> first_lines;
  FirstError failed;  // anything but a ConfigError: raised after the loop
#pragma omp parallel for schedule(dynamic, 16)
  for (index_t m = 0; m < count; ++m) {
    failed.guard(m, [&] {
      Config& c = members[static_cast<std::size_t>(m)];
      try {
        c = member_config(sweep, options, base_text, base_source, m);
      } catch (const ConfigError& e) {
        invalid[static_cast<std::size_t>(m)] = e.what();
      }
    });
  }
  failed.rethrow();
  for (index_t m = 0; m < count; ++m) {
    const std::string& e = invalid[static_cast<std::size_t>(m)];
    if (e.empty()) continue;
    // Name the axis whose value the member's config refused (the first one named in the
    // message), else the sweep file.
    std::string where = sweep.source;
    for (const SweepAxis& axis : sweep.axes)
      if (e.find(axis.key) != std::string::npos) {
        where = axis.where;
        break;
      }
    throw ConfigError(where + ": " + member_label(sweep, m) + " is not a valid config:\n" + e);
  }
  if (count > 0) first_lines = shared_lines(members[0]);
#pragma omp parallel for schedule(dynamic, 16)
  for (index_t m = 1; m < count; ++m)
    failed.guard(m, [&] {
      different[static_cast<std::size_t>(m)] =
          lockstep_difference(members[static_cast<std::size_t>(m)], members[0], first_lines);
    });
  failed.rethrow();
  for (index_t m = 1; m < count; ++m)
    if (!different[static_cast<std::size_t>(m)].empty())
      throw ConfigError(sweep.source + ": " + member_label(sweep, m) + " differs from member 0 in " +
                        different[static_cast<std::size_t>(m)] +
                        "; the members of a sweep run in lockstep and must share the grid, "
                        "time.dt, time.end, the scheme and output.*: sweep model, boundary values, "
                        "initial profiles and stimuli");
  if (!members.empty()) {
    const Config& c = members[0];
    if (c.domain.dims != 1)
      throw ConfigError(sweep.source + ": the base config is a sheet (domain.length: [Lx, Ly]); sweeps "
                        "run cables (domain.length: one number)");
    if (c.scheme.type == SchemeType::adaptive_explicit)
      throw ConfigError(sweep.source + ": scheme.type: adaptive_explicit moves each member's grid on its "
                        "own; sweep with explicit or crank_nicolson");
    const index_t every = sample_every_steps(sweep, c);
    if (sweep.measure.every > 0.0 &&
        std::abs(static_cast<real>(every) * c.time.dt - sweep.measure.every) > 1e-9 * sweep.measure.every)
      throw ConfigError(sweep.measure.every_where + ": measure.every = " + format_exact(sweep.measure.every) +
                        " is not a multiple of time.dt = " + format_exact(c.time.dt));
  }
  return members;
}

SweepResult run_sweep(const SweepConfig& sweep, const SweepOptions& options, std::ostream& out) {
  const auto started = Clock::now();
  std::unique_ptr<Communicator> serial;
  Communicator& comm = options.comm ? *options.comm : *(serial = make_serial_communicator());
  FHN_VERIFY(options.bench_members == 0 || comm.size() == 1, ConfigError,
             "--bench times the sweep against its members run one after another in one process; "
             "run it without mpirun (" + comm.describe() + ")");

  // 1. Every rank reads every member's config (the same on all ranks, so a config error is
  //    thrown on every rank) and takes its share of the members; first, whether it can hold
  //    them: the root's verdict, for all (a rank's own reading of its free memory could differ).
  std::string refusal;
  try {
    check_sweep_fits(sweep, options, comm);
  } catch (const ConfigError& e) {
    refusal = e.what();
  }
  comm.broadcast(refusal, 0);
  if (!refusal.empty()) throw ConfigError(refusal);
  const std::vector<Config> configs = sweep_member_configs(sweep, options);
  const auto count = static_cast<index_t>(configs.size());
  const Config& c0 = configs.at(0);
  const std::vector<real> probes = probe_positions(sweep, c0);
  const std::vector<ProbeNodes> where = probe_nodes(probes, c0);
  std::vector<index_t> nodes;
  for (const ProbeNodes& p : where) {
    nodes.push_back(p.i);
    nodes.push_back(p.i + 1);
  }
  const index_t total_steps = c0.time.steps;
  const index_t sample_every = sample_every_steps(sweep, c0);
  const index_t check_every = LoopSettings{}.check_every;  // as fhn run checks
  const bool newton = c0.scheme.type == SchemeType::crank_nicolson;
  const Range mine = split_range(count, comm.rank(), comm.size());

  // 2. The root makes the output folder and the members' folders, opens run.log and writes
  //    config.yaml, all proven writable before the first step. The broadcast of its outcome
  //    tells every rank of a failure (all throw) and orders the other ranks' first writes into
  //    members/<m>/ after the folders exist.
  const fs::path dir = options.output_dir.empty() ? fs::path("output") / sweep.name : options.output_dir;
  SweepLog log;
  std::optional<OutputFolder> folder;  // the root's, locked until the sweep returns
  std::string failure;
  if (comm.root()) {
    try {
      folder.emplace(dir);
      for (index_t m : sweep.output_members)
        create_folder(dir / "members" / std::to_string(m), "the member's output folder");
      log.open(dir / "run.log");
      log.line(build_line());
      log.line("sweep: " + sweep.source + " (base: " + (sweep.base.empty() ? "embedded" : sweep.base) + ")");
      for (const SweepAxis& axis : sweep.axes)
        log.line("axis " + axis.key + ": " + std::to_string(axis.values.size()) + " values from " +
                 format_exact(axis.values.front()) + " to " + format_exact(axis.values.back()));
      log.line("members: " + std::to_string(count) + " (" +
               (sweep.combine == SweepCombine::product ? "product" : "zip") + " of the axes)");
      for (const std::string& o : options.overrides) log.line("override: --set " + o);
      // The members' config warnings (a stimulus that acts only after time.end), once.
      const auto warned = std::find_if(configs.begin(), configs.end(),
                                       [](const Config& m) { return !m.warnings.empty(); });
      if (warned != configs.end()) {
        const auto members = std::count_if(configs.begin(), configs.end(),
                                           [](const Config& m) { return !m.warnings.empty(); });
        const std::string line =
            "member " + std::to_string(warned - configs.begin()) + ": " + warned->warnings.front() +
            (members > 1 ? " (" + std::to_string(members) + " members have warnings)" : "");
        log.line("warning: " + line);
        if (!options.quiet) std::fprintf(stderr, "fhn: warning: %s\n", line.c_str());
      }
      log.line("grid: " + c0.domain.summary() + "; time: dt = " + format_exact(c0.time.dt) + ", " +
               std::to_string(total_steps) + " steps; probes sampled every " + std::to_string(sample_every) +
               " steps");
      log.line("ranks: " + std::to_string(comm.size()) + " (" + comm.describe() + ")");
      for (int r = 0; r < comm.size(); ++r) {
        const Range range = split_range(count, r, comm.size());
        log.line("rank " + std::to_string(r) + ": " +
                 (range.count > 0 ? "members " + std::to_string(range.first) + ".." + std::to_string(range.end() - 1)
                                  : std::string("no members")));
      }
      write_file_atomically(dir / "config.yaml", to_yaml(c0));
    } catch (const std::exception& e) {  // IoError, or std::filesystem's own
      failure = e.what();
    }
  }
  comm.broadcast(failure, 0);
  if (!failure.empty()) throw IoError(failure);

  // 3. Each rank runs its members, batch after batch, on its own: no communication. An error
  //    here is this rank's alone: with several ranks it ends them all (stop_every_rank).
  std::vector<MemberRow> rows;  // rows[j]: member mine.first + j
  for (index_t m = mine.first; m < mine.end(); ++m)
    rows.push_back({sweep_member_values(sweep, m), "ok", "",
                    MemberMeasurements(probes, sweep.measure.threshold,
                                       stimulus_pulses(configs[static_cast<std::size_t>(m)]))});
  index_t failed_here = 0;
  double step_seconds = 0.0;
  std::string scheme_name;
  index_t batches = 0, per_batch = 0;
  try {
    const int device = c0.scheme.backend == Backend::cuda ? select_cuda_device(comm.local_rank()) : -1;
    std::string batch_why;
    per_batch = std::max<index_t>(1, members_per_batch(sweep, c0, mine.count, device, comm, batch_why));
    batches = (mine.count + per_batch - 1) / per_batch;
    log.line("batches: " + std::to_string(batches) + " of at most " + std::to_string(per_batch) +
             " members (" + batch_why + ")");
    // Progress: the root's own members (the shares are balanced: it tracks the whole sweep).
    Progress progress(mine.count * total_steps, "member-steps", !options.quiet && comm.root());
    std::vector<real> sampled;

    for (index_t b = 0; b < batches; ++b) {
      const index_t local = b * per_batch;  // rows[local] is the batch's first member
      const index_t first = mine.first + local;
      const index_t size = std::min(per_batch, mine.count - local);
      const std::vector<Config> batch_configs(configs.begin() + first, configs.begin() + first + size);
      std::vector<Problem> problems;
      for (const Config& c : batch_configs) problems.push_back(make_problem(c));
      std::unique_ptr<MemberBatch> batch = make_member_batch(batch_configs, problems, options.threads);
      if (b == 0) {
        scheme_name = batch->name();
        log.line("scheme: " + scheme_name);
      }
      std::vector<std::unique_ptr<MemberOutput>> outputs;
      for (index_t m : sweep.output_members)
        if (m >= first && m < first + size)
          outputs.push_back(open_member_output(dir / "members" / std::to_string(m), m,
                                               configs[static_cast<std::size_t>(m)],
                                               problems[static_cast<std::size_t>(m - first)]));
      const index_t frame_every = c0.output.every_steps;

      // The lockstep loop: advance to the next sample, check or frame; measure; record failures.
      auto measure = [&](index_t step) {
        batch->sample(nodes, sampled);
        const real t = static_cast<real>(step) * c0.time.dt;
        std::vector<real> v(where.size());
        for (index_t j = 0; j < size; ++j) {
          for (std::size_t p = 0; p < where.size(); ++p) {
            const real* pair = &sampled[static_cast<std::size_t>(j) * nodes.size() + 2 * p];
            v[p] = (1.0 - where[p].f) * pair[0] + where[p].f * pair[1];
          }
          rows[static_cast<std::size_t>(local + j)].measured.sample(t, v.data());
        }
      };
      auto record_failures = [&] {
        for (const MemberFailure& f : batch->take_failures()) {
          MemberRow& row = rows[static_cast<std::size_t>(local + f.member)];
          row.status = "numerical_failure";
          row.reason = f.reason;
          ++failed_here;
          log.line(member_label(sweep, first + f.member) + " failed at step " + std::to_string(f.step) +
                   ": " + f.reason);
        }
      };
      measure(0);
      for (auto& o : outputs) write_member_frame(*o, *batch, o->member - first, problems[0].domain);
      for (index_t step = 0; step < total_steps;) {
        auto next = [&](index_t every) { return (step / every + 1) * every; };
        index_t target = std::min({next(sample_every), next(check_every), total_steps});
        if (!outputs.empty()) target = std::min(target, next(frame_every));
        const auto t0 = Clock::now();
        batch->advance(target - step);
        batch->synchronize();  // the clock covers the steps, not their launch
        step_seconds += seconds_since(t0);
        step = target;
        if (step % check_every == 0 || step == total_steps) batch->check_finite();
        record_failures();
        if (step % sample_every == 0 || step == total_steps) measure(step);
        if (step % frame_every == 0 || step == total_steps)
          for (auto& o : outputs) write_member_frame(*o, *batch, o->member - first, problems[0].domain);
        progress.update(local * total_steps + step * size);
      }
      for (auto& o : outputs)
        for (auto& sink : o->sinks) sink->finish();

      // The members' final state and Newton statistics.
      Snapshot snap;
      for (index_t j = 0; j < size; ++j) {
        MemberRow& row = rows[static_cast<std::size_t>(local + j)];
        batch->snapshot(j, snap);
        if (row.status == "ok") row.max_v = *std::max_element(snap.v.begin(), snap.v.end());
        if (const NewtonStats* stats = batch->newton_stats(j); stats && stats->steps() > 0) {
          row.newton_mean = stats->mean_iterations();
          row.newton_max = stats->max_iterations();
        }
      }
      // Complete rows only: the root's members of the batches done so far (members 0, 1, ...).
      // The last batch's rows are written with the other ranks' ones below.
      if (comm.root() && b + 1 < batches) {
        const std::vector<MemberRow> done(rows.begin(), rows.begin() + local + size);
        write_file_atomically(dir / "sweep.csv", sweep_csv_header(sweep, probes, newton) +
                                                     sweep_csv_rows(done, 0, probes, newton));
      }
      log.line("batch " + std::to_string(b + 1) + "/" + std::to_string(batches) + ": members " +
               std::to_string(first) + ".." + std::to_string(first + size - 1) + " done, " +
               format_exact(step_seconds) + " s stepping so far");
    }
    progress.finish(mine.count * total_steps);
  } catch (...) {
    if (comm.size() == 1) throw;
    // The others would wait for this rank in the gather below, forever (or, were the error made
    // collective there, until they finished their members, perhaps hours later).
    stop_every_rank(comm, std::current_exception());
  }

  // 4. The root gathers every rank's rows (as their sweep.csv lines), held log lines, failure
  //    and propagation counts and stepping time; every rank learns the totals.
  const std::vector<std::string> row_lines = comm.gather(sweep_csv_rows(rows, mine.first, probes, newton));
  // Per rank: stepping seconds, batches, members per batch.
  const std::vector<real> per_rank_numbers =
      comm.gather(std::vector<real>{step_seconds, static_cast<real>(batches), static_cast<real>(per_batch)});
  index_t local_propagated = 0;
  for (const MemberRow& r : rows) local_propagated += r.measured.propagated() ? 1 : 0;
  const auto failed = static_cast<index_t>(std::llround(comm.sum(static_cast<double>(failed_here))));
  const auto propagated = static_cast<index_t>(std::llround(comm.sum(static_cast<double>(local_propagated))));
  // One axis: where propagation switches on (the refractory period of a restitution sweep, the
  // threshold of a stimulus sweep): the smallest value that propagates, and the largest value
  // below it that does not.
  const bool one_axis = sweep.axes.size() == 1;
  real smallest_ok = std::numeric_limits<real>::infinity();
  real largest_failing = -std::numeric_limits<real>::infinity();
  if (one_axis) {
    for (const MemberRow& r : rows)
      if (r.measured.propagated()) smallest_ok = std::min(smallest_ok, r.values[0]);
    smallest_ok = -comm.max(-smallest_ok);
    for (const MemberRow& r : rows)
      if (!r.measured.propagated() && r.values[0] < smallest_ok) largest_failing = std::max(largest_failing, r.values[0]);
    largest_failing = comm.max(largest_failing);
  }
  log.gather(comm);  // the last collective: an error writing run.log is the root's alone

  SweepResult result;
  result.output_dir = dir;
  result.members = count;
  result.failed = failed;
  if (!comm.root()) {
    result.wall_seconds = seconds_since(started);
    return result;
  }

  // 5. The root writes sweep.csv (every member's row, in member order) and summary.json. No
  //    collective follows: an error here is thrown on the root alone.
  std::string csv = sweep_csv_header(sweep, probes, newton);
  for (const std::string& lines : row_lines) csv += lines;
  write_file_atomically(dir / "sweep.csv", csv);
  // Stepping time: the slowest rank's (the ranks step at the same time); batches: all ranks'.
  double slowest = 0.0;
  index_t all_batches = 0, largest_batch = 0;
  for (int r = 0; r < comm.size(); ++r) {
    const real* numbers = &per_rank_numbers[3 * static_cast<std::size_t>(r)];
    slowest = std::max(slowest, numbers[0]);
    all_batches += static_cast<index_t>(numbers[1]);
    largest_batch = std::max(largest_batch, static_cast<index_t>(numbers[2]));
  }
  result.wall_seconds = seconds_since(started);
  const real member_steps = static_cast<real>(count) * static_cast<real>(total_steps);

  JsonObject s;
  s.add("name", sweep.name)
      .add("status", failed == 0 ? "ok" : "some_members_failed")
      .add("members", count)
      .add("failed", failed)
      .add("propagated", propagated)
      .add("scheme", name_of(scheme_type_names(), c0.scheme.type))
      .add("backend", name_of(backend_names(), c0.scheme.backend))
      .add("description", scheme_name)
      .add("nodes", c0.domain.node_count())
      .add("dt", c0.time.dt)
      .add("steps", total_steps)
      .add("batches", all_batches)
      .add("members_per_batch", largest_batch)
      .add("wall_seconds", result.wall_seconds)
      .add("step_seconds", slowest)
      .add("member_steps_per_second", slowest > 0 ? member_steps / slowest : 0.0)
      .add("ns_per_node_step",
           1e9 * slowest / (member_steps * static_cast<real>(c0.domain.node_count())))
      .add("ranks", comm.size());
  // Per rank ("0": the root): its members, batches and stepping time.
  JsonObject per_rank;
  for (int r = 0; r < comm.size(); ++r) {
    const Range range = split_range(count, r, comm.size());
    const real* numbers = &per_rank_numbers[3 * static_cast<std::size_t>(r)];
    JsonObject one;
    one.add("first_member", range.first)
        .add("members", range.count)
        .add("batches", static_cast<index_t>(numbers[1]))
        .add("step_seconds", numbers[0]);
    per_rank.add(std::to_string(r), one);
  }
  s.add("per_rank", per_rank);
  if (one_axis) {
    JsonObject edge;
    edge.add("key", sweep.axes[0].key).add("smallest_propagating", smallest_ok).add("largest_failing_below", largest_failing);
    s.add("propagation", edge);
  }

  if (options.bench_members > 0) {
    // The first k members one after another, no frames: inside this process (run_simulation,
    // the device already initialised) and as the shell loop a sweep replaces (an `fhn run`
    // process per member), each against the batched sweep's wall time.
    const index_t k = std::min(options.bench_members, count);
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    double in_process = 0.0, as_processes = 0.0;
    for (index_t m = 0; m < k; ++m) {
      Config c = configs[static_cast<std::size_t>(m)];
      c.output.vtk = false;
      c.output.spacetime = false;
      const fs::path member_dir = dir / "bench" / std::to_string(m);
      RunOptions run;
      run.quiet = true;
      run.output_dir = member_dir / "in_process";
      auto t0 = Clock::now();
      run_simulation(c, run);
      in_process += seconds_since(t0);
      const fs::path file = member_dir / "member.yaml";
      write_file_atomically(file, to_yaml(c));
      const std::string command = "'" + exe.string() + "' run '" + file.string() + "' --quiet --output '" +
                                  (member_dir / "process").string() + "'";
      t0 = Clock::now();
      if (ec || std::system(command.c_str()) != 0)
        throw IoError("--bench: could not run " + command);
      as_processes += seconds_since(t0);
    }
    JsonObject bench;
    bench.add("sequential_members_timed", k).add("sweep_wall_seconds", result.wall_seconds);
    for (const auto& [label, total] : {std::pair<std::string, double>{"in_process", in_process},
                                       std::pair<std::string, double>{"processes", as_processes}}) {
      const double each = total / static_cast<double>(k), all = each * static_cast<double>(count);
      JsonObject b;
      b.add("seconds_per_member", each).add("seconds_all_members_estimated", all).add("speedup_wall", all / result.wall_seconds);
      bench.add(label, b);
      const std::string line = "bench: " + std::to_string(k) + " members one after another (" +
                               (label == "in_process" ? "fhn run inside this process" : "an fhn run process each") +
                               "): " + format_exact(each) + " s each, so " + format_exact(all) + " s for all " +
                               std::to_string(count) + "; the batched sweep took " + format_exact(result.wall_seconds) +
                               " s: " + format_exact(std::round(all / result.wall_seconds * 10) / 10) + "x";
      log.line(line);
      out << line << "\n";
    }
    s.add("bench", bench);
  }
  write_file_atomically(dir / "summary.json", s.str(2) + "\n");
  log.line("done: " + std::to_string(count) + " members (" + std::to_string(failed) + " failed, " +
           std::to_string(propagated) + " propagated), " + format_exact(result.wall_seconds) + " s wall, " +
           format_exact(slowest) + " s stepping (the slowest rank)");
  return result;
}

}  // namespace fhn
