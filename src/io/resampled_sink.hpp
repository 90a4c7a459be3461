#pragma once
// A FrameSink that hands another sink every frame interpolated onto fixed nodes: for a writer
// that needs the same nodes in every frame when the scheme's grid moves. The spacetime image takes
// its uniform columns from the first frame, so an adaptive run feeds it frames on the base grid.
#include <memory>
#include <vector>

#include "io/frame_sink.hpp"

namespace fhn {

// Frames reach `inner` on `nodes` (ascending, spanning every frame's first to last node), v and
// w linearly interpolated (interpolate_onto: exact at shared nodes). finish() is passed on.
std::unique_ptr<FrameSink> make_resampling_sink(std::unique_ptr<FrameSink> inner,
                                                std::vector<real> nodes);

}  // namespace fhn
