#pragma once
// Internal to src/sweep/: what a sweep writes (write.cpp): sweep.csv's rows, summary.json,
// run.log (the root's, with the other ranks' lines appended), the output folder and config.yaml,
// and the files of the members named in output.members.
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "io/json.hpp"
#include "io/output_folder.hpp"
#include "io/probes_csv.hpp"
#include "io/run_log.hpp"
#include "io/vtk_writers.hpp"
#include "schemes/member_batch.hpp"
#include "study/probes.hpp"
#include "study/restitution.hpp"
#include "study/spiral_tips.hpp"
#include "sweep/measurements.hpp"
#include "sweep/plan.hpp"
#include "sweep/planar.hpp"

namespace fhn::sweep_detail {

// ---- One member's row -------------------------------------------------------------------------

// A sheet member's spiral tips at the end (its TipTracker's, as fhn run's summary.json has them).
struct MemberTips {
  index_t at_end = 0;
  index_t frames_with_tips = 0;
  Rotation rotation;
  TipPathAnalysis path;
};

// A finished member's row that an interrupted sweep into the same folder wrote, taken over
// (finished.csv, below): its sweep.csv line as written, and what the totals count of it.
struct TakenRow {
  std::string line;  // without the newline
  std::string status;
  bool propagated = false;
  std::string kind;  // sheets: the class of its tip path ("" for a failed member)
};

struct MemberRow {
  index_t member = 0;
  std::vector<real> values;  // axis values
  bool done = false;         // finished (ok or failed): its row is complete
  std::optional<TakenRow> taken;  // finished by an earlier, interrupted sweep: not run again
  std::string status = "ok";
  std::string reason;
  MemberMeasurements measured;      // cables: at the probes
  std::optional<MemberTips> tips;   // sheets: once the member's batch is done
  std::optional<PlanarPulse> planar;  // sheets with measure.planar (nullopt: its cable failed)
  real max_v = std::numeric_limits<real>::quiet_NaN();
  real newton_mean = std::numeric_limits<real>::quiet_NaN();
  index_t newton_max = -1;
};

// Cables: the probes' columns; sheets: the tips' (configs/sweeps/README.md).
std::string sweep_csv_header(const SweepConfig& sweep, const SweepPlan& plan);

// ---- Where propagation switches ----------------------------------------------------------------
// A cable member that ran to its end: its axis values and whether its pulses propagated.
struct PropagationPoint {
  std::vector<real> values;
  bool propagated = false;
};
// Two members next to each other along the first axis (the other axes at `others`, in axis
// order), one propagating and one not: `below` < `above` are their first-axis values.
struct PropagationEdge {
  std::vector<real> others;
  real below = 0.0;
  real above = 0.0;
  bool propagates_above = false;
};
// Every edge of `points`: grouped by the values of the other axes, sorted along the first, each
// pair of neighbours whose outcomes differ (a restitution sweep: the refractory period lies in
// its one edge, propagating above; a pulse-speed sweep over a: pulses fail above each
// epsilon's edge). In order of the other axes' values, then of the first axis.
std::vector<PropagationEdge> propagation_edges(std::vector<PropagationPoint> points);

// The sweep.csv lines of the finished (done) ones of `rows` (in member order), each ending in a
// newline: how a rank's rows travel to the root, which concatenates the ranks' lines in rank
// order (member order) below the header.
std::string sweep_csv_rows(const std::vector<MemberRow>& rows, const SweepPlan& plan);

// ---- Continuing an interrupted sweep ------------------------------------------------------------
// Beside sweep.csv, finished.csv lists the members whose rows sweep.csv holds, each with the
// digest of its config (member_digest), written after sweep.csv each time it is. A sweep run
// again into the same folder takes over the row of every listed member whose digest is its own
// member's and whose line sweep.csv holds under the same header, and runs only the others: the
// rows it then writes are those the uninterrupted sweep writes.

// The digest of each member's resolved config and of what the sweep measures of it (the
// probes, their sampling and level): equal only for a member that would compute the same row.
// Made when first asked for (a config's YAML text is hashed), then kept.
class MemberDigests {
 public:
  MemberDigests(const SweepConfig& sweep, const SweepPlan& plan);
  const std::string& of(index_t m);

