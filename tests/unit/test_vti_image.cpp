// Masks and fields from VTK images (.vti): a picture's samples at its points (nearest point) or
// in its cells, placed by the image's own origin and spacing or stretched over given bounds,
// NaN as no data, and the errors of unusable files. Compiled only into builds with VTK.
#include <doctest/doctest.h>

#include <vtkCellData.h>
#include <vtkDoubleArray.h>
#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkXMLImageDataWriter.h>

#include <array>
#include <cmath>
#include <filesystem>
#include <limits>
#include <string>
#include <cstdint>
#include <vector>

#include "config/loader.hpp"
#include "model/problem.hpp"
#include "model/vti_image.hpp"
#include "support.hpp"

namespace {

using fhn::index_t;
using fhn::real;
using fhn::test::config_error;
using fhn::test::config_from;
using fhn::test::contains;

// One array of a test image: at the points or in the cells, `components` values per sample.
struct Array {
  std::string name;
  std::vector<double> values;
  bool cells = false;
  int components = 1;
};

// Writes an nx x ny x nz-point image with the given origin, spacing and arrays to `file` (the
// first point array the active scalars when `active`); returns the path.
std::string write_vti(const std::filesystem::path& file, int nx, int ny, int nz,
                      std::array<double, 3> origin, std::array<double, 3> spacing,
                      const std::vector<Array>& arrays, bool active = false) {
  vtkNew<vtkImageData> image;
  image->SetDimensions(nx, ny, nz);
  image->SetOrigin(origin.data());
  image->SetSpacing(spacing.data());
  for (const Array& a : arrays) {
    vtkNew<vtkDoubleArray> values;
    values->SetName(a.name.c_str());
    values->SetNumberOfComponents(a.components);
    values->SetNumberOfTuples(static_cast<vtkIdType>(a.values.size()) / a.components);
    for (std::size_t k = 0; k < a.values.size(); ++k) values->SetValue(static_cast<vtkIdType>(k), a.values[k]);
    if (a.cells)
      image->GetCellData()->AddArray(values);
    else if (active && image->GetPointData()->GetScalars() == nullptr)
      image->GetPointData()->SetScalars(values);
    else
      image->GetPointData()->AddArray(values);
  }
  vtkNew<vtkXMLImageDataWriter> writer;
  writer->SetInputData(image);
  writer->SetFileName(file.c_str());
  REQUIRE(writer->Write() == 1);
  return file.string();
}

const std::string kSheet = "domain: {length: [20, 10], dx: 1}\ntime: {dt: 0.05}\n"
                           "output: {probes: []}\n";

// The value of model.a at node (i, j) of kSheet's 21 x 11 nodes.
real a_at(const fhn::Problem& p, index_t i, index_t j) {
  return p.fields.kinetics[0].values[static_cast<std::size_t>(i + 21 * j)];
}

}  // namespace

TEST_CASE("a .vti mask on the run's own grid reproduces the mask it was made from") {
  // The mask of a disc obstacle, written as a point array "tissue" (1 tissue, 0 outside; what
  // the frames' "tissue" array holds) beside a decoy array, read back as an image region.
  const std::string sheet = "domain: {length: [10, 5], dx: 0.5}\ntime: {dt: 0.05}\n"
                            "output: {probes: []}\n";
  const fhn::Problem disc = fhn::make_problem(
      config_from(sheet + "tissue: [{shape: disc, center: [4.3, 2.6], radius: 1.7}]\n"));
  REQUIRE(disc.fields.node_type.size() == 21 * 11);
  Array tissue{"tissue", {}}, decoy{"v", {}};
  for (std::uint8_t type : disc.fields.node_type) {
    tissue.values.push_back(type == 0 ? 1.0 : 0.0);
    decoy.values.push_back(0.25);
  }
  fhn::test::TempDir dir;
  const std::string file =
      write_vti(dir / "mask.vti", 21, 11, 1, {0, 0, 0}, {0.5, 0.5, 1}, {decoy, tissue});
  const fhn::Config c = config_from(sheet + "tissue: [{shape: image, op: add, file: " + file +
                                    ", array: tissue}]\n");
  CHECK(fhn::make_problem(c).fields.node_type == disc.fields.node_type);
  // The resolved config names the array and the bounds the image's origin and spacing gave.
  const std::string yaml = fhn::to_yaml(c);
  CHECK(contains(yaml, "array: tissue"));
  const fhn::Config again = fhn::load_config_text(yaml, "again.yaml");
  CHECK(again.tissue[0].x_max == 10.0);
  CHECK(fhn::make_problem(again).fields.node_type == disc.fields.node_type);
}

