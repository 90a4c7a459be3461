// The VTK writers: what they write reads back through VTK's own readers, the .pvd collection is
// valid after every frame, the spacetime image has the right geometry, failures are IoErrors,
// and the phase map (output.phase) is atan2 at the nodes with its singularities at the iso-line
// tips. Compiled only into builds with VTK.
#include <doctest/doctest.h>

#include <vtkCell.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkCellType.h>
#include <vtkDataArray.h>
#include <vtkFieldData.h>
#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLDataElement.h>
#include <vtkXMLDataParser.h>
#include <vtkXMLImageDataReader.h>
#include <vtkXMLPolyDataReader.h>
#include <vtkXMLUnstructuredGridReader.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <string>
#include <vector>

#include "config/loader.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "io/atomic_file.hpp"
#include "io/vtk_writers.hpp"
#include "run/run.hpp"
#include "support.hpp"

namespace fs = std::filesystem;

namespace {

using fhn::test::read_text;
using fhn::test::TempDir;

constexpr fhn::index_t n = 7;

// Frame k of the test series: an adaptive grid's frame on the non-uniform base nodes 250 i + i^2
// (x = 0.25 i + 0.001 i^2), values that are not exact in float32.
struct TestFrame {
  fhn::Domain base = fhn::cable(1537, 0.001);
  std::array<fhn::index_t, n> nodes{};
  std::array<double, n> x{};
  std::array<double, n> v{};
  std::array<double, n> w{};
  double t = 0.0;

  explicit TestFrame(int k, double time) : t(time) {
    for (int i = 0; i < n; ++i) {
      nodes[i] = 250 * i + i * i;
      x[i] = base.coordinate(0, nodes[i]);
      v[i] = 0.1 * (i + 1) + k / 3.0;
      w[i] = -0.01 * i * (k + 1) + 1e-9;
    }
  }

