// The sweep's plan (`fhn sweep`, docs/ARCHITECTURE.md): every member's config from the base
// config, the sweep's set: and the axes, checked to agree on what the members share; whether this
// rank can hold its members (the memory check); the probes and the sampling; members per batch.
#include "sweep/plan.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>

#include "config/capability_key.hpp"
#include "core/cuda_device_select.hpp"
#include "core/error.hpp"
#include "core/first_error.hpp"
#include "core/format.hpp"
#include "parallel/communicator.hpp"
#include "run/memory_estimate.hpp"
#include "run/run_loop.hpp"
#include "sweep/write.hpp"

namespace fhn::sweep_detail {
namespace {

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
// initial profiles, stimulus values, name, and the levels its measurements read, which default
// to its form's: output.tips.v/w, output.activation.threshold): the lines of to_yaml with their
// dotted keys.
std::vector<std::string> shared_lines(Config c) {
  c.name.clear();
  c.source.clear();
  c.notes.clear();
  c.model = ModelParams{};
  c.output.tips.v_iso = c.output.tips.w_iso = 0.0;
  c.output.activation.threshold = 0.0;
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

// The axis assignments of member m, e.g. "model.a=0.05", the linked keys after their axis's,
// each named by its axis's place in the sweep file.
std::vector<Override> member_assignments(const SweepConfig& sweep, index_t m) {
  const std::vector<index_t> positions = sweep_member_positions(sweep, m);
  std::vector<Override> out;
  for (std::size_t a = 0; a < positions.size(); ++a) {
    const auto j = static_cast<std::size_t>(positions[a]);
    const SweepAxis& axis = sweep.axes[a];
    out.push_back({axis.key + "=" + format_exact(axis.values[j]), axis.where});
    for (const SweepLink& link : axis.with)
      out.push_back({link.key + "=" + format_exact(link.values[j]), axis.where});
  }
  return out;
}

// Steps between samples of the probes: measure.every / dt (every step when 0).
index_t sample_every_steps(const SweepConfig& sweep, const Config& c) {
  return sweep.measure.every > 0.0 ? std::max<index_t>(1, std::llround(sweep.measure.every / c.time.dt)) : 1;
}

// ---- Probes ---------------------------------------------------------------------------------

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

// ---- Memory ---------------------------------------------------------------------------------

// Host bytes of one member in a CPU batch: its problem, its scheme (state, work arrays and copy
// of the problem) and the batch's copy of its config.
real cpu_member_bytes(const Config& c) { return member_host_bytes(c) + config_bytes(c); }

// Member m's config from the base config's text: the sweep's overrides, the command line's,
// then the member's axis values (named by their axis's place in the sweep file). Throws
// ConfigError.
Config member_config(const SweepConfig& sweep, const SweepOptions& options, const ConfigText& base,
                     index_t m) {
  std::vector<Override> overrides = sweep.overrides;
  for (const std::vector<Override>& more :
       {command_line(options.overrides), member_assignments(sweep, m)})
    overrides.insert(overrides.end(), more.begin(), more.end());
  Config c = base.load(overrides, options.build);
  c.name = sweep.name + "_" + std::to_string(m);
  return c;
}

// The base config's text (the sweep file's `config:` or its `base:` file), read and checked
// once for all members. Throws ConfigError.
ConfigText base_config(const SweepConfig& sweep) {
  if (sweep.base.empty()) return ConfigText(sweep.base_text, sweep.source + " (config:)");
  return ConfigText(read_config_file(sweep.base), sweep.base);
}

// Member m's config refused (`e`): the same error, naming the axis whose value it refused (the
// first one named in the message, by its key or by its place, which its values' overrides
// carry), else the sweep file, and the member.
ConfigError refused_member(const SweepConfig& sweep, index_t m, const ConfigError& e) {
  const std::string message = e.what();
  std::string where = sweep.source;
  for (const SweepAxis& axis : sweep.axes) {
    bool named = message.find(axis.key) != std::string::npos ||
                 message.find(axis.where + ":") != std::string::npos;
    for (const SweepLink& link : axis.with) named = named || message.find(link.key) != std::string::npos;
    if (named) {
      where = axis.where;
      break;
    }
  }
  return ConfigError(where + ": " + member_label(sweep, m) + " is not a valid config:\n" + message);
}

// Refuses (ConfigError) a base config (member 0's, `c`) that lockstep members cannot be (the
// capability table, config/capabilities.hpp: a box, a medium other than uniform, the adaptive
// grid; output.ecg, which only fhn run writes; and tips at a cadence of their own, which only
// fhn run samples: members find theirs at their frames), named with the sweep file and where the
// base gives the key.
void refuse_unsweepable(const SweepConfig& sweep, const Config& c) {
  if (c.output.ecg.enabled())
    throw ConfigError(sweep.source + ": " + c.where("output.ecg") +
                      ": output.ecg: the pseudo-ECG is written by fhn run; a sweep's members do "
                      "not write ecg.csv (remove output.ecg from the base config)");
  if (c.output.tips.enabled && c.output.tips.every_steps != c.output.every_steps)
    throw ConfigError(sweep.source + ": " + c.where("output.tips.every") +
                      ": output.tips.every: a sweep's members find their tips at their frames "
                      "(output.every); remove output.tips.every from the base config, or set "
                      "output.every to it");
  const std::vector<capability::Refusal> refused =
      capability::refusals(capability_key(c, capability::Mode::members, config_medium(c)));
  if (refused.empty()) return;
  const capability::Refusal& first = refused.front();
  throw ConfigError(sweep.source + ": " + c.where(first.key) + ": " + first.key + ": " +
                    first.message);
}

// Refuses (ConfigError) a sweep whose members the root cannot hold (its verdict stands for every
// rank), before their configs are made: every rank holds all the members' configs (checked against
// each other), its members' rows and one batch of members at a time (CPU: members_per_batch's;
// cuda: the host side of a batch, each member's problem, for every member of the rank in the worst
// case). Member 0's config stands for all (they share the grid and the scheme). A member 0 that
// does not load is left to sweep_member_configs to report.
void check_sweep_fits(const SweepConfig& sweep, const SweepOptions& options, Communicator& comm) {
  Config c;
  try {
    c = member_config(sweep, options, base_config(sweep), 0);
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
                    "Fewer members (the axes' counts, " + sweep.axes.front().where +
                        "), or a sweep split into several runs, would fit");
}

}  // namespace

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

void sample_probes(MemberBatch& batch, const std::vector<ProbeNodes>& where,
                   std::vector<real>& sampled,
                   const std::function<void(index_t, const real*)>& take) {
  std::vector<index_t> nodes;
  for (const ProbeNodes& p : where) {
    nodes.push_back(p.i);
    nodes.push_back(p.i + 1);
  }
  batch.sample(nodes, sampled);
  std::vector<real> v(where.size());
  for (index_t k = 0; k < batch.members(); ++k) {
    for (std::size_t p = 0; p < where.size(); ++p) {
      const real* pair = &sampled[static_cast<std::size_t>(k) * nodes.size() + 2 * p];
      v[p] = (1.0 - where[p].f) * pair[0] + where[p].f * pair[1];
    }
    take(k, v.data());
  }
}

std::string member_label(const SweepConfig& sweep, index_t m) {
  std::string label;
  for (const Override& assignment : member_assignments(sweep, m))
    label += (label.empty() ? "" : ", ") + assignment.assignment;
  return "member " + std::to_string(m) + " (" + label + ")";
}

index_t stimulus_pulses(const Config& c) {
  index_t pulses = 0;
  for (const Stimulus& s : c.stimulus) {
    if (s.amplitude == 0.0) continue;
    for (index_t k = 0; k < s.count; ++k)
      if (s.start + static_cast<real>(k) * s.period < c.time.end) ++pulses;
  }
  return pulses;
}

index_t members_per_batch(const SweepConfig& sweep, const Config& c, index_t members, int device,
                          const Communicator& comm, std::string& why) {
  const bool on_device = c.scheme.backend == Backend::cuda && device >= 0;
  const real per_member = on_device
                              ? static_cast<real>(cuda_member_bytes(c.scheme, c.domain.node_count()))
                              : cpu_member_bytes(c);
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

SweepPlan plan_sweep(const SweepConfig& sweep, const SweepOptions& options, Communicator& comm) {
  std::string refusal;  // the root's verdict, for all ranks
  if (comm.root()) {
    try {
      check_sweep_fits(sweep, options, comm);
    } catch (const ConfigError& e) {
      refusal = e.what();
    }
  }
  comm.broadcast(refusal, 0);
  if (!refusal.empty()) throw ConfigError(refusal);
  SweepPlan plan;
  plan.configs = sweep_member_configs(sweep, options);
  plan.count = static_cast<index_t>(plan.configs.size());
  const Config& c0 = plan.configs.at(0);
  plan.sheet = c0.domain.dims == 2;
  if (!plan.sheet) {
    plan.probes = probe_positions(sweep, c0);
    plan.where = probe_nodes(plan.probes, c0);
  }
  plan.total_steps = c0.time.steps;
  plan.sample_every = plan.sheet ? c0.output.every_steps : sample_every_steps(sweep, c0);
  plan.check_every = RunLoopSettings{}.check_every;  // as fhn run checks
  plan.planar = plan.sheet && sweep.measure.planar;
  plan.newton = c0.scheme.type == SchemeType::crank_nicolson;
  plan.mine = split_range(plan.count, comm.rank(), comm.size());
  return plan;
}

}  // namespace fhn::sweep_detail

namespace fhn {

std::vector<Config> sweep_member_configs(const SweepConfig& sweep, const SweepOptions& options) {
  using namespace sweep_detail;
  // The base config's text, read and checked once for all members (an error in it is member 0's).
  std::optional<ConfigText> base;
  try {
    base.emplace(base_config(sweep));
  } catch (const ConfigError& e) {
    throw refused_member(sweep, 0, e);
  }
  const index_t count = sweep_member_count(sweep);
  // Each member's config is read on its own (in parallel: thousands of members), then checked
  // against member 0; the first problem in member order is reported (FirstError).
  std::vector<Config> members(static_cast<std::size_t>(count));
  FirstError failed;
#pragma omp parallel for schedule(dynamic, 16)
  for (index_t m = 0; m < count; ++m)
    failed.guard(m, [&] {
      try {
        members[static_cast<std::size_t>(m)] = member_config(sweep, options, *base, m);
      } catch (const ConfigError& e) {
        throw refused_member(sweep, m, e);
      }
    });
  failed.rethrow();
  const std::vector<std::string> first_lines =
      count > 0 ? shared_lines(members[0]) : std::vector<std::string>{};
#pragma omp parallel for schedule(dynamic, 16)
  for (index_t m = 1; m < count; ++m)
    failed.guard(m, [&] {
      const std::string different =
          lockstep_difference(members[static_cast<std::size_t>(m)], members[0], first_lines);
      if (!different.empty())
        throw ConfigError(sweep.source + ": " + member_label(sweep, m) +
                          " differs from member 0 in " + different +
                          "; the members of a sweep run in lockstep and must share the grid, "
                          "time.dt, time.end, the scheme and output.*: sweep model, boundary "
                          "values, initial profiles and stimuli");
    });
  failed.rethrow();
  if (!members.empty()) {
    const Config& c = members[0];
    refuse_unsweepable(sweep, c);
    // A sheet's members are measured by their spiral tips, found every output.every as fhn run
    // finds them; the probes' keys are a cable's.
    if (c.domain.dims == 2)
      for (const std::string& where : {sweep.measure.probes_where, sweep.measure.every_where,
                                       sweep.measure.threshold_where})
        if (!where.empty())
          throw ConfigError(where + ": measure.* is what a cable sweep measures at its probes; a "
                            "sheet's members are measured by their spiral tips, found every "
                            "output.every (output.tips.* set their levels and classes), and "
                            "measure.planar adds their planar pulses");
    if (c.domain.dims != 2 && sweep.measure.planar)
      throw ConfigError(sweep.measure.planar_where +
                        ": measure.planar runs the planar pulse of a sheet member's medium; the "
                        "members of this sweep are cables, whose own pulses the probes measure");
    const index_t every = sample_every_steps(sweep, c);
    if (sweep.measure.every > 0.0 &&
        std::abs(c.time.grid().t(every) - sweep.measure.every) > 1e-9 * sweep.measure.every)
      throw ConfigError(sweep.measure.every_where + ": measure.every = " + format_exact(sweep.measure.every) +
                        " is not a multiple of time.dt = " + format_exact(c.time.dt));
  }
  return members;
}

}  // namespace fhn