TEST_CASE("a field from a .vti's points: each node takes its nearest point, placed by the "
          "image's origin and spacing") {
  // 3 x 3 points at x = 4, 6, 8 and y = 2, 4, 6, sample p = 10 i + j at point (i, j) (VTK's
  // order, j up), the active scalars; model.a = from + p (to - from) = 0.01 p.
  Array p{"p", {}};
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) p.values.push_back(10.0 * i + j);
  fhn::test::TempDir dir;
  const std::string file = write_vti(dir / "p.vti", 3, 3, 1, {4, 2, 0}, {2, 2, 1}, {p}, true);
  const fhn::Problem prob = fhn::make_problem(config_from(
      kSheet + "fields: [{parameter: a, type: image, file: " + file + ", from: 0, to: 0.01}]\n"));
  CHECK(a_at(prob, 4, 2) == doctest::Approx(0.0));
  CHECK(a_at(prob, 8, 2) == doctest::Approx(0.20));
  CHECK(a_at(prob, 6, 6) == doctest::Approx(0.12));
  CHECK(a_at(prob, 8, 4) == doctest::Approx(0.21));
  // x = 7, halfway between the points at 6 and 8, rounds away from x_min: to 8.
  CHECK(a_at(prob, 7, 6) == doctest::Approx(0.22));
  // Half a spacing or more beyond the edge points: off the picture, model.a (0.01) stays.
  CHECK(a_at(prob, 3, 4) == 0.01);
  CHECK(a_at(prob, 9, 4) == 0.01);
  CHECK(a_at(prob, 6, 1) == 0.01);
  CHECK(a_at(prob, 6, 7) == 0.01);
  // Bounds given: the same points stretched over the sheet (x = 0, 10, 20; y = 0, 5, 10).
  const fhn::Problem stretched = fhn::make_problem(
      config_from(kSheet + "fields: [{parameter: a, type: image, file: " + file +
                  ", x_min: 0, x_max: 20, y_min: 0, y_max: 10, from: 0, to: 0.01}]\n"));
  CHECK(a_at(stretched, 10, 5) == doctest::Approx(0.11));
  CHECK(a_at(stretched, 18, 1) == doctest::Approx(0.20));
  CHECK(a_at(stretched, 0, 10) == doctest::Approx(0.02));
}

TEST_CASE("a .vti's cell data: a node takes the cell it falls in; NaN samples are no data") {
  // 3 x 3 points over [0, 20] x [0, 10], so 2 x 2 cells with c = 1, 2 (bottom), 3, 4 (top).
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Array c{"c", {1, 2, 3, 4}, true};
  fhn::test::TempDir dir;
  const std::string file = write_vti(dir / "c.vti", 3, 3, 1, {0, 0, 0}, {10, 5, 1}, {c});
  // The image's only array; tissue where c >= 2.5 (the top cells), the far edges included.
  const fhn::Problem top = fhn::make_problem(config_from(
      kSheet + "tissue: [{shape: image, op: add, file: " + file + ", threshold: 2.5}]\n"));
  auto outside = [&](const fhn::Problem& p, index_t i, index_t j) {
    return p.fields.node_type[static_cast<std::size_t>(i + 21 * j)] != 0;
  };
  CHECK(outside(top, 5, 2));
  CHECK(outside(top, 15, 4));
  CHECK_FALSE(outside(top, 5, 6));
  CHECK_FALSE(outside(top, 20, 10));
  // Values: a = from + p (to - from) with from = 0, to = 0.1.
  const fhn::Problem a = fhn::make_problem(config_from(
      kSheet + "fields: [{parameter: a, type: image, file: " + file + ", from: 0, to: 0.1}]\n"));
  CHECK(a_at(a, 5, 2) == doctest::Approx(0.1));
  CHECK(a_at(a, 15, 2) == doctest::Approx(0.2));
  CHECK(a_at(a, 5, 7) == doctest::Approx(0.3));
  CHECK(a_at(a, 15, 7) == doctest::Approx(0.4));
  // A NaN sample (what frames hold outside the tissue) is no data: a node on it keeps what it
  // had, and is in no image region whichever side of the threshold is inside.
  Array holes{"h", {0.2, nan, nan, 0.4}, true};
  const std::string with_nan = write_vti(dir / "h.vti", 3, 3, 1, {0, 0, 0}, {10, 5, 1}, {holes});
  const fhn::Problem kept = fhn::make_problem(config_from(
      kSheet + "fields: [{parameter: a, type: image, file: " + with_nan + ", from: 0, to: 1}]\n"));
  CHECK(a_at(kept, 5, 2) == doctest::Approx(0.2));
  CHECK(a_at(kept, 15, 2) == 0.01);
  CHECK(a_at(kept, 5, 7) == 0.01);
  for (const char* inside : {"above", "below"}) {
    const fhn::Problem none = fhn::make_problem(
        config_from(kSheet + "tissue: [{shape: image, op: remove, file: " + with_nan +
                    ", threshold: 0.3, inside: " + inside + "}]\n"));
    CAPTURE(std::string(inside));
    CHECK_FALSE(outside(none, 15, 2));  // NaN: never removed
    CHECK(outside(none, 5, 2) == (std::string(inside) == "below"));  // 0.2 < 0.3
    CHECK(outside(none, 15, 7) == (std::string(inside) == "above"));  // 0.4 >= 0.3
  }
}

