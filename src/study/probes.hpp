#pragma once
// The probes read from a running scheme at their own cadence (output.probes_every), between
// frames too, without a frame: each probe's stencil (grid/interpolation.hpp) is found once, and
// each sample reads the stencils' nodes alone (Scheme::read_nodes: a device scheme copies back
// 16 bytes a node). The values are those FrameView::at reads from a frame at the same step, bit
// for bit (docs/ARCHITECTURE.md section 1).
#include <cstdint>
#include <vector>

#include "grid/domain.hpp"
#include "grid/interpolation.hpp"
#include "schemes/member_batch.hpp"
#include "schemes/scheme.hpp"

namespace fhn {

class ProbeSampler {
 public:
  // `outside`: the tissue mask (one byte per node, nullptr: every node tissue), which the
  // stencils keep.
  ProbeSampler(const Domain& domain, const std::vector<Point>& positions,
               const std::uint8_t* outside);
  // Reads v and w at every probe from the scheme's current state. Collective in a distributed
  // run (DistributedScheme); every rank gets the values. A scheme whose grid moves (the adaptive
  // grid, a host scheme) is read from its snapshot, as a frame would be.
  void read(const Scheme& scheme);
  // Reads them from member `member` of a sweep's batch (MemberBatch::read_nodes), as read() reads
  // the scheme fhn run makes of the member's config.
  void read(const MemberBatch& batch, index_t member);
  const std::vector<real>& v() const { return v_; }
  const std::vector<real>& w() const { return w_; }

 private:
  std::vector<Point> positions_;
  const std::uint8_t* outside_;
  std::vector<NodeStencil> stencils_;  // on the fixed grid (a cable's: line_stencil)
  std::vector<index_t> nodes_;         // every stencil's nodes, stencil after stencil
  std::vector<real> node_v_, node_w_;  // their values at the last read
  std::vector<real> v_, w_;

  // v_ and w_ from the stencils' node values just read.
  void interpolate();
};

}  // namespace fhn
