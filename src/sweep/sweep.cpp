// `fhn sweep` (sweep.hpp): run_sweep drives a sweep in named steps: the plan (plan.cpp), the
// output folder and run.log (write.cpp), this rank's members batch after batch through
// MemberBatch (sampling the probes, recording failures; here), the ranks' rows and counts
// gathered at the root (here), then sweep.csv, summary.json (write.cpp) and --bench (bench.cpp).
#include "sweep/sweep.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>

#include "core/cuda_device_select.hpp"
#include "core/error.hpp"
#include "core/first_error.hpp"
#include "core/format.hpp"
#include "core/interrupt.hpp"
#include "io/atomic_file.hpp"
#include "model/problem.hpp"
#include "parallel/communicator.hpp"
#include "run/progress.hpp"
#include "run/time_loop.hpp"
#include "schemes/member_batch.hpp"
#include "sweep/bench.hpp"
#include "sweep/plan.hpp"
#include "sweep/write.hpp"

namespace fs = std::filesystem;

namespace fhn::sweep_detail {
namespace {

// What this rank's members gave: their rows, failures and stepping time, and its batches.
struct RankRun {
  std::vector<MemberRow> rows;  // rows[j]: member mine.first + j
  std::vector<index_t> pending;   // the members it runs: those not taken over, in member order
  bool interrupted = false;     // stopped by a signal before all of `pending` finished
  index_t failed = 0;
  double step_seconds = 0.0;
  double setup_seconds = 0.0;    // the members' problems and batches
  double measure_seconds = 0.0;  // probes sampled, tips found
  std::string scheme_name;
  index_t batches = 0, per_batch = 0;
};

// Root: sweep.csv with the rows finished so far (the root's: members 0, 1, ... of its share,
// taken over or run), then finished.csv listing them, so that the one never names a row the
// other lacks.
void write_finished_rows(const SweepConfig& sweep, const SweepPlan& plan, const fs::path& dir,
                         const std::string& row_lines, MemberDigests& digests) {
  write_file_atomically(dir / "sweep.csv", sweep_csv_header(sweep, plan) + row_lines);
  write_file_atomically(dir / "finished.csv", finished_csv(row_lines, digests));
}

// Batch b of the members this rank runs (run.pending; run.per_batch of them, the last perhaps
// fewer) in lockstep: their rows in `run` measured and failures recorded, the output.members'
// files written, and, on the root, sweep.csv and finished.csv rewritten with the rows finished so
// far. A member whose problem cannot be made (a spiral start in a medium without an excursion) is
// a failed row and stays out of the batch. Returns false when a signal (`interrupt`) stopped
// the batch: its members are then not finished (but those without a start, whose rows are
// complete), and their files are removed (none is left looking complete).
bool run_batch(const SweepConfig& sweep, const SweepOptions& options, const SweepPlan& plan,
               const Communicator& comm, const fs::path& dir, index_t b, RankRun& run,
               Progress& progress, std::vector<real>& sampled, SweepLog& log,
               const InterruptGuard& interrupt, MemberDigests& digests) {
  const std::vector<Config>& configs = plan.configs;
  const Config& c0 = configs[0];
  const Range& mine = plan.mine;
  const index_t total_steps = plan.total_steps;
  const index_t sample_every = plan.sample_every;
  const index_t check_every = plan.check_every;
  const auto pending_count = static_cast<index_t>(run.pending.size());
  const index_t local = b * run.per_batch;  // run.pending[local] is the batch's first member
  const index_t size = std::min(run.per_batch, pending_count - local);
  // The batch's j-th member and its row.
  auto member_at = [&](index_t j) { return run.pending[static_cast<std::size_t>(local + j)]; };
  auto row_at = [&](index_t j) -> MemberRow& {
    return run.rows[static_cast<std::size_t>(member_at(j) - mine.first)];
  };

  // The members' problems, in parallel (a spiral start integrates each member's excursion).
  const auto setup_start = Clock::now();
  const int threads = options.threads > 0 ? options.threads : omp_get_max_threads();
  std::vector<std::optional<Problem>> made(static_cast<std::size_t>(size));
  std::vector<std::string> refused(static_cast<std::size_t>(size));
  {
    FirstError failed;
#pragma omp parallel for schedule(dynamic) num_threads(threads)
    for (index_t j = 0; j < size; ++j)
      failed.guard(j, [&] {
        try {
          made[static_cast<std::size_t>(j)].emplace(make_problem(configs[static_cast<std::size_t>(member_at(j))]));
        } catch (const ConfigError& e) {
          refused[static_cast<std::size_t>(j)] = e.what();
        }
      });
    failed.rethrow();
  }
  // The batch's members: member first + in_batch[k] is the MemberBatch's member k.
  std::vector<index_t> in_batch;
  std::vector<Config> batch_configs;
  std::vector<Problem> problems;
  for (index_t j = 0; j < size; ++j) {
    const auto at = static_cast<std::size_t>(j);
    if (!made[at]) {
      MemberRow& row = row_at(j);
      row.status = "setup_failure";
      row.reason = refused[at];
      ++run.failed;
      log.line(member_label(sweep, member_at(j)) + " has no start: " + row.reason);
      continue;
    }
    in_batch.push_back(j);
    batch_configs.push_back(configs[static_cast<std::size_t>(member_at(j))]);
    problems.push_back(std::move(*made[at]));
  }
  made.clear();
  const auto count = static_cast<index_t>(in_batch.size());
  auto row_of = [&](index_t k) -> MemberRow& { return row_at(in_batch[static_cast<std::size_t>(k)]); };
  auto member_of = [&](index_t k) { return member_at(in_batch[static_cast<std::size_t>(k)]); };
  std::unique_ptr<MemberBatch> batch;
  if (count > 0) batch = make_member_batch(problems, c0.scheme, options.threads);
  run.setup_seconds += seconds_since(setup_start);
  if (batch && run.scheme_name.empty()) {
    run.scheme_name = batch->name();
    log.line("scheme: " + run.scheme_name);
  }
  // The members' own files, by their index in the batch.
  std::vector<std::pair<index_t, std::unique_ptr<MemberOutput>>> outputs;
  for (index_t k = 0; k < count; ++k)
    if (std::count(sweep.output_members.begin(), sweep.output_members.end(), member_of(k)) > 0)
      outputs.emplace_back(k, open_member_output(dir / "members" / std::to_string(member_of(k)),
                                                 member_of(k), batch_configs[static_cast<std::size_t>(k)],
                                                 problems[static_cast<std::size_t>(k)], *batch, k));
  const index_t frame_every = c0.output.every_steps;

  // Sheets: each member's tips, followed as fhn run follows them (tips.csv for output.members).
  std::vector<std::unique_ptr<TipTracker>> tips;
  if (plan.sheet)
    for (index_t k = 0; k < count; ++k) {
      const TipSpec& spec = batch_configs[static_cast<std::size_t>(k)].output.tips;
      const bool written = std::count(sweep.output_members.begin(), sweep.output_members.end(), member_of(k)) > 0;
      tips.push_back(std::make_unique<TipTracker>(
          written ? dir / "members" / std::to_string(member_of(k)) / "tips.csv" : fs::path(),
          spec.v_iso, spec.w_iso, false, std::vector<std::uint8_t>{},
          TipPathLimits{spec.breakup, spec.drift, spec.meander}));
    }
  // The batch finds the cells where a tip may lie (on the GPU: only those cells travel to the
  // host); each member's tips are solved from them as fhn run solves them from its frame.
  std::vector<real> v_levels, w_levels;
  for (const Config& c : batch_configs) {
    v_levels.push_back(c.output.tips.v_iso);
    w_levels.push_back(c.output.tips.w_iso);
  }
  std::vector<std::vector<IsoCell>> cells;
  std::vector<index_t> excited;
  auto find_tips_of_members = [&](index_t step) {
    batch->iso_cells(v_levels, w_levels, cells, excited);
    const real t = c0.time.grid().t(step);
    FirstError failed;
#pragma omp parallel for schedule(dynamic) num_threads(threads)
    for (index_t k = 0; k < count; ++k)
      failed.guard(k, [&] {
        if (row_of(k).status != "ok") return;  // frozen
        const auto at = static_cast<std::size_t>(k);
        tips[at]->write_tips(t, c0.domain, tips_in_cells(c0.domain, cells[at], v_levels[at], w_levels[at]),
                             excited[at]);
      });
    failed.rethrow();
  };

  // The batch's time loop (run/time_loop.hpp), its events at each step it stops at in this
  // order: the members' finiteness checked (a member not finite is frozen, the others go on),
  // the failures found since the last stop recorded (that check's, and Newton's, which freeze a
  // member as it steps), probes sampled or tips found, the output members' probes (at their own
  // cadence) and frames, progress, and the stop on a signal.
  auto measure_probes_or_tips = [&](index_t step) {
    if (plan.sheet) return find_tips_of_members(step);
    const real t = c0.time.grid().t(step);
    sample_probes(*batch, plan.where, sampled,
                  [&](index_t k, const real* v) { row_of(k).measured.sample(t, v); });
  };
  auto record_failures = [&] {
    for (const MemberFailure& f : batch->take_failures()) {
      MemberRow& row = row_of(f.member);
      row.status = "numerical_failure";
      row.reason = f.reason;
      ++run.failed;
      log.line(member_label(sweep, member_of(f.member)) + " failed at step " + std::to_string(f.step) +
               ": " + f.reason);
    }
  };
  // A signal between steps: the members' files are closed, then removed with their folders'
  // contents (a member not finished leaves nothing that looks finished); their rows stay not
  // done. The loop then stops (InterruptedError).
  auto stop_batch = [&](const std::string& what) {
    std::vector<index_t> written;
    for (const auto& entry : outputs) written.push_back(member_of(entry.first));
    outputs.clear();
    tips.clear();
    for (index_t m : written) {
      const fs::path folder = dir / "members" / std::to_string(m);
      fs::remove_all(folder);
      create_folder(folder, "the member's output folder");
    }
    // A member without a start has its complete row; one that failed during the steps is
    // counted when it finishes (its row is made again, the same, when the sweep continues).
    for (index_t j = 0; j < size; ++j) {
      MemberRow& row = row_at(j);
      if (row.status == "setup_failure")
        row.done = true;
      else if (row.status != "ok")
        --run.failed;
    }
    log.line("batch " + std::to_string(b + 1) + "/" + std::to_string(run.batches) + ": " + what +
             "; its members " + std::to_string(member_at(0)) + ".." +
             std::to_string(member_at(size - 1)) + " are not finished");
    throw InterruptedError(what);
  };
  if (batch) {
    using E = LoopEvent;
    std::vector<LoopEvent> events;
    events.push_back(
        {check_every, E::kWholePasses | E::kAtEnd, [&](index_t) { batch->check_finite(); }});
    events.push_back({0, E::kAtEveryStop, [&](index_t) { record_failures(); }});
    events.push_back({sample_every, E::kAtStart | E::kAtEnd, [&](index_t step) {
                        const auto t0 = Clock::now();
                        measure_probes_or_tips(step);
                        run.measure_seconds += seconds_since(t0);
                      }});
    // The output members' probes at their own cadence, while the member runs (fhn run stops at
    // a failure).
    for (auto& [k, o] : outputs)
      if (o->probes)
        events.push_back({o->config->output.probes_every_steps, E::kAtStart | E::kAtEnd,
                          [&, k = k, o = o.get()](index_t step) {
                            if (row_of(k).status == "ok") sample_member_probes(*o, *batch, k, step);
                          }});
    if (!outputs.empty())
      events.push_back({frame_every, E::kAtStart | E::kAtEnd, [&](index_t) {
                          for (auto& [k, o] : outputs) write_member_frame(*o, *batch, k);
                        }});
    events.push_back(
        {0, E::kAtEveryStop, [&](index_t step) { progress.update(local * total_steps + step * size); }});
    events.push_back({0, E::kAtEveryStop, [&](index_t step) {
                        if (interrupt.interrupted() && step < total_steps)
                          stop_batch("interrupted at step " + std::to_string(step) + " of " +
                                     std::to_string(total_steps));
                      }});
    LoopResult stepped;
    try {
      run_time_loop(*batch, total_steps, events, stepped);
    } catch (const InterruptedError&) {
      run.step_seconds += stepped.step_seconds;
      return false;
    }
    run.step_seconds += stepped.step_seconds;
  }
  // measure.planar: the members' planar pulses, one batch of cables (sweep/planar.hpp).
  std::vector<std::optional<PlanarPulse>> planar;
  if (plan.planar && count > 0) {
    const auto t0 = Clock::now();
    planar = run_planar_pulses(batch_configs, options.threads,
                               [&] { return interrupt.interrupted(); });
    run.measure_seconds += seconds_since(t0);
    if (planar.empty()) {
      try {
        stop_batch("interrupted during the planar pulses");
      } catch (const InterruptedError&) {
        return false;
      }
    }
  }
  for (auto& [k, o] : outputs) finish_member_output(*o);

  // The members' final state, tips (the tip path's analysis, a spectrum per member: in
  // parallel) and Newton statistics.
  const auto final_start = Clock::now();
  FirstError failed;
#pragma omp parallel num_threads(threads)
  {
    Snapshot snap;  // one per thread, reused
#pragma omp for schedule(dynamic)
    for (index_t k = 0; k < count; ++k)
      failed.guard(k, [&] {
        MemberRow& row = row_of(k);
        if (plan.sheet && row.status == "ok") {
          const TipTracker& t = *tips[static_cast<std::size_t>(k)];
          row.tips = MemberTips{t.tips_at_end(), t.frames_with_tips(), t.rotation(), t.path_analysis()};
          if (plan.planar) {
            row.planar = planar[static_cast<std::size_t>(k)];
            row.tips->path.kind = planar_class(row.tips->path.kind, row.planar);
          }
        }
        batch->snapshot(k, snap);
        if (row.status == "ok") row.max_v = *std::max_element(snap.v.begin(), snap.v.end());
        if (const NewtonStats* stats = batch->newton_stats(k); stats && stats->steps() > 0) {
          row.newton_mean = stats->mean_iterations();
          row.newton_max = stats->max_iterations();
        }
      });
  }
  failed.rethrow();
  run.measure_seconds += seconds_since(final_start);
  for (index_t j = 0; j < size; ++j) row_at(j).done = true;
  // Complete rows only: the root's members finished so far. The last batch's rows are written
  // with the other ranks' ones (run_sweep).
  if (comm.root() && b + 1 < run.batches)
    write_finished_rows(sweep, plan, dir, sweep_csv_rows(run.rows, plan), digests);
  log.line("batch " + std::to_string(b + 1) + "/" + std::to_string(run.batches) + ": members " +
           std::to_string(member_at(0)) + ".." + std::to_string(member_at(size - 1)) + " done, " +
           format_exact(run.step_seconds) + " s stepping, " + format_exact(run.setup_seconds) +
           " s making the members, " + format_exact(run.measure_seconds) + " s measuring them so far");
  return true;
}

// This rank's members, batch after batch, on its own: no communication. The members an earlier,
// interrupted sweep finished (`taken`) keep its rows and are not run. A signal stops it between
// steps (RankRun::interrupted). An error here is this rank's alone: with several ranks it ends
// them all (stop_every_rank).
RankRun run_members(const SweepConfig& sweep, const SweepOptions& options, const SweepPlan& plan,
                    Communicator& comm, const fs::path& dir, SweepLog& log,
                    std::map<index_t, TakenRow>& taken, const InterruptGuard& interrupt,
                    MemberDigests& digests) {
  const std::vector<Config>& configs = plan.configs;
  const Config& c0 = configs[0];
  const Range& mine = plan.mine;
  const index_t total_steps = plan.total_steps;
  RankRun run;
  for (index_t m = mine.first; m < mine.end(); ++m) {
    const Config& c = configs[static_cast<std::size_t>(m)];
    const real threshold = sweep.measure.threshold.value_or(
        with_kinetics(c.model.kinetics, [](const auto& k) { return k.levels().v; }));
    MemberRow row{m, sweep_member_values(sweep, m), false, std::nullopt, "ok", "",
                  MemberMeasurements(plan.probes, threshold, stimulus_pulses(c)), std::nullopt,
                  std::nullopt};
    if (const auto it = taken.find(m); it != taken.end()) {
      row.done = true;
      row.status = it->second.status;
      row.taken = std::move(it->second);
      if (row.status != "ok") ++run.failed;
    } else {
      run.pending.push_back(m);
    }
    run.rows.push_back(std::move(row));
  }
  const auto pending_count = static_cast<index_t>(run.pending.size());
  if (pending_count < mine.count)
    log.line("taken over: " + std::to_string(mine.count - pending_count) + " members finished by an "
             "earlier run into this folder (finished.csv: the same config digest), not run again");
  try {
    const int device = c0.scheme.backend == Backend::cuda ? select_cuda_device(comm.local_rank()) : -1;
    std::string batch_why;
    run.per_batch =
        std::max<index_t>(1, members_per_batch(sweep, c0, pending_count, device, comm, batch_why));
    run.batches = (pending_count + run.per_batch - 1) / run.per_batch;
    log.line("batches: " + std::to_string(run.batches) + " of at most " +
             std::to_string(run.per_batch) + " members (" + batch_why + ")");
    // Progress: the root's own members (the shares are balanced: it tracks the whole sweep).
    Progress progress(pending_count * total_steps, "member-steps", !options.quiet && comm.root());
    std::vector<real> sampled;

    for (index_t b = 0; b < run.batches && !run.interrupted; ++b)
      run.interrupted = interrupt.interrupted() ||
                        !run_batch(sweep, options, plan, comm, dir, b, run, progress, sampled, log,
                                   interrupt, digests);
    if (!run.interrupted) progress.finish(pending_count * total_steps);
  } catch (...) {
    if (comm.size() == 1) throw;
    // The others would wait for this rank in run_sweep's gather, forever (or, were the error made
    // collective there, until they finished their members, perhaps hours later).
    stop_every_rank(comm, std::current_exception());
  }
  return run;
}

// Whether a finished member propagated, and the class of a finished sheet member's tip path
// ("" for a failed one), taken over or run; nothing of a member not finished.
bool propagated(const MemberRow& r) {
  return r.done && (r.taken ? r.taken->propagated : r.measured.propagated());
}
std::string tip_path_kind(const MemberRow& r) {
  if (!r.done) return "";
  if (r.taken) return r.taken->kind;
  return r.tips ? r.tips->path.kind : "";
}

// Collective: every rank's finished rows (as their sweep.csv lines) and stepping time at the
// root, the finished, failure and propagation counts on every rank, and the propagation edges at
// the root.
SweepTotals gather_totals(const SweepConfig& sweep, const SweepPlan& plan, const RankRun& run,
                          Communicator& comm) {
  const std::vector<MemberRow>& rows = run.rows;
  SweepTotals totals;
  totals.row_lines = comm.gather(sweep_csv_rows(rows, plan));
  // Per rank: stepping seconds, batches, members per batch.
  totals.per_rank_numbers =
      comm.gather(std::vector<real>{run.step_seconds, static_cast<real>(run.batches),
                                    static_cast<real>(run.per_batch), run.setup_seconds,
                                    run.measure_seconds});
  // Root: stepping time, the slowest rank's (the ranks step at the same time); batches: all ranks'.
  for (int r = 0; comm.root() && r < comm.size(); ++r) {
    const real* numbers = &totals.per_rank_numbers[kRankNumbers * static_cast<std::size_t>(r)];
    totals.slowest = std::max(totals.slowest, numbers[0]);
    totals.setup = std::max(totals.setup, numbers[3]);
    totals.measure = std::max(totals.measure, numbers[4]);
    totals.all_batches += static_cast<index_t>(numbers[1]);
    totals.largest_batch = std::max(totals.largest_batch, static_cast<index_t>(numbers[2]));
  }
  auto total = [&](index_t local) {
    return static_cast<index_t>(std::llround(comm.sum(static_cast<double>(local))));
  };
  totals.failed = total(run.failed);
  totals.finished = total(std::count_if(rows.begin(), rows.end(), [](const MemberRow& r) { return r.done; }));
  totals.taken = total(std::count_if(rows.begin(), rows.end(), [](const MemberRow& r) { return r.taken.has_value(); }));
  if (plan.sheet) {
    // Members per class of their tip path.
    for (const char* kind : kTipPathKinds)
      totals.kinds.push_back(total(std::count_if(rows.begin(), rows.end(), [&](const MemberRow& r) {
        return tip_path_kind(r) == kind;
      })));
    return totals;
  }
  index_t local_propagated = 0;
  for (const MemberRow& r : rows) local_propagated += propagated(r) ? 1 : 0;
  totals.propagated = total(local_propagated);
  // Where propagation switches (the refractory period of a restitution sweep, the threshold of a
  // stimulus sweep, the excitability beyond which pulses fail): every rank's members that ran to
  // their end, as (axis values, propagated) rows at the root (a failed member tells nothing).
  std::vector<real> local;
  for (const MemberRow& r : rows) {
    if (!r.done || r.status != "ok") continue;
    local.insert(local.end(), r.values.begin(), r.values.end());
    local.push_back(propagated(r) ? 1.0 : 0.0);
  }
  const std::vector<real> all = comm.gather(local);
  const std::size_t width = sweep.axes.size() + 1;
  std::vector<PropagationPoint> points;
  for (std::size_t at = 0; at + width <= all.size(); at += width) {
    PropagationPoint p{{all.begin() + at, all.begin() + at + width - 1}, all[at + width - 1] > 0.5};
    if (p.propagated) {  // fmin and fmax pass over the NaN of "none yet"
      totals.smallest_propagating = std::fmin(totals.smallest_propagating, p.values[0]);
      totals.largest_propagating = std::fmax(totals.largest_propagating, p.values[0]);
    }
    points.push_back(std::move(p));
  }
  totals.edges = propagation_edges(std::move(points));
  return totals;
}

// "0..7, 12": the members that begin the sweep.csv lines of `row_lines`, as ranges.
std::string member_ranges(const std::vector<std::string>& row_lines) {
  std::vector<index_t> members;
  for (const std::string& lines : row_lines) {
    std::istringstream in(lines);
    for (std::string line; std::getline(in, line);) members.push_back(std::stoll(line));
  }
  std::string text;
  for (std::size_t i = 0; i < members.size();) {
    std::size_t j = i;
    while (j + 1 < members.size() && members[j + 1] == members[j] + 1) ++j;
    text += (text.empty() ? "" : ", ") + std::to_string(members[i]) +
            (j > i ? ".." + std::to_string(members[j]) : "");
    i = j + 1;
  }
  return text.empty() ? "none" : text;
}

// What an interrupted sweep says (stderr and run.log): the members finished and how to continue.
std::string interruption_message(const SweepConfig& sweep, const SweepOptions& options,
                                 const SweepPlan& plan, const SweepTotals& totals,
                                 const Communicator& comm, const fs::path& dir) {
  std::string command;
  if (comm.size() > 1) command = "mpirun -np " + std::to_string(comm.size()) + " ";
  command += "fhn sweep " + shell_quoted(sweep.source);
  for (const std::string& set : options.overrides) command += " --set " + shell_quoted(set);
  command += " --output " + shell_quoted(dir.string());
  return "interrupted: " + std::to_string(totals.finished) + " of " + std::to_string(plan.count) +
         " members finished (" + member_ranges(totals.row_lines) + "), their rows in " +
         (dir / "sweep.csv").string() + " (finished.csv lists them)\n  continue with: " + command +
         "\n  (the same command into the same folder takes over the finished members, checked "
         "by their config digest, and runs the others)";
}

}  // namespace
}  // namespace fhn::sweep_detail

