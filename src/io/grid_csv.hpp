#pragma once
// grid.csv (adaptive_explicit): one row per regrid, "step,t,nodes": the grid built at that step
// and used from there on. New rows are written and flushed at every frame and checkpoint, so
// the file is complete up to the last frame or checkpoint written.
#include <filesystem>
#include <memory>

#include "grid/grid_stats.hpp"
#include "io/frame_sink.hpp"

namespace fhn {

// `stats` must outlive the writer (it is the scheme's record, read at every frame). A restarted
// run passes `resumed_at` >= 0: the file is continued and regrids at steps <= resumed_at (already
// in it) are not written again.
std::unique_ptr<FrameSink> make_grid_writer(const std::filesystem::path& file,
                                            const GridStats& stats, index_t resumed_at);

}  // namespace fhn
