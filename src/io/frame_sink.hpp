#pragma once
// Everything that consumes the solution at the output cadence (VTK series, kymograph, probes,
// pulse tracking) implements FrameSink. The time loop hands each sink every frame, in order.
#include <string>

#include "core/types.hpp"
#include "grid/domain.hpp"

namespace fhn {

// One snapshot of the solution on the host. On a cable x holds the n node positions, which may
// differ from frame to frame (adaptive grid); on a sheet x is nullptr and the nodes are those of
// `domain` (v, w in node order i + N_x j).
struct FrameView {
  index_t index = 0;   // 0, 1, 2, ... in the order written
  index_t step = 0;    // time step number
  real t = 0.0;        // physical time
  index_t n = 0;       // node count
  const Domain* domain = nullptr;  // the run's uniform grid (a cable's base grid)
  const real* x = nullptr;
  const real* v = nullptr;
  const real* w = nullptr;

  bool sheet() const { return domain != nullptr && domain->dims >= 2; }
};

// Named arrays a checkpoint carries (SchemeState in schemes/scheme.hpp).
struct SchemeState;

class FrameSink {
 public:
  virtual ~FrameSink() = default;
  virtual void write(const FrameView& frame) = 0;
  // Called once when the run ends, normally or not; must leave valid files behind.
  virtual void finish() {}
  // A sink that accumulates over the frames (activation times, tip paths) adds what it needs
  // to continue exactly to a checkpoint (arrays named "<sink>.<what>") and takes it back on a
  // restart; the frame at the checkpoint's step, if any, was written before the checkpoint.
  // restore() returns false when the checkpoint holds nothing of this sink (it was switched on
  // at the restart): the sink then starts afresh.
  virtual void save(SchemeState&) const {}
  virtual bool restore(const SchemeState&) { return true; }
};

}  // namespace fhn
