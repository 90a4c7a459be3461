#include "io/frame_sink.hpp"

#include "grid/interpolation.hpp"
#include "grid/snapshot.hpp"

namespace fhn {

real FrameView::at(const real* values, const Point& p) const {
  return sheet() ? multilinear_at(*domain, values, p, outside)
                 : interpolate_at(x(), values, n, p[0]);
}

FrameView frame_view(const Snapshot& snap, index_t index) {
  FrameView view;
  view.index = index;
  view.step = snap.step;
  view.t = snap.t;
  view.n = static_cast<index_t>(snap.v.size());
  view.domain = &snap.domain;
  view.nodes = snap.x().nodes;
  view.v = snap.v.data();
  view.w = snap.w.data();
  return view;
}

}  // namespace fhn