  fhn::FrameView view(fhn::index_t index) const {
    fhn::FrameView frame;
    frame.index = index;
    frame.step = 10 * index;
    frame.t = t;
    frame.n = n;
    frame.domain = &base;
    frame.nodes = nodes.data();
    frame.v = v.data();
    frame.w = w.data();
    return frame;
  }
};

struct CollectionEntry {
  std::string file;
  double timestep;
};

// The DataSet entries of a .pvd, read with VTK's XML parser; the test fails if it does not parse.
std::vector<CollectionEntry> parse_collection(const fs::path& pvd) {
  vtkNew<vtkXMLDataParser> parser;
  parser->SetFileName(pvd.c_str());
  REQUIRE(parser->Parse() == 1);
  vtkXMLDataElement* root = parser->GetRootElement();
  REQUIRE(root != nullptr);
  CHECK(std::string(root->GetName()) == "VTKFile");
  CHECK(std::string(root->GetAttribute("type")) == "Collection");
  REQUIRE(root->GetNumberOfNestedElements() == 1);
  vtkXMLDataElement* collection = root->GetNestedElement(0);
  CHECK(std::string(collection->GetName()) == "Collection");

  std::vector<CollectionEntry> entries;
  for (int i = 0; i < collection->GetNumberOfNestedElements(); ++i) {
    vtkXMLDataElement* dataset = collection->GetNestedElement(i);
    CHECK(std::string(dataset->GetName()) == "DataSet");
    CHECK(std::string(dataset->GetAttribute("part")) == "0");
    CollectionEntry entry{dataset->GetAttribute("file"), 0.0};
    REQUIRE(dataset->GetScalarAttribute("timestep", entry.timestep) == 1);
    entries.push_back(entry);
  }
  return entries;
}

vtkSmartPointer<vtkUnstructuredGrid> read_vtu(const fs::path& file) {
  REQUIRE(fs::exists(file));
  vtkNew<vtkXMLUnstructuredGridReader> reader;
  reader->SetFileName(file.c_str());
  reader->Update();
  REQUIRE(reader->GetErrorCode() == 0);
  return reader->GetOutput();
}

vtkSmartPointer<vtkImageData> read_vti(const fs::path& file) {
  REQUIRE(fs::exists(file));
  vtkNew<vtkXMLImageDataReader> reader;
  reader->SetFileName(file.c_str());
  reader->Update();
  REQUIRE(reader->GetErrorCode() == 0);
  return reader->GetOutput();
}

// Frame `index` of the run `name` in dir/frames.
fs::path frame_file(const fs::path& dir, const std::string& name, int index) {
  char file[96];
  std::snprintf(file, sizeof file, "frames/%s_%06d.vti", name.c_str(), index);
  return dir / file;
}

// The frame's "phase" equals atan2(w - w_iso, v - v_iso) of its own v and w at every node.
void check_phase(vtkImageData* image, double v_iso, double w_iso) {
  vtkDataArray* phase = image->GetPointData()->GetArray("phase");
  vtkDataArray* v = image->GetPointData()->GetArray("v");
  vtkDataArray* w = image->GetPointData()->GetArray("w");
  REQUIRE(phase != nullptr);
  REQUIRE(phase->GetNumberOfTuples() == v->GetNumberOfTuples());
  int mismatches = 0;
  for (vtkIdType node = 0; node < v->GetNumberOfTuples(); ++node)
    mismatches += phase->GetTuple1(node) !=
                  std::atan2(w->GetTuple1(node) - w_iso, v->GetTuple1(node) - v_iso);
  CHECK(mismatches == 0);
}

// Checks one .vtu against the frame it was written from; float32 files to float rounding.
void check_vtu(const fs::path& file, const TestFrame& frame, fhn::Precision precision) {
  const auto grid = read_vtu(file);
  const bool exact = precision == fhn::Precision::float64;
  const int value_type = exact ? VTK_DOUBLE : VTK_FLOAT;
  const auto same = [exact](double read, double written) {
    return exact ? read == written : read == static_cast<double>(static_cast<float>(written));
  };

  REQUIRE(grid->GetNumberOfPoints() == n);
  CHECK(grid->GetPoints()->GetDataType() == value_type);
  for (int i = 0; i < n; ++i) {
    double p[3];
    grid->GetPoint(i, p);
    CHECK(same(p[0], frame.x[i]));
    CHECK(p[1] == 0.0);
    CHECK(p[2] == 0.0);
  }

  REQUIRE(grid->GetNumberOfCells() == n - 1);
  for (int c = 0; c < n - 1; ++c) {
    CHECK(grid->GetCellType(c) == VTK_LINE);
    vtkIdType count = 0;
    const vtkIdType* ids = nullptr;
    grid->GetCellPoints(c, count, ids);
    REQUIRE(count == 2);
    CHECK(ids[0] == c);
    CHECK(ids[1] == c + 1);
  }

  vtkDataArray* v = grid->GetPointData()->GetArray("v");
  vtkDataArray* w = grid->GetPointData()->GetArray("w");
  REQUIRE(v != nullptr);
  REQUIRE(w != nullptr);
  CHECK(v->GetDataType() == value_type);
  CHECK(w->GetDataType() == value_type);
  for (int i = 0; i < n; ++i) {
    CHECK(same(v->GetComponent(i, 0), frame.v[i]));
    CHECK(same(w->GetComponent(i, 0), frame.w[i]));
  }

  vtkDataArray* time = grid->GetFieldData()->GetArray("TIME");
  REQUIRE(time != nullptr);
  CHECK(time->GetDataType() == VTK_DOUBLE);
  REQUIRE(time->GetNumberOfTuples() == 1);
  CHECK(time->GetComponent(0, 0) == frame.t);
}

}  // namespace

TEST_CASE("write_file_atomically replaces the file and leaves no temporary behind") {
  TempDir dir;
  const fs::path file = dir.path() / "summary.json";
  fhn::write_file_atomically(file, "first");
  CHECK(read_text(file) == "first");
  const std::string binary("a\0b\nc", 5);
  fhn::write_file_atomically(file, binary);
  CHECK(read_text(file) == binary);
  CHECK_FALSE(fs::exists(dir.path() / "summary.json.tmp"));
  CHECK(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()) == 1);
}

