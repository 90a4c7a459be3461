#pragma once
// Restarting a run from a checkpoint (`fhn run --restart`): everything a restart checks before it
// touches the output folder, and the command that continues an interrupted run.
//
// A restart continues the folder's files as if the run had never stopped, so it first proves that
// they reach the checkpoint: the checkpoint's values fit this config, the CSV files hold every
// row before it, the .pvd lists every frame before it and those frames are on disk.
// What can be rebuilt from the folder is repaired (a .pvd that does not parse or lists too few
// frames is rebuilt from frames/, whose times follow from their numbering and output.every);
// anything else stops the restart with IoError (exit 4) before a file is changed. A file that
// is absent altogether (a restart into another folder) is not an error: the file then covers only
// the time from the restart on, and the plan's notes say so (run.log and stderr).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "run/checkpoint.hpp"
#include "run/run.hpp"

namespace fhn {

// Every value of a checkpoint against the config it continues: t = step dt (to rounding), dt is the
// config's (read_checkpoint refuses step < 0, the run a step at or after time.end), the node list
// of an adaptive grid (strictly increasing base-grid indices from 0 to the last) or none, the
// scheme's arrays ("v", "w", ...: names without a '.') of the run's node count and finite, and the
// sinks' arrays in range (counts, times, flags; study/*). Throws IoError naming `file` and the
// value.
void check_checkpoint(const Checkpoint& checkpoint, const Config& config,
                      const std::filesystem::path& file);

struct RestartPlan {
  std::vector<std::string> notes;  // repairs made and what is not recovered, one sentence each
  std::optional<std::string> pvd;  // the .pvd's <DataSet> lines to write, when it is rebuilt
};

// Checks the files in `dir` that a restart from `checkpoint` (checked) continues (see above):
// the rows of probes.csv (one per frame), newton.csv (every step), grid.csv (every regrid) and
// tips.csv (the frames with tips: tips.state) before it, the .pvd and frames/. Reads only.
RestartPlan check_restart_outputs(const Config& config, const std::filesystem::path& dir,
                                  const Checkpoint& checkpoint);

// Makes the plan's repairs (after check_restart_outputs and check_checkpoint have passed).
void repair_restart_outputs(const Config& config, const std::filesystem::path& dir,
                            const RestartPlan& plan);

// The command that continues a run interrupted at `checkpoint`: the config path, every --set as
// given and --output, shell-quoted where needed, preceded by `mpirun -np N` for N > 1 ranks.
std::string continue_command(const Config& config, const RunOptions& options,
                             const std::filesystem::path& checkpoint,
                             const std::filesystem::path& output_dir);

}  // namespace fhn