 private:
  const SweepConfig& sweep_;
  const SweepPlan& plan_;
  std::vector<std::string> digests_;  // "" until made
};

// finished.csv's text: "member,digest" and one line per member of `row_lines` (sweep.csv lines).
std::string finished_csv(const std::string& row_lines, MemberDigests& digests);

// Root: the sweep.csv lines (each ending in a newline) of the members that an earlier sweep into
// `dir` finished and this one would compute again (see above); "" when there are none.
std::string finished_lines(const SweepConfig& sweep, const SweepPlan& plan,
                           const std::filesystem::path& dir, MemberDigests& digests);

// The rows of `lines` (finished_lines' text), by member.
std::map<index_t, TakenRow> taken_rows(const std::string& lines, const SweepConfig& sweep,
                                       const SweepPlan& plan);

// ---- The members' own files -------------------------------------------------------------------

// The files of the members named in output.members, written by the rank that runs the member
// into members/<m>/ (made beforehand by the root): what fhn run writes of its config. The frames
// and kymograph from its frames (output.every); activation.vti from the times its batch records
// at every step (MemberBatch::record_activation), as fhn run's scheme does; probes.csv at the
// probes' own cadence (output.probes_every), read from the batch as fhn run reads its scheme
// (ProbeSampler), and from those samples restitution.csv and cv.csv (output.restitution).
struct MemberOutput {
  index_t member = 0;
  const Config* config = nullptr;
  std::filesystem::path dir;
  std::vector<std::unique_ptr<FrameSink>> sinks;
  index_t frames = 0;
  std::optional<ProbeSampler> probes;  // with probes.csv
  std::unique_ptr<ProbesCsv> probes_csv;
  std::unique_ptr<RestitutionTracker> restitution;
};

// Member m (`local` in `batch`, whose activation times it then records where its config maps
// them) of config `c` and problem `problem`, into `dir`. Before the batch's first step.
std::unique_ptr<MemberOutput> open_member_output(const std::filesystem::path& dir, index_t m,
                                                 const Config& c, const Problem& problem,
                                                 MemberBatch& batch, index_t local);

void write_member_frame(MemberOutput& out, const MemberBatch& batch, index_t local);

// The probes' sample at `step` (output.probes_every; nothing without probes): a row of
// probes.csv and the beats it shows.
void sample_member_probes(MemberOutput& out, const MemberBatch& batch, index_t local, index_t step);

// The member's files closed: the frames' writers finished, restitution.csv and cv.csv written.
void finish_member_output(MemberOutput& out);

// ---- run.log ----------------------------------------------------------------------------------

// run.log is the root's. The other ranks hold their lines (batches, failures) until the members
// are done; then the root appends them, each prefixed with its rank ("rank 1: batch 1/2: ...").
class SweepLog {
 public:
  // Root only: opens run.log (throws IoError), after what it holds when `append`.
  void open(const std::filesystem::path& file, bool append) { log_.emplace(file, append); }
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
  index_t finished = 0;  // members with a complete row (all, unless interrupted)
  index_t taken = 0;     // of them, those taken over from an earlier, interrupted sweep
  index_t propagated = 0;
  std::vector<index_t> kinds;  // sheets: members per class, in kTipPathKinds' order
  // Cables, root: where propagation switches along the first axis (propagation_edges).
  std::vector<PropagationEdge> edges;
  real smallest_propagating = std::numeric_limits<real>::quiet_NaN();  // NaN: none propagated
  real largest_propagating = std::numeric_limits<real>::quiet_NaN();
  // Root: the slowest rank's stepping seconds (and making, measuring), all ranks' batches, the
  // largest batch.
  double slowest = 0.0;
  double setup = 0.0;
  double measure = 0.0;
  double config_seconds = 0.0;  // the root's: reading and checking the members' configs
  index_t all_batches = 0;
  index_t largest_batch = 0;
};

// summary.json without "bench": the status ("interrupted" while members are not finished), the
// counts (members finished, taken over from an earlier sweep, failed), the scheme, the timings,
// the ranks' shares and, for cables, where propagation switches (`propagation`).
JsonObject sweep_summary(const SweepConfig& sweep, const SweepPlan& plan, const SweepTotals& totals,
                         const std::string& scheme_name, double wall_seconds, int ranks);

}  // namespace fhn::sweep_detail