TEST_CASE("write_file_atomically throws IoError naming the path when it cannot write") {
  TempDir dir;
  fhn::write_file_atomically(dir.path() / "plain", "x");
  const fs::path impossible = dir.path() / "plain" / "summary.json";  // under a regular file
  CHECK_THROWS_AS(fhn::write_file_atomically(impossible, "x"), fhn::IoError);
  try {
    fhn::write_file_atomically(impossible, "x");
  } catch (const fhn::IoError& error) {
    const std::string message = error.what();
    CHECK(message.find(impossible.string()) != std::string::npos);
    CHECK(message.find("Not a directory") != std::string::npos);
  }
}

TEST_CASE("the VTK series reads back exactly, and the .pvd is valid after every frame") {
  for (const auto precision : {fhn::Precision::float64, fhn::Precision::float32}) {
    CAPTURE(precision == fhn::Precision::float64 ? "float64" : "float32");
    TempDir dir;
    const fs::path out = dir.path() / "run";  // does not exist yet: the writer creates it
    const std::vector<TestFrame> frames{TestFrame(0, 0.0), TestFrame(1, 0.5), TestFrame(2, 1.0)};
    const std::vector<std::string> names{"frames/pulse_000000.vtu", "frames/pulse_000001.vtu",
                                         "frames/pulse_000002.vtu"};

    auto writer = fhn::make_vtk_series_writer(out, "pulse", precision);
    CHECK(fs::is_directory(out / "frames"));
    for (int k = 0; k < 3; ++k) {
      writer->write(frames[k].view(k));
      const auto entries = parse_collection(out / "pulse.pvd");
      REQUIRE(entries.size() == static_cast<std::size_t>(k + 1));
      for (int j = 0; j <= k; ++j) {
        CHECK(entries[j].file == names[j]);
        CHECK(entries[j].timestep == frames[j].t);
      }
    }
    writer->finish();

    for (int k = 0; k < 3; ++k) check_vtu(out / names[k], frames[k], precision);
    CHECK_FALSE(fs::exists(out / "pulse.pvd.tmp"));
    CHECK(std::distance(fs::directory_iterator(out / "frames"), fs::directory_iterator()) == 3);
  }
}

TEST_CASE("frames with output.stride keep nodes 0, s, 2s, ... of a cable, a sheet and a box") {
  TempDir dir;
  // A cable of n = 7 nodes with stride 3: nodes 0, 3, 6.
  const TestFrame frame(1, 0.5);
  auto cable = fhn::make_vtk_series_writer(dir.path() / "cable", "c", fhn::Precision::float64, 3);
  cable->write(frame.view(0));
  const auto grid = read_vtu(dir.path() / "cable" / "frames" / "c_000000.vtu");
  REQUIRE(grid->GetNumberOfPoints() == 3);
  for (int k = 0; k < 3; ++k) {
    double p[3];
    grid->GetPoint(k, p);
    CHECK(p[0] == frame.x[static_cast<std::size_t>(3 * k)]);
    CHECK(grid->GetPointData()->GetArray("v")->GetComponent(k, 0) == frame.v[static_cast<std::size_t>(3 * k)]);
  }
  // A 5 x 4 sheet with stride 2: 3 x 2 nodes, spacing 2 dx; v = i + 10 j.
  fhn::Domain d;
  d.dims = 2;
  d.nodes = {5, 4, 1};
  d.length = {2.0, 1.5, 0.0};
  d.dx = 0.5;
  std::vector<double> v(20), w(20, 0.25);
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 5; ++i) v[static_cast<std::size_t>(i + 5 * j)] = i + 10.0 * j;
  fhn::FrameView view;
  view.t = 2.0;
  view.n = 20;
  view.domain = &d;
  view.v = v.data();
  view.w = w.data();
  auto sheet = fhn::make_vtk_series_writer(dir.path() / "sheet", "s", fhn::Precision::float64, 2);
  sheet->write(view);
  const auto image = read_vti(dir.path() / "sheet" / "frames" / "s_000000.vti");
  int dims[3];
  image->GetDimensions(dims);
  CHECK(dims[0] == 3);
  CHECK(dims[1] == 2);
  CHECK(image->GetSpacing()[0] == 1.0);
  vtkDataArray* values = image->GetPointData()->GetArray("v");
  for (int b = 0; b < 2; ++b)
    for (int a = 0; a < 3; ++a) CHECK(values->GetComponent(a + 3 * b, 0) == 2.0 * a + 20.0 * b);

  // A 5 x 4 x 5 box with stride 2: 3 x 2 x 3 nodes, spacing 2 dx along every axis, float32;
  // v = i + 10 j + 100 k.
  fhn::Domain box;
  box.dims = 3;
  box.nodes = {5, 4, 5};
  box.length = {2.0, 1.5, 2.0};
  box.dx = 0.5;
  std::vector<double> bv(100), bw(100, 0.5);
  for (int k = 0; k < 5; ++k)
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 5; ++i) bv[static_cast<std::size_t>(i + 5 * (j + 4 * k))] = i + 10.0 * j + 100.0 * k;
  view.n = 100;
  view.domain = &box;
  view.v = bv.data();
  view.w = bw.data();
  auto boxes = fhn::make_vtk_series_writer(dir.path() / "box", "b", fhn::Precision::float32, 2);
  boxes->write(view);
  const auto box_image = read_vti(dir.path() / "box" / "frames" / "b_000000.vti");
  box_image->GetDimensions(dims);
  CHECK(dims[0] == 3);
  CHECK(dims[1] == 2);
  CHECK(dims[2] == 3);
  CHECK(box_image->GetSpacing()[2] == 1.0);
  vtkDataArray* box_values = box_image->GetPointData()->GetArray("v");
  CHECK(box_values->GetDataTypeAsString() == std::string("float"));
  for (int c = 0; c < 3; ++c)
    for (int b = 0; b < 2; ++b)
      for (int a = 0; a < 3; ++a)
        CHECK(box_values->GetComponent(a + 3 * (b + 2 * c), 0) == 2.0 * a + 20.0 * b + 200.0 * c);
}

