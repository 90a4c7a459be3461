#include "run/time_loop.hpp"

#include <algorithm>
#include <chrono>

#include "core/error.hpp"
#include "core/format.hpp"

namespace fhn {
namespace {

void emit_frame(Scheme& scheme, index_t index, const std::vector<FrameSink*>& sinks,
                Snapshot& snap, const std::uint8_t* outside) {
  scheme.snapshot(snap);
  FrameView view = frame_view(snap, index);
  view.outside = outside;
  for (FrameSink* sink : sinks) sink->write(view);
}

[[noreturn]] void report_non_finite(Scheme& scheme, index_t node, index_t last_good_step,
                                    const LoopSettings& s) {
  Snapshot snap;
  scheme.snapshot(snap);  // collective in a distributed run: the root receives the values
  if (s.comm && !s.comm->root())
    throw NumericalError("the solution stopped being finite (rank 0 reports where)");
  const real t_good = s.time.t(last_good_step);
  const real t_bad = s.time.t(snap.step);
  const std::string where =
      snap.domain.dims >= 2
          ? snap.domain.describe_node(node)
          : "x = " + format_exact(snap.x()[node]) + " (node " + std::to_string(node) + ")";
  throw NumericalError("the solution stopped being finite: v = " + format_exact(snap.v[node]) +
                       ", w = " + format_exact(snap.w[node]) + " at " + where +
                       ", appeared between t = " + format_exact(t_good) + " and t = " +
                       format_exact(t_bad) + " (steps " + std::to_string(last_good_step) + " to " +
                       std::to_string(snap.step) + ")" +
                       (s.instability_hint.empty() ? "" : ". Hint: " + s.instability_hint));
}

}  // namespace

void run_time_loop(Scheme& scheme, const LoopSettings& s, const std::vector<FrameSink*>& sinks,
                   Progress& progress, LoopResult& result) {
  using Clock = std::chrono::steady_clock;
  result = LoopResult{};
  const index_t start = scheme.steps_done();
  index_t last_good = start;
  index_t frame_index = s.first_frame_index;
  auto frame = [&] {
    emit_frame(scheme, frame_index++, sinks, result.last, s.outside);
    ++result.frames;
  };
  if (start % s.frame_every == 0) frame();
  // Checks on multiples of the scheme's pass, so that they cut no pass short (frames and
  // checkpoints fall where the user put them).
  const index_t pass = std::max<index_t>(scheme.steps_per_pass(), 1);
  const index_t check_every = (s.check_every + pass - 1) / pass * pass;

  for (index_t step = start; step < s.time.steps;) {
    // Advance to whichever comes first: the next frame, check, checkpoint, or the end.
    const index_t next_frame = (step / s.frame_every + 1) * s.frame_every;
    const index_t next_check = (step / check_every + 1) * check_every;
    const index_t next_checkpoint =
        s.checkpoint_every > 0 ? (step / s.checkpoint_every + 1) * s.checkpoint_every : s.time.steps;
    const index_t target = std::min({next_frame, next_check, next_checkpoint, s.time.steps});
    const auto t0 = Clock::now();
    scheme.advance(target - step);
    scheme.synchronize();  // the clock covers the steps themselves, not just their launch
    result.step_seconds += std::chrono::duration<double>(Clock::now() - t0).count();
    step = target;
    result.steps = step - start;

    const index_t bad = scheme.first_non_finite();
    if (bad >= 0) report_non_finite(scheme, bad, last_good, s);
    last_good = step;
    if (step == next_frame || step == s.time.steps) frame();
    if (s.checkpoint && step == next_checkpoint && step < s.time.steps) s.checkpoint();
    progress.update(step);
    const bool interrupted = s.interrupted && *s.interrupted;
    if (s.comm ? s.comm->any(interrupted) : interrupted) {
      if (s.checkpoint) s.checkpoint();
      progress.finish(step);
      throw InterruptedError("interrupted at t = " + format_exact(s.time.t(step)) +
                             " (step " + std::to_string(step) + ")");
    }
  }
  progress.finish(s.time.steps);
}

}  // namespace fhn
