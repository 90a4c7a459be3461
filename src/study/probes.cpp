#include "study/probes.hpp"

#include "io/frame_sink.hpp"

namespace fhn {

ProbeSampler::ProbeSampler(const Domain& domain, const std::vector<Point>& positions,
                           const std::uint8_t* outside)
    : positions_(positions), outside_(outside), v_(positions.size()), w_(positions.size()) {
  for (const Point& p : positions) {
    // FrameView::at: a cable's values on its nodes (linear), a sheet's or a box's multilinear.
    const NodeStencil st = domain.dims >= 2
                               ? cell_stencil(domain, p, outside)
                               : line_stencil(CablePositions{&domain, nullptr},
                                              domain.nodes[0], p[0]);
    stencils_.push_back(st);
    nodes_.insert(nodes_.end(), st.nodes, st.nodes + st.count);
  }
}

void ProbeSampler::read(const Scheme& scheme) {
  if (scheme.grid_stats() != nullptr) {
    Snapshot snap;
    scheme.snapshot(snap);
    FrameView frame = frame_view(snap, 0);
    frame.outside = outside_;
    for (std::size_t k = 0; k < positions_.size(); ++k) {
      v_[k] = frame.at(frame.v, positions_[k]);
      w_[k] = frame.at(frame.w, positions_[k]);
    }
    return;
  }
  scheme.read_nodes(nodes_, node_v_, node_w_);
  interpolate();
}

void ProbeSampler::read(const MemberBatch& batch, index_t member) {
  batch.read_nodes(member, nodes_, node_v_, node_w_);
  interpolate();
}

void ProbeSampler::interpolate() {
  std::size_t first = 0;
  for (std::size_t k = 0; k < stencils_.size(); ++k) {
    v_[k] = stencil_value(stencils_[k], node_v_.data() + first);
    w_[k] = stencil_value(stencils_[k], node_w_.data() + first);
    first += static_cast<std::size_t>(stencils_[k].count);
  }
}

}  // namespace fhn
