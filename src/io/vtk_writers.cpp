// VTK 9 implementation of the writers declared in vtk_writers.hpp; the only file of fhnsim that
// includes VTK. The .vtu/.vti files come from VTK's XML writers; the .pvd collection is plain
// text written here.
#include "io/vtk_writers.hpp"

#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkCellType.h>
#include <vtkCommand.h>
#include <vtkDoubleArray.h>
#include <vtkErrorCode.h>
#include <vtkExecutive.h>
#include <vtkFieldData.h>
#include <vtkFloatArray.h>
#include <vtkIdTypeArray.h>
#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkSmartPointer.h>
#include <vtkUnsignedCharArray.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLImageDataReader.h>
#include <vtkXMLImageDataWriter.h>
#include <vtkXMLPolyDataWriter.h>
#include <vtkXMLUnstructuredGridWriter.h>
#include <vtkXMLWriter.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/vtk_error_capture.hpp"
#include "core/format.hpp"
#include "io/output_folder.hpp"
#include "io/pvd_collection.hpp"
#include "grid/snapshot.hpp"

namespace fhn {

namespace {

// Appended raw binary (no base64), zlib compressed, 64-bit block headers (arrays may exceed 4 GiB).
void configure(vtkXMLWriter* writer) {
  writer->SetDataModeToAppended();
  writer->EncodeAppendedDataOff();
  writer->SetCompressorTypeToZLib();
  writer->SetHeaderTypeToUInt64();
}

// Why a VTK writer failed: the system's reason when VTK recorded one (errno), else VTK's messages.
std::string failure_reason(vtkXMLWriter* writer, const VtkErrorCapture& errors) {
  const unsigned long code = writer->GetErrorCode();
  if (code != vtkErrorCode::NoError && code < vtkErrorCode::FirstVTKErrorCode) {
    return vtkErrorCode::GetStringFromErrorCode(code);
  }
  if (!errors.messages().empty()) return errors.messages();
  if (code != vtkErrorCode::NoError) return vtkErrorCode::GetStringFromErrorCode(code);
  return "unknown error";
}

// Writes the writer's input to path + ".tmp", then renames it to path, so that path only ever
// holds a complete file. Throws IoError naming the file and the reason on failure.
void write_atomically(vtkXMLWriter* writer, const std::filesystem::path& path) {
  std::filesystem::path tmp = path;
  tmp += ".tmp";
  vtkNew<VtkErrorCapture> errors;
  writer->AddObserver(vtkCommand::ErrorEvent, errors);
  // On failure the pipeline adds a generic "returned failure for request" error of its own; it is
  // captured only to keep it off stderr.
  vtkNew<VtkErrorCapture> pipeline_errors;
  writer->GetExecutive()->AddObserver(vtkCommand::ErrorEvent, pipeline_errors);

  writer->SetFileName(tmp.c_str());
  const int written = writer->Write();  // 0 on failure
  std::error_code ec;
  if (written == 0 || writer->GetErrorCode() != vtkErrorCode::NoError) {
    std::filesystem::remove(tmp, ec);
    throw IoError("cannot write '" + path.string() + "' (VTK writing '" + tmp.string() +
                  "'): " + failure_reason(writer, *errors));
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    throw IoError("cannot write '" + path.string() + "' (rename '" + tmp.string() +
                  "'): " + ec.message());
  }
}

// A new one-component array named name holding values[0..n), converted to ArrayT's value type.
template <class ArrayT>
vtkSmartPointer<ArrayT> copy_values(const char* name, const real* values, index_t n,
                                    index_t stride = 1) {
  using Value = typename ArrayT::ValueType;
  auto array = vtkSmartPointer<ArrayT>::New();
  array->SetName(name);
  array->SetNumberOfTuples(n);
  Value* out = array->GetPointer(0);
  for (index_t i = 0; i < n; ++i) out[i] = static_cast<Value>(values[i * stride]);
  return array;
}

// Points (x_{s i}, 0, 0), i = 0..n-1 (s = stride), stored in ArrayT's value type.
template <class ArrayT>
vtkSmartPointer<vtkPoints> points_on_x_axis(const CablePositions& x, index_t n, index_t stride) {
  using Value = typename ArrayT::ValueType;
  vtkNew<ArrayT> xyz;
  xyz->SetNumberOfComponents(3);
  xyz->SetNumberOfTuples(n);
  Value* out = xyz->GetPointer(0);
  for (index_t i = 0; i < n; ++i) {
    out[3 * i] = static_cast<Value>(x[i * stride]);
    out[3 * i + 1] = Value(0);
    out[3 * i + 2] = Value(0);
  }
  auto points = vtkSmartPointer<vtkPoints>::New();
  points->SetData(xyz);
  return points;
}

// Cells i = 0..n-2, each a VTK_LINE (i, i+1), in VTK 9's offsets + connectivity layout.
vtkSmartPointer<vtkCellArray> lines_between_neighbours(index_t n) {
  const vtkIdType lines = std::max<vtkIdType>(n - 1, 0);
  vtkNew<vtkIdTypeArray> offsets;
  offsets->SetNumberOfValues(lines + 1);
  vtkNew<vtkIdTypeArray> connectivity;
  connectivity->SetNumberOfValues(2 * lines);
  for (vtkIdType i = 0; i < lines; ++i) {
    offsets->SetValue(i, 2 * i);
    connectivity->SetValue(2 * i, i);
    connectivity->SetValue(2 * i + 1, i + 1);
  }
  offsets->SetValue(lines, 2 * lines);
  auto cells = vtkSmartPointer<vtkCellArray>::New();
  cells->SetData(offsets.Get(), connectivity.Get());
  return cells;
}

// The nodes kept along an axis of n nodes: 0, s, 2 s, ... <= n - 1.
index_t kept_along(index_t n, index_t stride) { return (n - 1) / stride + 1; }

// The time of a frame as field data: "TIME" is fhnsim's name; "TimeValue" is the one VTK's XML
// readers (and so ParaView, when a frame is opened without the .pvd) take the time of a file from.
void add_time(vtkDataObject* data, real t) {
  data->GetFieldData()->AddArray(copy_values<vtkDoubleArray>("TIME", &t, 1));
  data->GetFieldData()->AddArray(copy_values<vtkDoubleArray>("TimeValue", &t, 1));
}

// One cable frame as an unstructured grid of every stride-th node; ArrayT (vtkDoubleArray or
// vtkFloatArray) sets the precision of the points and of v and w. The time is always float64.
template <class ArrayT>
vtkSmartPointer<vtkUnstructuredGrid> cable_frame(const FrameView& frame, index_t stride) {
  const index_t n = kept_along(frame.n, stride);
  auto grid = vtkSmartPointer<vtkUnstructuredGrid>::New();
  grid->SetPoints(points_on_x_axis<ArrayT>(frame.x(), n, stride));
  grid->SetCells(VTK_LINE, lines_between_neighbours(n));
  grid->GetPointData()->AddArray(copy_values<ArrayT>("v", frame.v, n, stride));
  grid->GetPointData()->AddArray(copy_values<ArrayT>("w", frame.w, n, stride));
  grid->GetPointData()->SetActiveScalars("v");
  add_time(grid, frame.t);
  return grid;
}

// The nodes an image of `d` keeps along each axis: every stride-th (1 beyond the domain's axes).
struct Kept {
  index_t n[kMaxAxes];
  index_t count() const { return n[0] * n[1] * n[2]; }
};
Kept kept_nodes(const Domain& d, index_t stride) {
  return {{kept_along(d.nodes[0], stride), kept_along(d.nodes[1], stride),
           kept_along(d.nodes[2], stride)}};
}

// Calls f(node) for the kept nodes (i, j, k) = (s a, s b, s c) of a sheet or box in the image's
// own order, a fastest, then b, then c (node = i + N_x (j + N_y k)).
template <class F>
void each_kept_node(const Domain& d, index_t stride, const Kept& kept, F&& f) {
  for (index_t c = 0; c < kept.n[2]; ++c)
    for (index_t b = 0; b < kept.n[1]; ++b)
      for (index_t a = 0; a < kept.n[0]; ++a)
        f(a * stride + d.nodes[0] * (b * stride + d.nodes[1] * (c * stride)));
}

// A new one-component array of the kept nodes of a sheet or box, NaN outside the tissue.
template <class ArrayT>
vtkSmartPointer<ArrayT> image_values(const char* name, const real* values, const Domain& d,
                                     index_t stride, const Kept& kept,
                                     const std::uint8_t* outside) {
  using Value = typename ArrayT::ValueType;
  auto array = vtkSmartPointer<ArrayT>::New();
  array->SetName(name);
  array->SetNumberOfTuples(kept.count());
  Value* out = array->GetPointer(0);
  each_kept_node(d, stride, kept, [&](index_t node) {
    *out++ = outside && outside[node] ? std::numeric_limits<Value>::quiet_NaN()
                                      : static_cast<Value>(values[node]);
  });
  return array;
}

// The tissue mask as point data "tissue" (1 tissue, 0 outside), for ParaView's Threshold.
vtkSmartPointer<vtkUnsignedCharArray> image_tissue(const std::uint8_t* outside, const Domain& d,
                                                   index_t stride, const Kept& kept) {
  auto array = vtkSmartPointer<vtkUnsignedCharArray>::New();
  array->SetName("tissue");
  array->SetNumberOfTuples(kept.count());
  unsigned char* out = array->GetPointer(0);
  each_kept_node(d, stride, kept, [&](index_t node) { *out++ = outside[node] ? 0 : 1; });
  return array;
}

// An image of the sheet's or box's grid with spacing stride dx from the origin (0, 0, 0) (a
// sheet's z spacing 1: it has one layer).
vtkSmartPointer<vtkImageData> grid_image(const Domain& d, index_t stride) {
  const Kept kept = kept_nodes(d, stride);
  auto image = vtkSmartPointer<vtkImageData>::New();
  image->SetDimensions(static_cast<int>(kept.n[0]), static_cast<int>(kept.n[1]),
                       static_cast<int>(kept.n[2]));
  image->SetOrigin(0.0, 0.0, 0.0);
  const real spacing = d.dx * static_cast<real>(stride);
  image->SetSpacing(spacing, spacing, d.dims >= 3 ? spacing : 1.0);
  return image;
}

// One frame of a sheet or box as image data: point arrays v and w in ArrayT's precision, and
// with `phase` the phase about its levels (grid/phase.hpp) at every node.
template <class ArrayT>
vtkSmartPointer<vtkImageData> image_frame(const FrameView& frame, index_t stride,
                                          const std::optional<PhaseLevels>& phase) {
  const Domain& d = *frame.domain;
  auto image = grid_image(d, stride);
  const Kept kept = kept_nodes(d, stride);
  // Outside the tissue v and w are NaN, and the "tissue" array says where the tissue is.
  image->GetPointData()->AddArray(
      image_values<ArrayT>("v", frame.v, d, stride, kept, frame.outside));
  image->GetPointData()->AddArray(
      image_values<ArrayT>("w", frame.w, d, stride, kept, frame.outside));
  if (phase) {
    std::vector<real> theta(static_cast<std::size_t>(frame.n));
    for (index_t node = 0; node < frame.n; ++node)
      theta[static_cast<std::size_t>(node)] =
          phase_angle(frame.v[node], frame.w[node], phase->v_iso, phase->w_iso);
    image->GetPointData()->AddArray(
        image_values<ArrayT>("phase", theta.data(), d, stride, kept, frame.outside));
  }
  if (frame.outside) image->GetPointData()->AddArray(image_tissue(frame.outside, d, stride, kept));
  image->GetPointData()->SetActiveScalars("v");
  add_time(image, frame.t);
  return image;
}

class VtkSeriesWriter final : public FrameSink {
 public:
  VtkSeriesWriter(std::filesystem::path out_dir, std::string name, Precision precision,
                  index_t stride, real resume_before_t, std::optional<PhaseLevels> phase)
      : out_dir_(std::move(out_dir)),
        name_(std::move(name)),
        precision_(precision),
        stride_(stride),
        phase_(phase),
        collection_((create_folder(out_dir_ / "frames", "the frames folder"),
                     out_dir_ / (name_ + ".pvd")),
                    resume_before_t) {}

