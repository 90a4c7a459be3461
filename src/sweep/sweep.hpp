#pragma once
// `fhn sweep`: the members of a parameter sweep (configs/sweeps/README.md) run in lockstep as
// one MemberBatch per batch of members, measured at their probes, one row each in sweep.csv.
// Under mpirun the members are split across the ranks, each running its contiguous share on its
// own (its own batches, its own GPU), with no communication until the root gathers the rows.
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "config/loader.hpp"
#include "config/sweep_config.hpp"

namespace fhn {

class Communicator;

struct SweepOptions {
  std::filesystem::path output_dir;    // empty: output/<sweep name>
  std::vector<std::string> overrides;  // --set, applied to every member after the sweep's set:
  BuildCapabilities build;
  bool quiet = false;
  int threads = 0;                     // CPU worker threads (0: all cores)
  // --bench: after the sweep, run `bench_members` members one after another as fhn run would
  // and compare (summary.json "bench", run.log). Refused with several ranks.
  index_t bench_members = 0;
  // The ranks that share the members; every rank calls run_sweep with the same sweep and
  // options. nullptr: this process alone.
  Communicator* comm = nullptr;
};

// Every member's resolved config, in member order: the base config with the sweep's set:, the
// --set overrides and the member's axis values applied. Throws ConfigError naming the axis
// (file:line), the value and the member when a member's config is invalid, or when an axis
// changes what members must share (grid, dt, steps, scheme, output).
std::vector<Config> sweep_member_configs(const SweepConfig& sweep, const SweepOptions& options);

// The same on every rank: the whole sweep's counts; wall_seconds is this rank's.
struct SweepResult {
  std::filesystem::path output_dir;
  index_t members = 0;
  index_t failed = 0;
  double wall_seconds = 0.0;
};

// Runs the sweep; writes sweep.csv (rewritten after every batch of the root: always complete
// rows, those of the root's batches done so far, then every member's at the end), summary.json,
// run.log and the output.members' folders. A member that fails is a row with its reason; it
// does not stop the others. Only the root writes sweep.csv, summary.json, run.log and
// config.yaml; members/<m>/ is written by the rank that runs member m. Collective over
// options.comm: an error every rank meets (config, --bench, the root's output folder) is thrown
// on every rank; one a rank meets alone while running its members (I/O, device) is printed and
// ends every rank through Communicator::abort with its exit code.
SweepResult run_sweep(const SweepConfig& sweep, const SweepOptions& options, std::ostream& out);

}  // namespace fhn