TEST_CASE("the .pvd times read back exactly, and the file names follow FrameView::index") {
  TempDir dir;
  const std::vector<double> times{0.1 + 0.2, 1.0 / 3.0, 1e-20, 12345.678901234567, 2.5e300};
  const TestFrame frame(0, 0.0);
  auto writer = fhn::make_vtk_series_writer(dir.path(), "t", fhn::Precision::float64);
  for (std::size_t k = 0; k < times.size(); ++k) {
    fhn::FrameView view = frame.view(static_cast<fhn::index_t>(10 * k));
    view.t = times[k];
    writer->write(view);
  }
  const auto entries = parse_collection(dir.path() / "t.pvd");
  REQUIRE(entries.size() == times.size());
  for (std::size_t k = 0; k < times.size(); ++k) {
    CHECK(entries[k].timestep == times[k]);
    char expected[64];
    std::snprintf(expected, sizeof expected, "frames/t_%06zu.vtu", 10 * k);
    CHECK(entries[k].file == expected);
  }
}

TEST_CASE("the VTK series writer throws IoError when it cannot create or write its files") {
  TempDir dir;
  fhn::write_file_atomically(dir.path() / "plain", "x");
  CHECK_THROWS_AS(fhn::make_vtk_series_writer(dir.path() / "plain" / "out", "a",
                                              fhn::Precision::float64),
                  fhn::IoError);

  // frames/ disappears after construction and a regular file takes its place.
  auto writer = fhn::make_vtk_series_writer(dir.path() / "out", "a", fhn::Precision::float64);
  fs::remove(dir.path() / "out" / "frames");
  fhn::write_file_atomically(dir.path() / "out" / "frames", "x");
  const TestFrame frame(0, 0.0);
  CHECK_THROWS_AS(writer->write(frame.view(0)), fhn::IoError);
  try {
    writer->write(frame.view(0));
  } catch (const fhn::IoError& error) {
    CHECK(std::string(error.what()).find("a_000000.vtu") != std::string::npos);
  }
  // The collection, written at once, still names no frame.
  const std::string pvd = fhn::test::read_text(dir.path() / "out" / "a.pvd");
  CHECK(pvd.find("</VTKFile>") != std::string::npos);
  CHECK(pvd.find("<DataSet") == std::string::npos);
}