  void write(const FrameView& frame) override {
    FHN_ASSERT(frame.n == 0 || (frame.v != nullptr && frame.w != nullptr));
    // 1. The frame, complete on disk before the collection names it.
    const bool sheet = frame.sheet();
    const std::string file = "frames/" + frame_file_name(name_, frame.index, sheet ? "vti" : "vtu");
    const bool f64 = precision_ == Precision::float64;
    if (sheet) {
      vtkNew<vtkXMLImageDataWriter> writer;
      configure(writer);
      writer->SetInputData(f64 ? image_frame<vtkDoubleArray>(frame, stride_, phase_)
                               : image_frame<vtkFloatArray>(frame, stride_, phase_));
      write_atomically(writer, out_dir_ / file);
    } else {
      vtkNew<vtkXMLUnstructuredGridWriter> writer;
      configure(writer);
      writer->SetInputData(f64 ? cable_frame<vtkDoubleArray>(frame, stride_)
                               : cable_frame<vtkFloatArray>(frame, stride_));
      write_atomically(writer, out_dir_ / file);
    }
    // 2. The collection names it: one write at the end of the .pvd.
    collection_.append(frame.t, file);
  }

 private:
  std::filesystem::path out_dir_;
  std::string name_;
  Precision precision_;
  index_t stride_;
  std::optional<PhaseLevels> phase_;
  PvdCollection collection_;
};

// Curves as PolyData: float64 points, one VTK_POLY_LINE cell each (a closed one repeats its
// first point id), cell data curve / closed / length / radius, the time as field data.
vtkSmartPointer<vtkPolyData> curves_frame(real t, const std::vector<Polyline>& curves) {
  vtkNew<vtkDoubleArray> xyz;
  xyz->SetNumberOfComponents(3);
  vtkNew<vtkIdTypeArray> offsets;
  vtkNew<vtkIdTypeArray> connectivity;
  vtkNew<vtkIdTypeArray> id;
  id->SetName("curve");
  vtkNew<vtkUnsignedCharArray> closed;
  closed->SetName("closed");
  vtkNew<vtkDoubleArray> length;
  length->SetName("length");
  vtkNew<vtkDoubleArray> radius;
  radius->SetName("radius");
  vtkIdType point = 0;
  offsets->InsertNextValue(0);
  for (std::size_t k = 0; k < curves.size(); ++k) {
    const Polyline& c = curves[k];
    const vtkIdType first = point;
    for (const Point& p : c.points) {
      xyz->InsertNextTuple3(p[0], p[1], p[2]);
      connectivity->InsertNextValue(point++);
    }
    if (c.closed && !c.points.empty()) connectivity->InsertNextValue(first);
    offsets->InsertNextValue(connectivity->GetNumberOfValues());
    id->InsertNextValue(static_cast<vtkIdType>(k));
    closed->InsertNextValue(c.closed ? 1 : 0);
    length->InsertNextValue(c.length());
    radius->InsertNextValue(c.closed ? c.radius() : std::numeric_limits<real>::quiet_NaN());
  }
  vtkNew<vtkPoints> points;
  points->SetData(xyz);
  vtkNew<vtkCellArray> lines;
  lines->SetData(offsets.Get(), connectivity.Get());
  auto data = vtkSmartPointer<vtkPolyData>::New();
  data->SetPoints(points);
  data->SetLines(lines);
  for (vtkAbstractArray* array : {static_cast<vtkAbstractArray*>(id.Get()),
                                  static_cast<vtkAbstractArray*>(closed.Get()),
                                  static_cast<vtkAbstractArray*>(length.Get()),
                                  static_cast<vtkAbstractArray*>(radius.Get())})
    data->GetCellData()->AddArray(array);
  add_time(data, t);
  return data;
}

class CurveSeriesWriter final : public CurveSeries {
 public:
  CurveSeriesWriter(std::filesystem::path out_dir, std::string name, real resume_before_t)
      : out_dir_(std::move(out_dir)),
        name_(std::move(name)),
        collection_((create_folder(out_dir_ / "frames", "the frames folder"),
                     out_dir_ / (name_ + ".pvd")),
                    resume_before_t) {}

