#pragma once
// `fhn sweep`: the members of a parameter sweep (configs/sweeps/README.md) run in lockstep as
// one MemberBatch per batch of members, measured at their probes, one row each in sweep.csv.
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "config/loader.hpp"
#include "config/sweep_config.hpp"

namespace fhn {

struct SweepOptions {
  std::filesystem::path output_dir;    // empty: output/<sweep name>
  std::vector<std::string> overrides;  // --set, applied to every member after the sweep's set:
  BuildCapabilities build;
  bool quiet = false;
  int threads = 0;                     // CPU worker threads (0: all cores)
  // --bench: after the sweep, run `bench_members` members one after another as fhn run would
  // and compare (summary.json "bench", run.log).
  index_t bench_members = 0;
};

// Every member's resolved config, in member order: the base config with the sweep's set:, the
// --set overrides and the member's axis values applied. Throws ConfigError naming the axis
// (file:line), the value and the member when a member's config is invalid, or when an axis
// changes what members must share (grid, dt, steps, scheme, output).
std::vector<Config> sweep_member_configs(const SweepConfig& sweep, const SweepOptions& options);

struct SweepResult {
  std::filesystem::path output_dir;
  index_t members = 0;
  index_t failed = 0;
  double wall_seconds = 0.0;
};

// Runs the sweep; writes sweep.csv (rewritten after every batch: always complete rows),
// summary.json, run.log and the output.members' folders. A member that fails is a row with its
// reason; it does not stop the others.
SweepResult run_sweep(const SweepConfig& sweep, const SweepOptions& options, std::ostream& out);

}  // namespace fhn