TEST_CASE("the spacetime image has x along the first axis, t along the second") {
  TempDir dir;
  const fs::path file = dir.path() / "sub" / "spacetime.vti";
  const fhn::Domain cable = fhn::cable(n, 0.5);
  const std::vector<double> times{2.0, 2.5, 3.0, 3.25};  // the last interval is shorter
  std::vector<std::vector<double>> v(times.size(), std::vector<double>(n));

  auto writer = fhn::make_spacetime_writer(file, 100);
  for (std::size_t k = 0; k < times.size(); ++k) {
    for (int i = 0; i < n; ++i) v[k][i] = std::sin(0.3 * i + static_cast<double>(k)) / 3.0;
    fhn::FrameView frame;
    frame.index = static_cast<fhn::index_t>(k);
    frame.t = times[k];
    frame.n = n;
    frame.domain = &cable;
    frame.v = v[k].data();
    writer->write(frame);
  }
  CHECK_FALSE(fs::exists(file));  // written by finish() only
  writer->finish();

  const auto image = read_vti(file);
  int dims[3];
  image->GetDimensions(dims);
  CHECK(dims[0] == n);
  CHECK(dims[1] == 4);
  CHECK(dims[2] == 1);
  double origin[3];
  image->GetOrigin(origin);
  CHECK(origin[0] == 0.0);
  CHECK(origin[1] == 2.0);
  CHECK(origin[2] == 0.0);
  double spacing[3];
  image->GetSpacing(spacing);
  CHECK(spacing[0] == 0.5);
  CHECK(spacing[1] == doctest::Approx(1.25 / 3.0).epsilon(1e-15));
  CHECK(spacing[2] == 1.0);

  vtkDataArray* values = image->GetPointData()->GetArray("v");
  REQUIRE(values != nullptr);
  CHECK(values->GetDataType() == VTK_DOUBLE);
  for (int k = 0; k < 4; ++k) {
    for (int i = 0; i < n; ++i) CHECK(values->GetComponent(k * n + i, 0) == v[k][i]);
  }
  vtkFieldData* field = image->GetFieldData();
  REQUIRE(field->GetArray("TIME_FIRST") != nullptr);
  REQUIRE(field->GetArray("TIME_LAST") != nullptr);
  REQUIRE(field->GetArray("FRAME_TIMES") != nullptr);
  CHECK(field->GetArray("TIME_FIRST")->GetComponent(0, 0) == 2.0);
  CHECK(field->GetArray("TIME_LAST")->GetComponent(0, 0) == 3.25);
  REQUIRE(field->GetArray("FRAME_TIMES")->GetNumberOfTuples() == 4);
  for (int k = 0; k < 4; ++k) CHECK(field->GetArray("FRAME_TIMES")->GetComponent(k, 0) == times[k]);
  CHECK_FALSE(fs::exists(dir.path() / "sub" / "spacetime.vti.tmp"));

  // finish() again changes nothing, even when the file is gone.
  fs::remove(file);
  writer->finish();
  CHECK_FALSE(fs::exists(file));
}

TEST_CASE("the spacetime image keeps every s-th node when there are more than max_columns") {
  // n = 7: max_columns 3 -> s = 3 (nodes 0 3 6); 4, 5 and 6 -> s = 2 (0 2 4 6); 7 -> s = 1.
  struct Case {
    int max_columns, stride, columns;
  };
  const std::vector<Case> cases{{3, 3, 3}, {4, 2, 4}, {5, 2, 4}, {6, 2, 4}, {7, 1, 7}};
  const fhn::Domain cable = fhn::cable(n, 0.5);
  std::vector<double> v(n);
  for (int i = 0; i < n; ++i) v[i] = 1.0 + i;  // so column j holds 1 + j s
  for (const Case& c : cases) {
    const int max_columns = c.max_columns, stride = c.stride, columns = c.columns;
    CAPTURE(max_columns);
    TempDir dir;
    auto writer = fhn::make_spacetime_writer(dir.path() / "st.vti", max_columns);
    fhn::FrameView frame;
    frame.n = n;
    frame.domain = &cable;
    frame.v = v.data();
    writer->write(frame);
    writer->finish();

    const auto image = read_vti(dir.path() / "st.vti");
    int dims[3];
    image->GetDimensions(dims);
    CHECK(dims[0] == columns);
    CHECK(dims[1] == 1);
    double spacing[3];
    image->GetSpacing(spacing);
    CHECK(spacing[0] == 0.5 * stride);
    vtkDataArray* values = image->GetPointData()->GetArray("v");
    for (int j = 0; j < columns; ++j) CHECK(values->GetComponent(j, 0) == 1.0 + j * stride);
  }
}

