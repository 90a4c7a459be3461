#pragma once
// Everything that consumes the solution at the output cadence (VTK series, kymograph, probes,
// pulse tracking) implements FrameSink. The time loop hands each sink every frame, in order.
#include <string>

#include "core/types.hpp"

namespace fhn {

// One snapshot of the solution on the host. x may differ from frame to frame (adaptive grid).
struct FrameView {
  index_t index = 0;   // 0, 1, 2, ... in the order written
  index_t step = 0;    // time step number
  real t = 0.0;        // physical time
  index_t n = 0;       // node count
  const real* x = nullptr;
  const real* v = nullptr;
  const real* w = nullptr;
};

class FrameSink {
 public:
  virtual ~FrameSink() = default;
  virtual void write(const FrameView& frame) = 0;
  // Called once when the run ends, normally or not; must leave valid files behind.
  virtual void finish() {}
};

}  // namespace fhn