TEST_CASE("unusable .vti pictures are config errors that name the key and say why") {
  fhn::test::TempDir dir;
  const std::vector<double> four(4, 1.0), twelve(12, 1.0);
  const std::string two = write_vti(dir / "two.vti", 2, 2, 1, {0, 0, 0}, {1, 1, 1},
                                    {{"v", four}, {"w", {1.0}, true}});
  const std::string vector = write_vti(dir / "vec.vti", 2, 2, 1, {0, 0, 0}, {1, 1, 1},
                                       {{"f", twelve, false, 3}});
  const std::string box = write_vti(dir / "box.vti", 2, 2, 2, {0, 0, 0}, {1, 1, 1},
                                    {{"v", std::vector<double>(8, 1.0)}});
  const std::string line = write_vti(dir / "line.vti", 5, 1, 1, {0, 0, 0}, {1, 1, 1},
                                     {{"v", std::vector<double>(5, 1.0)}});
  const std::string garbage = fhn::test::write_text(dir / "garbage.vti", "not xml at all\n");
  auto error = [](const std::string& entry) {
    return config_error(kSheet + "tissue: [{shape: image, " + entry + "}]\n");
  };
  CHECK(contains(error("file: " + two),
                 "tissue[0].file: " + two + ": not a VTK image fhnsim can read: no array is "
                 "named (key 'array') and the image has no active point scalars to take (its "
                 "arrays: 'v' (point data), 'w' (cell data))"));
  CHECK(contains(error("file: " + two + ", array: u"),
                 "array 'u' is not in the image (its arrays: 'v' (point data), 'w' (cell data))"));
  CHECK(contains(error("file: " + vector + ", array: f"),
                 "array 'f' has 3 components; a picture takes a scalar array (one component)"));
  CHECK(contains(error("file: " + box),
                 "a sheet takes a 2-D image (one layer of points along z), this one has 2 x 2 x "
                 "2 points"));
  CHECK(contains(error("file: " + line), "a picture needs at least 2 x 2 points"));
  CHECK(contains(error("file: " + garbage), "not VTK XML ImageData"));
  CHECK(contains(error("file: " + (dir / "absent.vti").string()), "absent.vti: not a VTK image "
                                                                  "fhnsim can read: no such file"));
  CHECK(contains(error("file: picture.jpg"),
                 "tissue[0].file: expected a PNG (.png) or VTK image (.vti) file, got "
                 "'picture.jpg'"));
  CHECK(contains(error("file: picture.png, array: v"),
                 "tissue[0].array: only a .vti image has arrays to choose from"));
  // A field's mapped samples must lie in the parameter's interval: here D = -p.
  CHECK(contains(config_error(kSheet + "fields: [{parameter: diffusion, type: image, file: " +
                              two + ", array: v, from: 0, to: -1}]\n"),
                 "fields[0]: the image's samples run from 1 to 1, which from + p (to - from) "
                 "maps to -1 .. -1; diffusion must be a number >= 0"));
}
