#pragma once
// `fhn run`: one simulation from a validated Config to a complete output folder.
#include <filesystem>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "parallel/communicator.hpp"

namespace fhn {

struct RunOptions {
  std::filesystem::path output_dir;  // empty: output/<name>
  bool quiet = false;                // no progress, no closing message
  std::filesystem::path restart;     // a checkpoint to continue from (empty: a fresh run)
  std::vector<std::string> overrides;  // the --set values as given: the "continue with" command
  // The ranks of a distributed run (mpirun): every rank calls run_simulation with the same config
  // and options; the root writes all output. nullptr or one rank: this process alone.
  Communicator* comm = nullptr;
};

struct RunSummary {
  std::filesystem::path output_dir;
  index_t steps = 0;   // the whole run's, a restarted run's earlier part included
  index_t frames = 0;
  double wall_seconds = 0.0;
};

// Throws fhn::Error subclasses (IoError before the first step when the output folder is not
// writable; NumericalError when the solution blows up, after leaving valid output behind). In a
// distributed run NumericalError and InterruptedError are thrown on every rank alike; any other
// error may be one rank's alone (the caller then ends the others: Communicator::abort).
RunSummary run_simulation(const Config& config, const RunOptions& options);

std::filesystem::path default_output_dir(const Config& config);

}  // namespace fhn
