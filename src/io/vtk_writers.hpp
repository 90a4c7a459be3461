#pragma once
// VTK output sinks (docs/ARCHITECTURE.md section 6). Only vtk_writers.cpp includes VTK; a build
// configured with -DFHN_WITH_VTK=OFF links vtk_writers_unavailable.cpp instead, whose factories
// throw ConfigError.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "core/types.hpp"
#include "grid/phase.hpp"
#include "grid/polyline.hpp"
#include "io/frame_sink.hpp"

namespace fhn {

// Time series for ParaView. Frame k goes to out_dir/frames/<name>_<kkkkkk>.<ext> (k = FrameView::
// index, 6 digits) with point arrays "v" and "w" in the given precision and field data "TIME"
// (and "TimeValue", the name VTK's readers take a file's time from) holding t; appended raw
// binary, zlib compressed. A cable frame is a .vtu: points (x, 0, 0) joined by VTK_LINE cells;
// a sheet frame a .vti (ImageData, origin (0, 0, 0), spacing stride dx). Only every stride-th
// node along each axis is kept (0, s, 2s, ...; a fixed grid only). With `phase` (output.phase),
// a sheet's or box's frames also carry the point array "phase", the phase about its levels at
// every node (grid/phase.hpp), in the frames' precision, NaN outside the tissue.
// After every frame out_dir/<name>.pvd names it with its physical time (PvdCollection: valid at
// every moment, constant cost per frame), so an interrupted run still leaves a valid collection.
// Creates out_dir/frames/ at once. Throws IoError when it cannot, or when a frame cannot be
// written. A restarted run passes resume_before_t >= 0: the existing .pvd's frames with
// t < resume_before_t are kept and the new ones follow (frame files of the same index are
// overwritten).
std::unique_ptr<FrameSink> make_vtk_series_writer(const std::filesystem::path& out_dir,
                                                  const std::string& name, Precision precision,
                                                  index_t stride = 1, real resume_before_t = -1.0,
                                                  const std::optional<PhaseLevels>& phase = {});

// The phase the frames of `c` carry (output.phase): about the tip levels on a sheet
// (output.tips.v, .w), the filament levels in a box (output.filaments.v, .w); none without it.
inline std::optional<PhaseLevels> frame_phase(const Config& c) {
  if (!c.output.phase) return std::nullopt;
  return c.domain.dims == 3 ? PhaseLevels{c.output.filaments.v_iso, c.output.filaments.w_iso}
                            : PhaseLevels{c.output.tips.v_iso, c.output.tips.w_iso};
}

// A sheet's or a box's image (ImageData, origin (0, 0, 0), spacing dx) with named point arrays
// (one value a node, in node order; the first is the active scalars) and field data, as float64,
// written atomically; for derived maps such as activation.vti (study/activation.hpp). Throws
// IoError when the file cannot be written.
struct NamedValues {
  std::string name;
  std::vector<real> values;
};
void write_image(const std::filesystem::path& file, const Domain& domain,
                 const std::vector<NamedValues>& point_arrays,
                 const std::vector<NamedValues>& field_data);

// Curves as a time series for ParaView (a box's filaments beside its volume frames): the curves
// at frame k go to out_dir/frames/<name>_<kkkkkk>.vtp, PolyData of float64 points with one
// VTK_POLY_LINE cell per curve (a closed one lists its first point again at the end), cell data
// "curve" (0, 1, ... in the given order), "closed" (0 or 1), "length" and "radius" (a closed
// curve's, NaN for an open one; Polyline's), field data "TIME" and "TimeValue". After every
// frame out_dir/<name>.pvd names it (PvdCollection). A frame without curves is an empty
// PolyData, so the series has every frame. Creates out_dir/frames/ at once; IoError when a file
// cannot be written. resume_before_t >= 0: a restarted run keeps the .pvd's frames before it.
class CurveSeries {
 public:
  virtual ~CurveSeries() = default;
  virtual void write(index_t index, real t, const std::vector<Polyline>& curves) = 0;
};
std::unique_ptr<CurveSeries> make_curve_series(const std::filesystem::path& out_dir,
                                               const std::string& name,
                                               real resume_before_t = -1.0);

// Kymograph of v: a vtkImageData (.vti) of dimensions (columns, frames, 1), x along the first
// axis and t along the second; origin (x_0, t_first, 0), spacing (column dx, mean frame dt, 1);
// point array "v" (float64), field data "TIME_FIRST", "TIME_LAST" and "FRAME_TIMES" (every
// frame's exact t, since the last interval may be shorter than the others).
// Columns are the nodes 0, s, 2s, ... of the frames' domain (the adaptive grid's base grid),
// s = ceil((n - 1) / (max_columns - 1)), so at most max_columns are kept. A frame on other
// nodes (the adaptive grid's) is interpolated linearly onto the columns.
// Written by finish() (idempotent; no file when no frame came), atomically through a temporary
// file in the same directory. The parent directory is created at once (IoError when
// impossible); max_columns < 2 is a ConfigError.
// Field data "COLUMN_X" (the columns' exact x) and "COLUMN_LAYOUT" (the grid's node count,
// stride) let a restarted run (resume_before_t >= 0) reload the rows with t < resume_before_t and
// continue the image exactly. The image is also written at every checkpoint (save()), so that a
// run killed after one finds those rows on disk; when the file does not hold exactly the
// `resume_frames` frames before the restart, the image starts at the restart and restore()
// says so.
// The kymograph's width of fhn run and fhn sweep: at most this many columns (of every s-th node,
// s = ceil((n - 1) / (kSpacetimeColumns - 1))).
constexpr index_t kSpacetimeColumns = 4096;
std::unique_ptr<FrameSink> make_spacetime_writer(const std::filesystem::path& file,
                                                 index_t max_columns, real resume_before_t = -1.0,
                                                 index_t resume_frames = 0);

// Whether this build has VTK output (false with -DFHN_WITH_VTK=OFF).
bool vtk_compiled();

}  // namespace fhn