  void write(index_t index, real t, const std::vector<Polyline>& curves) override {
    // The frame complete on disk before the collection names it.
    const std::string file = "frames/" + frame_file_name(name_, index, "vtp");
    vtkNew<vtkXMLPolyDataWriter> writer;
    configure(writer);
    writer->SetInputData(curves_frame(t, curves));
    write_atomically(writer, out_dir_ / file);
    collection_.append(t, file);
  }

 private:
  std::filesystem::path out_dir_;
  std::string name_;
  PvdCollection collection_;
};

class SpacetimeWriter final : public FrameSink {
 public:
  SpacetimeWriter(std::filesystem::path file, index_t max_columns, real resume_before_t,
                  index_t resume_frames)
      : file_(std::move(file)), max_columns_(max_columns) {
    FHN_VERIFY(max_columns_ >= 2, ConfigError,
               "the spacetime image needs at least 2 columns, got max_columns = " +
                   std::to_string(max_columns_));
    if (file_.has_parent_path()) create_folder(file_.parent_path(), "the output folder");
    if (resume_before_t >= 0.0) resume(resume_before_t, resume_frames);
  }

  void write(const FrameView& frame) override {
    FHN_ASSERT(!finished_);
    FHN_ASSERT(frame.n > 0 && frame.domain != nullptr && frame.v != nullptr);
    if (column_x_.empty()) choose_columns(*frame.domain);
    times_.push_back(frame.t);
    const std::size_t row = values_.size();
    values_.resize(row + column_x_.size());
    sample(frame, values_.data() + row);
  }