TEST_CASE("the spacetime image interpolates frames on other nodes onto the base grid's columns") {
  TempDir dir;
  auto writer = fhn::make_spacetime_writer(dir.path() / "st.vti", 100);
  const fhn::Domain base = fhn::cable(5, 1.0);  // x = 0, 1, 2, 3, 4
  const std::vector<double> v0{0.0, 0.0, 0.0, 0.0, 0.0};
  const std::vector<fhn::index_t> nodes1{0, 2, 4};  // a coarser adaptive grid: v = 2x + 1 on it
  const std::vector<double> v1{1.0, 5.0, 9.0};
  fhn::FrameView frame;
  frame.n = 5;
  frame.domain = &base;
  frame.v = v0.data();
  writer->write(frame);
  frame.t = 1.0;
  frame.n = 3;
  frame.nodes = nodes1.data();
  frame.v = v1.data();
  writer->write(frame);
  writer->finish();

  const auto image = read_vti(dir.path() / "st.vti");
  vtkDataArray* values = image->GetPointData()->GetArray("v");
  REQUIRE(values->GetNumberOfTuples() == 10);
  for (int j = 0; j < 5; ++j) CHECK(values->GetComponent(5 + j, 0) == 2.0 * j + 1.0);
}

TEST_CASE("the spacetime writer writes nothing without frames and rejects impossible targets") {
  TempDir dir;
  auto writer = fhn::make_spacetime_writer(dir.path() / "st.vti", 10);
  writer->finish();
  writer->finish();
  CHECK(fs::is_empty(dir.path()));

  fhn::write_file_atomically(dir.path() / "plain", "x");
  CHECK_THROWS_AS(fhn::make_spacetime_writer(dir.path() / "plain" / "st.vti", 10), fhn::IoError);
  CHECK_THROWS_AS(fhn::make_spacetime_writer(dir.path() / "st.vti", 1), fhn::ConfigError);
  CHECK(fhn::vtk_compiled());
}

