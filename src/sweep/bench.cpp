// `fhn sweep --bench`: after the sweep, its first members run one after another, inside this
// process and as an `fhn run` process each, timed against the batched sweep (summary.json
// "bench", run.log and the terminal).
#include "sweep/bench.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <system_error>

#include "core/error.hpp"
#include "core/format.hpp"
#include "io/atomic_file.hpp"
#include "run/run.hpp"

namespace fs = std::filesystem;

namespace fhn::sweep_detail {

JsonObject bench_sequential_members(const SweepPlan& plan, index_t members, const fs::path& dir,
                                    double sweep_wall_seconds, SweepLog& log, std::ostream& out) {
  const std::vector<Config>& configs = plan.configs;
  const index_t count = plan.count;
  // The first k members one after another, no frames: inside this process (run_simulation,
  // the device already initialised) and as the shell loop a sweep replaces (an `fhn run`
  // process per member), each against the batched sweep's wall time.
  const index_t k = std::min(members, count);
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
  bench.add("sequential_members_timed", k).add("sweep_wall_seconds", sweep_wall_seconds);
  for (const auto& [label, total] : {std::pair<std::string, double>{"in_process", in_process},
                                     std::pair<std::string, double>{"processes", as_processes}}) {
    const double each = total / static_cast<double>(k), all = each * static_cast<double>(count);
    JsonObject b;
    b.add("seconds_per_member", each).add("seconds_all_members_estimated", all).add("speedup_wall", all / sweep_wall_seconds);
    bench.add(label, b);
    const std::string line = "bench: " + std::to_string(k) + " members one after another (" +
                             (label == "in_process" ? "fhn run inside this process" : "an fhn run process each") +
                             "): " + format_exact(each) + " s each, so " + format_exact(all) + " s for all " +
                             std::to_string(count) + "; the batched sweep took " + format_exact(sweep_wall_seconds) +
                             " s: " + format_exact(std::round(all / sweep_wall_seconds * 10) / 10) + "x";
    log.line(line);
    out << line << "\n";
  }
  return bench;
}

}  // namespace fhn::sweep_detail