  void finish() override {
    if (finished_) return;
    finished_ = true;
    write_image();
  }

  // The image so far, on disk at every checkpoint: a run killed after it reloads the rows.
  void save(SchemeState&) override { write_image(); }
  std::string restore(const SchemeState&) override { return lost_; }

 private:
  // Writes the image of every frame so far, unless the file holds exactly these already (a
  // checkpoint, then the interruption's checkpoint and finish(), would write it again).
  void write_image() {
    if (times_.empty() || times_.size() == frames_on_disk_) return;
    const auto columns = static_cast<int>(column_x_.size());
    const auto frames = static_cast<int>(times_.size());
    vtkNew<vtkImageData> image;
    image->SetDimensions(columns, frames, 1);
    image->SetOrigin(column_x_.front(), times_.front(), 0.0);
    // Mean spacings: the columns are uniform up to rounding, the last frame interval may be short.
    image->SetSpacing(columns > 1 ? (column_x_.back() - column_x_.front()) / (columns - 1) : 1.0,
                      frames > 1 ? (times_.back() - times_.front()) / (frames - 1) : 1.0, 1.0);

    vtkNew<vtkDoubleArray> v;
    v->SetName("v");
    v->SetArray(values_.data(), static_cast<vtkIdType>(values_.size()), /*save=*/1);  // no copy
    image->GetPointData()->SetScalars(v);
    vtkFieldData* field = image->GetFieldData();
    field->AddArray(copy_values<vtkDoubleArray>("TIME_FIRST", &times_.front(), 1));
    field->AddArray(copy_values<vtkDoubleArray>("TIME_LAST", &times_.back(), 1));
    field->AddArray(copy_values<vtkDoubleArray>("FRAME_TIMES", times_.data(), frames));
    field->AddArray(copy_values<vtkDoubleArray>("COLUMN_X", column_x_.data(), columns));
    const real layout[2] = {static_cast<real>(first_n_), static_cast<real>(stride_)};
    field->AddArray(copy_values<vtkDoubleArray>("COLUMN_LAYOUT", layout, 2));

    vtkNew<vtkXMLImageDataWriter> writer;
    configure(writer);
    writer->SetInputData(image);
    write_atomically(writer, file_);
    frames_on_disk_ = times_.size();
  }