TEST_CASE("the curve series: polylines read back exactly, a closed one repeats its first point") {
  TempDir dir;
  const fs::path out = dir.path() / "run";
  fhn::Polyline open;
  open.points = {{0.5, 1.0, 0.0}, {0.5, 1.25, 0.5}, {0.75, 1.5, 1.0}};
  fhn::Polyline ring;
  ring.closed = true;
  for (int k = 0; k < 8; ++k)
    ring.points.push_back({2.0 + std::cos(k * fhn::kTwoPi / 8), 3.0 + std::sin(k * fhn::kTwoPi / 8),
                           0.25});
  auto series = fhn::make_curve_series(out, "box_filaments");
  series->write(0, 0.0, {open, ring});
  series->write(1, 0.5, {});  // a frame without curves is an empty PolyData
  const auto entries = parse_collection(out / "box_filaments.pvd");
  REQUIRE(entries.size() == 2);
  CHECK(entries[0].file == "frames/box_filaments_000000.vtp");
  CHECK(entries[1].timestep == 0.5);

  vtkNew<vtkXMLPolyDataReader> reader;
  reader->SetFileName((out / entries[0].file).c_str());
  reader->Update();
  REQUIRE(reader->GetErrorCode() == 0);
  vtkPolyData* data = reader->GetOutput();
  REQUIRE(data->GetNumberOfPoints() == 11);
  REQUIRE(data->GetNumberOfLines() == 2);
  CHECK(data->GetPoints()->GetDataType() == VTK_DOUBLE);
  double p[3];
  data->GetPoint(1, p);
  CHECK((p[0] == 0.5 && p[1] == 1.25 && p[2] == 0.5));
  vtkCell* cell = data->GetCell(0);  // VTK reuses the cell object: one at a time
  CHECK(cell->GetCellType() == VTK_POLY_LINE);
  CHECK(cell->GetNumberOfPoints() == 3);
  vtkCell* second = data->GetCell(1);
  REQUIRE(second->GetNumberOfPoints() == 9);  // the ring's 8 points and its first again
  CHECK(second->GetPointId(0) == 3);
  CHECK(second->GetPointId(8) == 3);
  vtkDataArray* length = data->GetCellData()->GetArray("length");
  vtkDataArray* radius = data->GetCellData()->GetArray("radius");
  vtkDataArray* closed = data->GetCellData()->GetArray("closed");
  REQUIRE((length != nullptr && radius != nullptr && closed != nullptr));
  CHECK(length->GetTuple1(0) == open.length());
  CHECK(length->GetTuple1(1) == ring.length());
  CHECK(std::isnan(radius->GetTuple1(0)));
  CHECK(radius->GetTuple1(1) == doctest::Approx(1.0).epsilon(1e-12));
  CHECK(closed->GetTuple1(1) == 1.0);
  CHECK(data->GetFieldData()->GetArray("TIME")->GetTuple1(0) == 0.0);

  reader->SetFileName((out / entries[1].file).c_str());
  reader->Update();
  REQUIRE(reader->GetErrorCode() == 0);
  CHECK(reader->GetOutput()->GetNumberOfPoints() == 0);
  CHECK(reader->GetOutput()->GetFieldData()->GetArray("TIME")->GetTuple1(0) == 0.5);
}

TEST_CASE("a box run writes 3-D frames, a 3-D activation map and the filaments' series, and "
          "announces their size") {
  // 9 x 9 x 9 nodes, float64, 3 frames: 729 x 16 B a frame, and the activation map's two arrays
  // of 729 float64 values.
  TempDir dir;
  const fhn::Config c = fhn::test::config_from(
      "name: cube\ndomain: {length: [4, 4, 4], dx: 0.5}\ntime: {end: 0.2, dt: 0.02}\n"
      "output: {every: 0.1, probes: []}\n");
  fhn::RunOptions options;
  options.output_dir = dir.path() / "cube";
  options.quiet = true;
  fhn::run_simulation(c, options);
  CHECK(fhn::test::contains(fhn::test::read_text(options.output_dir / "run.log"),
                            "output: 3 frames x 11.7 kB + activation.vti 11.7 kB = 46.7 kB at most "
                            "(before compression)"));
  const auto image = read_vti(options.output_dir / "activation.vti");
  int dims[3] = {0, 0, 0};
  image->GetDimensions(dims);
  CHECK((dims[0] == 9 && dims[1] == 9 && dims[2] == 9));
  CHECK(image->GetPointData()->GetArray("conduction_velocity") != nullptr);
  const auto curves = parse_collection(options.output_dir / "cube_filaments.pvd");
  REQUIRE(curves.size() == 3);
  CHECK(curves[2].file == "frames/cube_filaments_000002.vtp");
  CHECK(fs::exists(options.output_dir / curves[2].file));
}


