#include "run/run_loop.hpp"

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
                                    const RunLoopSettings& s) {
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

void advance_run(Scheme& scheme, const RunLoopSettings& s, const std::vector<FrameSink*>& sinks,
                 Progress& progress, RunLoopResult& result) {
  result = RunLoopResult{};
  const index_t end = s.time.steps;
  index_t last_good = scheme.steps_done();
  index_t frame_index = s.first_frame_index;
  index_t frame_step = -1;  // the step of the last frame, whose snapshot is result.last
  Snapshot sample;          // the ECG's snapshot where no frame was taken at its step
  std::vector<LoopEvent> events;
  // The NaN/Inf check wherever the loop stops (before a frame or checkpoint takes the state), at
  // least every check_every steps: on whole passes of the scheme, frames and checkpoints fall
  // where the user put them.
  events.push_back({s.check_every, LoopEvent::kWholePasses | LoopEvent::kAtEveryStop, [&](index_t step) {
                      const index_t bad = scheme.first_non_finite();
                      if (bad >= 0) report_non_finite(scheme, bad, last_good, s);
                      last_good = step;
                    }});
  auto add_sampling = [&](const Sampling& m) {
    if (m.take) events.push_back({m.every, LoopEvent::kAtStart | LoopEvent::kAtEnd, m.take});
  };
  add_sampling(s.probes);
  events.push_back({s.frame_every, LoopEvent::kAtStart | LoopEvent::kAtEnd, [&](index_t step) {
                      emit_frame(scheme, frame_index++, sinks, result.last, s.outside);
                      ++result.frames;
                      frame_step = step;
                    }});
  add_sampling(s.tips);
  add_sampling(s.filaments);
  // The pseudo-ECG at its own cadence, from the frame's snapshot where one was just taken.
  if (s.ecg_every > 0)
    events.push_back({s.ecg_every, LoopEvent::kAtStart | LoopEvent::kAtEnd, [&](index_t step) {
                        if (step != frame_step) scheme.snapshot(sample);
                        if (!s.ecg) return;
                        FrameView view = frame_view(step == frame_step ? result.last : sample, 0);
                        view.outside = s.outside;
                        s.ecg->write(view);
                      }});
  if (s.checkpoint_every > 0 && s.checkpoint)
    events.push_back({s.checkpoint_every, 0, [&](index_t step) {
                        if (step < end) s.checkpoint();  // the end needs none
                      }});
  events.push_back({0, LoopEvent::kAtEveryStop, [&](index_t step) { progress.update(step); }});
  events.push_back({0, LoopEvent::kAtEveryStop, [&](index_t step) {
                      const bool interrupted = s.interrupted && *s.interrupted;
                      if (!(s.comm ? s.comm->any(interrupted) : interrupted)) return;
                      if (s.checkpoint) s.checkpoint();
                      progress.finish(step);
                      throw InterruptedError("interrupted at t = " + format_exact(s.time.t(step)) +
                                             " (step " + std::to_string(step) + ")");
                    }});
  run_time_loop(scheme, end, events, result);
  progress.finish(end);
}

}  // namespace fhn