  // A restarted run: the rows of the existing image with t < before, which must be the
  // `frames` frames written before the checkpoint, and its column layout. When the file holds
  // other rows (killed before a checkpoint wrote it, or missing), none is kept, the image starts
  // at the restart, and lost_ says so.
  void resume(real before, index_t frames) {
    std::string why = "is missing";
    try {
      if (std::filesystem::exists(file_)) {
        reload_rows_before(before);
        why = "holds " + std::to_string(times_.size()) + " of the " + std::to_string(frames) +
              " frames before the restart (the earlier run stopped before writing them)";
      }
      if (static_cast<index_t>(times_.size()) == frames) return;
    } catch (const IoError& e) {
      why = std::string("cannot be continued: ") + e.what();
    }
    lost_ = "spacetime.vti: the image on disk " + why +
            "; the image covers only the frames from the restart on";
    times_.clear();
    values_.clear();
    column_x_.clear();
  }

  // The rows of the existing image with t < before, and its column layout.
  void reload_rows_before(real before) {
    vtkNew<vtkXMLImageDataReader> reader;
    reader->SetFileName(file_.c_str());
    reader->Update();
    vtkImageData* image = reader->GetOutput();
    vtkFieldData* field = image ? image->GetFieldData() : nullptr;
    vtkDataArray* times = field ? field->GetArray("FRAME_TIMES") : nullptr;
    vtkDataArray* columns = field ? field->GetArray("COLUMN_X") : nullptr;
    vtkDataArray* layout = field ? field->GetArray("COLUMN_LAYOUT") : nullptr;
    vtkDataArray* v = image ? image->GetPointData()->GetArray("v") : nullptr;
    if (!times || !columns || !layout || !v || layout->GetNumberOfTuples() != 2)
      throw IoError(file_.string() + ": cannot continue this spacetime image (not written by this "
                                     "version of fhnsim, or damaged)");
    first_n_ = static_cast<index_t>(layout->GetTuple1(0));
    stride_ = static_cast<index_t>(layout->GetTuple1(1));
    for (vtkIdType j = 0; j < columns->GetNumberOfTuples(); ++j) column_x_.push_back(columns->GetTuple1(j));
    const auto width = static_cast<vtkIdType>(column_x_.size());
    for (vtkIdType row = 0; row < times->GetNumberOfTuples() && times->GetTuple1(row) < before; ++row) {
      times_.push_back(times->GetTuple1(row));
      for (vtkIdType j = 0; j < width; ++j) values_.push_back(v->GetTuple1(row * width + j));
    }
    if (times_.empty()) column_x_.clear();  // nothing kept: lay the columns out afresh
  }

