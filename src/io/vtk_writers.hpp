#pragma once
// VTK output sinks (DESIGN.md section 6). Only vtk_writers.cpp includes VTK; a build configured
// with -DFHN_WITH_VTK=OFF links vtk_writers_unavailable.cpp instead, whose factories throw ConfigError.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "core/types.hpp"
#include "io/frame_sink.hpp"

namespace fhn {

// Time series for ParaView. Frame k goes to out_dir/frames/<name>_<kkkkkk>.vtu (k = FrameView::
// index, 6 digits): an unstructured grid of points (x, 0, 0) joined by VTK_LINE cells, point
// arrays "v" and "w" in the given precision, field data "TIME" (and "TimeValue", the name VTK's
// readers take a file's time from) holding t. Appended raw binary, zlib compressed.
// After every frame out_dir/<name>.pvd is rewritten atomically and lists all frames so far with
// their physical times, so an interrupted run still leaves a valid collection.
// Creates out_dir/frames/ at once. Throws IoError when it cannot, or when a frame cannot be
// written.
// A restarted run passes resume_before_t >= 0: the existing .pvd's frames with t < resume_before_t
// are kept and the new ones follow (frame files of the same index are overwritten).
std::unique_ptr<FrameSink> make_vtk_series_writer(const std::filesystem::path& out_dir,
                                                  const std::string& name, Precision precision,
                                                  real resume_before_t = -1.0);

// Kymograph of v: a vtkImageData (.vti) of dimensions (columns, frames, 1), x along the first
// axis and t along the second; origin (x_0, t_first, 0), spacing (column dx, mean frame dt, 1);
// point array "v" (float64), field data "TIME_FIRST", "TIME_LAST" and "FRAME_TIMES" (every
// frame's exact t, since the last interval may be shorter than the others).
// Columns are the nodes 0, s, 2s, ... of `grid` (the uniform base grid; when empty, the first
// frame's nodes), s = ceil((n - 1) / (max_columns - 1)), so at most max_columns are kept. A
// frame on other nodes (the adaptive grid's) is interpolated linearly onto the columns.
// Written by finish() (idempotent; no file when no frame came), atomically through a temporary
// file in the same directory. The parent directory is created at once (IoError when
// impossible); max_columns < 2 is a ConfigError.
// Field data "COLUMN_X" (the columns' exact x) and "COLUMN_LAYOUT" (the grid's node count,
// stride) let a restarted run (resume_before_t >= 0) reload the rows with t < resume_before_t and
// continue the image exactly.
std::unique_ptr<FrameSink> make_spacetime_writer(const std::filesystem::path& file,
                                                 index_t max_columns, real resume_before_t = -1.0,
                                                 const std::vector<real>& grid = {});

// Whether this build has VTK output (false with -DFHN_WITH_VTK=OFF).
bool vtk_compiled();

}  // namespace fhn
