#pragma once
// Everything that consumes the solution at the output cadence (VTK series, kymograph, probes,
// pulse tracking) implements FrameSink. The time loop hands each sink every frame, in order.
#include <cstdint>
#include <string>

#include "core/types.hpp"
#include "grid/domain.hpp"

namespace fhn {

// One snapshot of the solution on the host. The geometry is `domain` alone: v and w sit on its
// nodes (node order i + N_x j on a sheet), or, on the adaptive grid, whose nodes may differ from
// frame to frame, on the base-grid nodes that `nodes` lists.
struct FrameView {
  index_t index = 0;   // 0, 1, 2, ... in the order written
  index_t step = 0;    // time step number
  real t = 0.0;        // physical time
  index_t n = 0;       // node count
  const Domain* domain = nullptr;  // the run's uniform grid (the adaptive grid's base grid)
  const index_t* nodes = nullptr;  // adaptive grid: the base-grid node of each value, ascending;
                                   // nullptr: value i on node i of domain
  const real* v = nullptr;
  const real* w = nullptr;
  // The tissue mask (`tissue:`), one byte per node of domain, non-zero where there is no tissue
  // (NodeType in model/parameter_fields.hpp); nullptr: every node is tissue.
  const std::uint8_t* outside = nullptr;
  // The activation times the scheme recorded up to this frame (Snapshot::activation_first,
  // activation_last; nullptr: none recorded, or not kept).
  const real* activation_first = nullptr;
  const real* activation_last = nullptr;

  bool sheet() const { return domain->dims >= 2; }
  // Where the values of a cable sit along x.
  CablePositions x() const { return {domain, nodes}; }
  // `values` (v or w) at p, as the probes read them: linear between a cable's nodes (an
  // adaptive grid's too), bilinear on a sheet, trilinear in a box, from the tissue nodes of p's
  // cell alone where there is a mask (grid/interpolation.hpp; NaN where none carries weight,
  // which the config's checks refuse for the probes).
  real at(const real* values, const Point& p) const;
};

// Named arrays a checkpoint carries, and a host snapshot (grid/snapshot.hpp).
struct SchemeState;
struct Snapshot;

// What the sinks see of a host snapshot: frame number `index` (pointers into snap, its domain
// included; no mask: the caller sets `outside` where there is one).
FrameView frame_view(const Snapshot& snap, index_t index);

class FrameSink {
 public:
  virtual ~FrameSink() = default;
  virtual void write(const FrameView& frame) = 0;
  // Called once when the run ends, normally or not; must leave valid files behind.
  virtual void finish() {}
  // Checkpoints. save() is called at every checkpoint: a sink that accumulates over the frames
  // (activation times, tip paths, front positions) adds what it needs to continue exactly
  // (arrays named "<sink>.<what>"), and a sink with files brings them up to the checkpoint on
  // disk (buffered rows flushed, an image rewritten), so that a run killed after the checkpoint
  // continues from it whole. restore() takes the arrays back on a restart (the frame at the
  // checkpoint's step, if any, was written before the checkpoint and comes again) and throws
  // IoError on values out of range. It returns what it could not recover, as a sentence for
  // run.log and stderr (e.g. the checkpoint holds nothing of a sink switched on at the
  // restart, which then starts afresh), or "" when it continues whole.
  virtual void save(SchemeState&) {}
  virtual std::string restore(const SchemeState&) { return {}; }
};

}  // namespace fhn