  // Columns: nodes 0, s, 2s, ... of the frames' domain (the adaptive grid's base grid),
  // s = ceil((n - 1) / (max_columns - 1)).
  void choose_columns(const Domain& domain) {
    const index_t n = domain.nodes[0];
    first_n_ = n;
    stride_ = std::max<index_t>(1, (n - 1 + max_columns_ - 2) / (max_columns_ - 1));
    for (index_t i = 0; i < n; i += stride_) column_x_.push_back(domain.coordinate(0, i));
  }

  // v at the columns into row[0..columns). Taken directly when the frame has the grid's nodes
  // there (a uniform grid: always); otherwise (adaptive grid) interpolated linearly in x,
  // constant beyond the ends. Requires ascending x.
  void sample(const FrameView& frame, real* row) const {
    const auto columns = static_cast<index_t>(column_x_.size());
    const CablePositions x = frame.x();
    bool same_nodes = frame.n == first_n_;
    for (index_t j = 0; same_nodes && j < columns; ++j) {
      same_nodes = x[j * stride_] == column_x_[j];
    }
    if (same_nodes) {
      for (index_t j = 0; j < columns; ++j) row[j] = frame.v[j * stride_];
      return;
    }
    const real* v = frame.v;
    const index_t last = frame.n - 1;
    index_t i = 0;  // x[i] <= column_x_[j] < x[i + 1] inside the loop
    for (index_t j = 0; j < columns; ++j) {
      const real xj = column_x_[j];
      if (xj <= x[0]) {
        row[j] = v[0];
      } else if (xj >= x[last]) {
        row[j] = v[last];
      } else {
        while (x[i + 1] <= xj) ++i;
        const real theta = (xj - x[i]) / (x[i + 1] - x[i]);
        row[j] = v[i] + theta * (v[i + 1] - v[i]);
      }
    }
  }

