#pragma once
// fhn run's time loop: the events a single run registers with run_time_loop (run/time_loop.hpp):
// at each step the loop stops at, in this order, the NaN/Inf check (which throws on the first
// node not finite), the probes' sample, a frame to the sinks, the tips' and the filaments'
// samples, a sample of the pseudo-ECG, a checkpoint, progress, and the stop on a signal.
#include <csignal>
#include <functional>
#include <string>
#include <vector>

#include "grid/time_grid.hpp"
#include "io/frame_sink.hpp"
#include "parallel/communicator.hpp"
#include "run/progress.hpp"
#include "run/time_loop.hpp"
#include "schemes/scheme.hpp"

namespace fhn {

// A measurement taken at the multiples of `every` steps from the start and at the end: take(step)
// (none when empty).
struct Sampling {
  index_t every = 1;
  std::function<void(index_t step)> take;
};

struct RunLoopSettings {
  TimeGrid time;             // dt, and the last step: the loop runs up to time.steps
  index_t frame_every = 1;   // steps between frames (a frame is also written at the end)
  // Measurements at their own cadence, independent of the frames: the probes
  // (output.probes_every), the spiral tips (output.tips.every), the scroll waves' filaments
  // (output.filaments.every).
  Sampling probes, tips, filaments;
  index_t check_every = 50;  // steps between NaN/Inf checks (rounded up to a multiple of the
                             // scheme's steps_per_pass; and wherever the loop stops)
  std::string instability_hint;  // appended to the NaN/Inf message
  index_t first_frame_index = 0;  // frames an interrupted earlier part of the run already wrote
  index_t checkpoint_every = 0;   // steps between checkpoints (0: none)
  std::function<void()> checkpoint;  // writes one at the scheme's current step
  // Set (by a signal handler) to stop: the loop then checkpoints and throws InterruptedError.
  const volatile std::sig_atomic_t* interrupted = nullptr;
  // The ranks of a distributed run (nullptr: one process): they agree on stopping when any of
  // them was interrupted, so all stop at the same step.
  Communicator* comm = nullptr;
  // The tissue mask each frame carries (FrameView::outside); nullptr: every node is tissue.
  const std::uint8_t* outside = nullptr;
  // The pseudo-ECG (output.ecg): steps between its samples (0: none; a sample also at the start
  // and the end, as frames) and the sink that takes each snapshot (nullptr on the ranks other
  // than the root of a distributed run, which take part in the snapshot, a collective).
  index_t ecg_every = 0;
  FrameSink* ecg = nullptr;
};

// The loop's steps and stepping time, and the frames the run's frame event wrote.
struct RunLoopResult : LoopResult {
  index_t frames = 0;
  Snapshot last;  // the last frame written
};

// Runs the scheme from its current step to time.steps, keeping `result` current as it goes.
// In a distributed run every rank runs this loop with the same settings (sinks on the root only);
// the scheme's collectives then line up.
// Frames fall on the steps that are multiples of frame_every (and the last), so a restarted run
// writes exactly the frames the uninterrupted one would have. Throws NumericalError (state not
// finite) after the sinks have seen every finite frame, InterruptedError after a checkpoint when
// interrupted; `result` then tells how far it got and the caller finishes the sinks.
void advance_run(Scheme& scheme, const RunLoopSettings& settings,
                 const std::vector<FrameSink*>& sinks, Progress& progress, RunLoopResult& result);

}  // namespace fhn
