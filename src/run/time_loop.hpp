#pragma once
// The time loop: advance the scheme, hand frames to the sinks at the output cadence, and watch
// for NaN/Inf. Nothing here knows which scheme or which writers are in use.
#include <string>
#include <vector>

#include "io/frame_sink.hpp"
#include "run/progress.hpp"
#include "schemes/scheme.hpp"

namespace fhn {

struct LoopSettings {
  index_t total_steps = 0;
  index_t frame_every = 1;   // steps between frames (a frame is also written at the end)
  index_t check_every = 50;  // steps between NaN/Inf checks (and at every frame)
  real dt = 0.0;
  std::string instability_hint;  // appended to the NaN/Inf message
};

struct LoopResult {
  index_t steps = 0;
  index_t frames = 0;
  double step_seconds = 0.0;  // time spent inside Scheme::advance
  Snapshot last;              // the last frame written
};

// Runs to total_steps, keeping `result` current as it goes. Throws NumericalError (state not
// finite) after the sinks have seen every finite frame; `result` then tells how far it got and
// the caller finishes the sinks.
void run_time_loop(Scheme& scheme, const LoopSettings& settings,
                   const std::vector<FrameSink*>& sinks, Progress& progress, LoopResult& result);

}  // namespace fhn