namespace fhn {

SweepResult run_sweep(const SweepConfig& sweep, const SweepOptions& options, std::ostream& out) {
  using namespace sweep_detail;
  const auto started = Clock::now();
  std::unique_ptr<Communicator> serial;
  Communicator& comm = options.comm ? *options.comm : *(serial = make_serial_communicator());
  FHN_VERIFY(options.bench_members == 0 || comm.size() == 1, ConfigError,
             "--bench times the sweep against its members run one after another in one process; "
             "run it without mpirun (" + comm.describe() + ")");

  // 1. Every rank reads every member's config (the same on all ranks, so a config error is
  //    thrown on every rank) and takes its share of the members; first, whether it can hold
  //    them: the root's verdict, for all (a rank's own reading of its free memory could differ).
  const InterruptGuard interrupt;  // SIGINT, SIGTERM, SIGUSR1: a clean stop between steps
  const SweepPlan plan = plan_sweep(sweep, options, comm);
  const double config_seconds = seconds_since(started);

  // 2. The root makes the output folder and the members' folders, opens run.log and writes
  //    config.yaml, all proven writable before the first step. The broadcast of its outcome
  //    tells every rank of a failure (all throw) and orders the other ranks' first writes into
  //    members/<m>/ after the folders exist.
  const fs::path dir = options.output_dir.empty() ? fs::path("output") / sweep.name : options.output_dir;
  SweepLog log;
  std::optional<OutputFolder> folder;  // the root's, locked until the sweep returns
  open_sweep_outputs(sweep, options, plan, comm, dir, folder, log);
  log.line("configs: " + std::to_string(plan.count) + " members' configs read and checked in " +
           format_exact(config_seconds) + " s");

  // 3. The members that an earlier sweep into this folder finished, and this one would compute
  //    again (the same config digest): the root reads them (finished.csv, sweep.csv), each rank
  //    takes over its own rows.
  MemberDigests digests(sweep, plan);
  std::string finished;
  if (comm.root()) finished = finished_lines(sweep, plan, dir, digests);
  comm.broadcast(finished, 0);
  std::map<index_t, TakenRow> taken = taken_rows(finished, sweep, plan);

  // 4. Each rank runs its other members, batch after batch, on its own: no communication; a
  //    signal stops it between steps, its finished members kept.
  const RankRun run = run_members(sweep, options, plan, comm, dir, log, taken, interrupt, digests);

  // 5. The root gathers every rank's finished rows (as their sweep.csv lines), held log lines,
  //    failure and propagation counts and stepping time; every rank learns the totals.
  SweepTotals totals = gather_totals(sweep, plan, run, comm);
  totals.config_seconds = config_seconds;
  const bool interrupted = comm.any(run.interrupted);
  log.gather(comm);  // the last collective: an error writing run.log is the root's alone
  const std::string stopped =
      interrupted ? interruption_message(sweep, options, plan, totals, comm, dir) : "";

  SweepResult result;
  result.output_dir = dir;
  result.members = plan.count;
  result.failed = totals.failed;
  if (!comm.root()) {
    if (interrupted) throw InterruptedError(stopped);
    result.wall_seconds = seconds_since(started);
    return result;
  }

  // 6. The root writes sweep.csv (every finished member's row, in member order), finished.csv
  //    and summary.json. No collective follows: an error here is thrown on the root alone.
  std::string row_lines;
  for (const std::string& lines : totals.row_lines) row_lines += lines;
  write_finished_rows(sweep, plan, dir, row_lines, digests);
  result.wall_seconds = seconds_since(started);
  JsonObject s =
      sweep_summary(sweep, plan, totals, run.scheme_name, result.wall_seconds, comm.size());
  if (interrupted) {
    write_file_atomically(dir / "summary.json", s.str(2) + "\n");
    log.line("stopped: " + stopped);
    throw InterruptedError(stopped);
  }
  if (options.bench_members > 0)
    s.add("bench", bench_sequential_members(plan, options.bench_members, dir, result.wall_seconds,
                                            log, out));
  write_file_atomically(dir / "summary.json", s.str(2) + "\n");
  std::string counted = std::to_string(totals.propagated) + " propagated";
  if (plan.sheet) {
    counted.clear();
    for (std::size_t k = 0; k < totals.kinds.size(); ++k)
      if (totals.kinds[k] > 0)
        counted += (counted.empty() ? "" : ", ") + std::to_string(totals.kinds[k]) + " " + kTipPathKinds[k];
  }
  log.line("done: " + std::to_string(plan.count) + " members (" + std::to_string(totals.failed) +
           " failed" + (counted.empty() ? "" : ", " + counted) +
           (totals.taken > 0 ? ", " + std::to_string(totals.taken) + " taken over" : "") + "), " +
           format_exact(result.wall_seconds) + " s wall, " + format_exact(totals.slowest) +
           " s stepping (the slowest rank)");
  return result;
}

}  // namespace fhn