TEST_CASE("phase map: the frames' phase is atan2 at the nodes, and its singularities are the "
          "iso-line tips") {
  // A Barkley spiral (test_spiral_tips.cpp's) and the default medium's spiral start.
  struct Case {
    const char* name;
    const char* yaml;
  };
  for (const Case& k :
       {Case{"barkley", "name: barkley\nmodel: {form: barkley}\n"
                        "domain: {length: [20, 20], dx: 0.25}\ntime: {end: 20, dt: 0.005}\n"
                        "initial: {v: {type: spiral, wavelength: 10}, w: {type: spiral, "
                        "wavelength: 10}}\noutput: {every: 5, phase: true}\n"},
        Case{"cubic", "name: cubic\ndomain: {length: [60, 60], dx: 0.5}\n"
                      "time: {end: 40, dt: 0.05}\n"
                      "initial: {v: {type: spiral, wavelength: 40}, w: {type: spiral, "
                      "wavelength: 40}}\noutput: {every: 10, phase: true}\n"}}) {
    CAPTURE(k.name);
    fhn::test::TempDir dir;
    const fhn::Config c = fhn::test::config_from(k.yaml);
    fhn::test::run_config(c, dir.path());
    const int last = static_cast<int>(c.output.frames_in(c.time.steps)) - 1;
    const auto image = read_vti(frame_file(dir.path(), k.name, last));
    check_phase(image, c.output.tips.v_iso, c.output.tips.w_iso);

    // The singularities from the phase array alone: cells around which it winds (the wrapped
    // differences along the edges counter-clockwise, over 2 pi).
    vtkDataArray* phase = image->GetPointData()->GetArray("phase");
    const fhn::index_t nx = c.domain.nodes[0], ny = c.domain.nodes[1];
    auto at = [&](fhn::index_t i, fhn::index_t j) { return phase->GetTuple1(i + nx * j); };
    const double two_pi = 2.0 * std::acos(-1.0);
    struct Cell {
      fhn::index_t i, j;
      long charge;
    };
    std::vector<Cell> singular;
    for (fhn::index_t j = 0; j + 1 < ny; ++j)
      for (fhn::index_t i = 0; i + 1 < nx; ++i) {
        const double corner[5] = {at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1), at(i, j)};
        double winding = 0.0;
        for (int e = 0; e < 4; ++e) winding += std::remainder(corner[e + 1] - corner[e], two_pi);
        if (const long q = std::lround(winding / two_pi); q != 0) singular.push_back({i, j, q});
      }
    // As many as the iso-line tips of the last frame, as summary.json counts them both.
    const std::string summary = fhn::test::read_text(dir / "summary.json");
    CHECK(!singular.empty());
    CHECK(fhn::test::contains(summary, "\"count_at_end\":" + std::to_string(singular.size()) + ","));
    CHECK(fhn::test::contains(summary, "\"phase_singularities_at_end\":" + std::to_string(singular.size()) + ","));
    // Each tip of the last frame (tips.csv) lies in a cell where the phase winds.
    const auto rows = fhn::test::read_csv(dir / "tips.csv");
    const std::string t_end = fhn::format_exact(c.time.end);
    std::size_t tips = 0;
    for (std::size_t r = 1; r < rows.size(); ++r) {
      if (rows[r][0] != t_end) continue;
      ++tips;
      // The tip's cell: its lower-left node (a tip on a cell's edge may belong to either).
      const double x = std::stod(rows[r][2]) / c.domain.dx, y = std::stod(rows[r][3]) / c.domain.dx;
      bool found = false;
      for (const Cell& s : singular)
        found = found || (x >= static_cast<double>(s.i) && x <= static_cast<double>(s.i + 1) &&
                          y >= static_cast<double>(s.j) && y <= static_cast<double>(s.j + 1));
      CAPTURE(x);
      CAPTURE(y);
      CHECK(found);
    }
    CHECK(tips == singular.size());
  }
}

TEST_CASE("phase map of a box: about the filaments' levels; without output.phase, no array") {
  fhn::test::TempDir dir;
  const fhn::Config c = fhn::test::config_from(
      "name: box\ndomain: {length: [10, 8, 6], dx: 0.5}\ntime: {end: 1, dt: 0.04}\n"
      "output: {every: 1, phase: true, filaments: {v: 0.4, w: 0.05}}\n");
  fhn::test::run_config(c, dir / "with");
  for (int frame : {0, 1}) check_phase(read_vti(frame_file(dir / "with", "box", frame)), 0.4, 0.05);
  const fhn::Config plain = fhn::test::config_from(
      "name: box\ndomain: {length: [10, 8, 6], dx: 0.5}\ntime: {end: 1, dt: 0.04}\n"
      "output: {every: 1}\n");
  fhn::test::run_config(plain, dir / "without");
  CHECK(read_vti(frame_file(dir / "without", "box", 1))->GetPointData()->GetArray("phase") ==
        nullptr);
}