  std::filesystem::path file_;
  index_t max_columns_;
  index_t first_n_ = 0;           // node count of the grid along x
  index_t stride_ = 1;            // s
  std::vector<real> column_x_;    // x of the kept columns
  std::vector<real> times_;       // t of every frame
  std::vector<real> values_;      // v, frame after frame, columns contiguous
  bool finished_ = false;
  std::string lost_;              // what a restart could not recover ("" when nothing)
  std::size_t frames_on_disk_ = 0;  // frames of the image file this writer wrote last
};

}  // namespace

std::unique_ptr<FrameSink> make_vtk_series_writer(const std::filesystem::path& out_dir,
                                                  const std::string& name, Precision precision,
                                                  index_t stride, real resume_before_t,
                                                  const std::optional<PhaseLevels>& phase) {
  return std::make_unique<VtkSeriesWriter>(out_dir, name, precision, stride, resume_before_t,
                                           phase);
}

void write_image(const std::filesystem::path& file, const Domain& domain,
                 const std::vector<NamedValues>& point_arrays,
                 const std::vector<NamedValues>& field_data) {
  auto image = grid_image(domain, 1);
  const index_t n = domain.node_count();
  for (const NamedValues& a : point_arrays) {
    FHN_VERIFY(a.values.size() == static_cast<std::size_t>(n), InternalError,
               "point array '" + a.name + "' holds " + std::to_string(a.values.size()) +
                   " values for " + std::to_string(n) + " nodes");
    image->GetPointData()->AddArray(copy_values<vtkDoubleArray>(a.name.c_str(), a.values.data(), n));
  }
  if (!point_arrays.empty()) image->GetPointData()->SetActiveScalars(point_arrays.front().name.c_str());
  for (const NamedValues& f : field_data)
    image->GetFieldData()->AddArray(copy_values<vtkDoubleArray>(
        f.name.c_str(), f.values.data(), static_cast<index_t>(f.values.size())));
  vtkNew<vtkXMLImageDataWriter> writer;
  configure(writer);
  writer->SetInputData(image);
  write_atomically(writer, file);
}

std::unique_ptr<CurveSeries> make_curve_series(const std::filesystem::path& out_dir,
                                               const std::string& name, real resume_before_t) {
  return std::make_unique<CurveSeriesWriter>(out_dir, name, resume_before_t);
}

std::unique_ptr<FrameSink> make_spacetime_writer(const std::filesystem::path& file,
                                                 index_t max_columns, real resume_before_t,
                                                 index_t resume_frames) {
  return std::make_unique<SpacetimeWriter>(file, max_columns, resume_before_t, resume_frames);
}

bool vtk_compiled() { return true; }

}  // namespace fhn
