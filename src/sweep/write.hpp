#pragma once
// Internal to src/sweep/: what a sweep writes (write.cpp): sweep.csv's rows, summary.json,
// run.log (the root's, with the other ranks' lines appended), the output folder and config.yaml,
// and the files of the members named in output.members.
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "io/json.hpp"
#include "io/output_folder.hpp"
#include "io/run_log.hpp"
#include "io/vtk_writers.hpp"
#include "schemes/member_batch.hpp"
#include "study/spiral_tips.hpp"
#include "sweep/measurements.hpp"
#include "sweep/plan.hpp"

namespace fhn::sweep_detail {

// ---- One member's row -------------------------------------------------------------------------

// A sheet member's spiral tips at the end (its TipTracker's, as fhn run's summary.json has them).
struct MemberTips {
  index_t at_end = 0;
  index_t frames_with_tips = 0;
  Rotation rotation;
  TipPathAnalysis path;
};

struct MemberRow {
  std::vector<real> values;  // axis values
  std::string status = "ok";
  std::string reason;
  MemberMeasurements measured;      // cables: at the probes
  std::optional<MemberTips> tips;   // sheets: once the member's batch is done
  real max_v = std::numeric_limits<real>::quiet_NaN();
  real newton_mean = std::numeric_limits<real>::quiet_NaN();
  index_t newton_max = -1;
};

// Cables: the probes' columns; sheets: the tips' (configs/sweeps/README.md).
std::string sweep_csv_header(const SweepConfig& sweep, const SweepPlan& plan);

// The sweep.csv lines of members first, first + 1, ... (rows[j] is member first + j), each
// ending in a newline: how a rank's rows travel to the root, which concatenates the ranks' lines
// in rank order (member order) below the header.
std::string sweep_csv_rows(const std::vector<MemberRow>& rows, index_t first, const SweepPlan& plan);

// ---- The members' own files -------------------------------------------------------------------

// The frames, probes.csv and kymograph of the members named in output.members, written by the
// rank that runs the member into members/<m>/ (made beforehand by the root).
struct MemberOutput {
  index_t member = 0;
  const Config* config = nullptr;
  std::vector<std::unique_ptr<FrameSink>> sinks;
  index_t frames = 0;
};

std::unique_ptr<MemberOutput> open_member_output(const std::filesystem::path& dir, index_t m,
                                                 const Config& c);

void write_member_frame(MemberOutput& out, const MemberBatch& batch, index_t local);

// ---- run.log ----------------------------------------------------------------------------------

// run.log is the root's. The other ranks hold their lines (batches, failures) until the members
// are done; then the root appends them, each prefixed with its rank ("rank 1: batch 1/2: ...").
class SweepLog {
 public:
  // Root only: opens run.log (throws IoError).
  void open(const std::filesystem::path& file) { log_.emplace(file, false); }
  void line(const std::string& text) {
    if (log_) log_->line(text);
    else held_ += text + "\n";
  }
  // Collective: the held lines go to the root's run.log, ranks in order.
  void gather(Communicator& comm);

 private:
  std::optional<RunLog> log_;
  std::string held_;
};

// ---- The sweep's folder, sweep.csv and summary.json -------------------------------------------

// Collective: the root makes the output folder `dir` (locked in `folder` until the sweep
// returns) and the members' folders, opens run.log (its opening lines: the build, the sweep, the
// axes, warnings, the grid, the ranks' shares) and writes config.yaml. Its failure is thrown on
// every rank (IoError).
void open_sweep_outputs(const SweepConfig& sweep, const SweepOptions& options,
                        const SweepPlan& plan, Communicator& comm, const std::filesystem::path& dir,
                        std::optional<OutputFolder>& folder, SweepLog& log);

// What the root learns from every rank once the members are done (every rank: the counts).
inline constexpr std::size_t kRankNumbers = 5;

struct SweepTotals {
  std::vector<std::string> row_lines;  // root: each rank's sweep.csv lines, in rank order
  // root: per rank, kRankNumbers values: stepping seconds, batches, members per batch, seconds
  // making the members, seconds measuring them
  std::vector<real> per_rank_numbers;
  index_t failed = 0;
  index_t propagated = 0;
  std::vector<index_t> kinds;  // sheets: members per class, in kTipPathKinds' order
  // One axis: the smallest value that propagates and the largest below it that does not.
  bool one_axis = false;
  real smallest_ok = std::numeric_limits<real>::infinity();
  real largest_failing = -std::numeric_limits<real>::infinity();
  // Root: the slowest rank's stepping seconds (and making, measuring), all ranks' batches, the
  // largest batch.
  double slowest = 0.0;
  double setup = 0.0;
  double measure = 0.0;
  double config_seconds = 0.0;  // the root's: reading and checking the members' configs
  index_t all_batches = 0;
  index_t largest_batch = 0;
};

// The whole sweep.csv: the header and every member's row, in member order.
std::string sweep_csv(const SweepConfig& sweep, const SweepPlan& plan, const SweepTotals& totals);

// summary.json without "bench": the counts, the scheme, the timings, the ranks' shares and, with
// one axis, where propagation switches on.
JsonObject sweep_summary(const SweepConfig& sweep, const SweepPlan& plan, const SweepTotals& totals,
                         const std::string& scheme_name, double wall_seconds, int ranks);

}  // namespace fhn::sweep_detail
