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
  if (!snap.activation_first.empty()) view.activation_first = snap.activation_first.data();
  if (!snap.activation_last.empty()) view.activation_last = snap.activation_last.data();
  return view;
}

}  // namespace fhn
