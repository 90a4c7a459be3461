// A scalar array of a 2-D VTK image (.vti) as a picture for masks and fields, read with VTK's
// vtkXMLImageDataReader (the format: VTK User's Guide, "VTK File Formats", XML ImageData).
#include "model/vti_image.hpp"

#include <vtkAbstractArray.h>
#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkExecutive.h>
#include <vtkImageData.h>
#include <vtkInformation.h>
#include <vtkInformationInformationVectorKey.h>
#include <vtkInformationVector.h>
#include <vtkMatrix3x3.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkStreamingDemandDrivenPipeline.h>
#include <vtkXMLImageDataReader.h>

#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "core/error.hpp"
#include "core/host_memory.hpp"
#include "core/regular_file.hpp"
#include "core/vtk_error_capture.hpp"

namespace fhn {
namespace {

constexpr index_t kMaxSamples = index_t{1} << 28;

// The error every unusable file gets: "<path>: not a VTK image fhnsim can read: <why>".
[[noreturn]] void fail(const std::string& path, const std::string& why) {
  throw ConfigError(path + ": not a VTK image fhnsim can read: " + why);
}

// The names of the arrays of one kind of data (point or cell), as "'a', 'b'".
std::string array_names(vtkFieldData* data, const std::string& kind) {
  std::string names;
  for (int k = 0; k < data->GetNumberOfArrays(); ++k) {
    const char* name = data->GetArrayName(k);
    names += (names.empty() ? "" : ", ") + std::string("'") + (name ? name : "") + "' (" + kind +
             ")";
  }
  return names;
}

// Bytes per sample of the arrays the header declares for one kind of data (`kind`: the point or
// cell data's vector of array information): the sum of components times bytes per value.
real array_bytes(vtkInformation* header, vtkInformationInformationVectorKey* kind) {
  vtkInformationVector* arrays = header->Get(kind);
  real bytes = 0.0;
  for (int k = 0; arrays != nullptr && k < arrays->GetNumberOfInformationObjects(); ++k) {
    vtkInformation* info = arrays->GetInformationObject(k);
    const int components = info->Has(vtkDataObject::FIELD_NUMBER_OF_COMPONENTS())
                               ? info->Get(vtkDataObject::FIELD_NUMBER_OF_COMPONENTS())
                               : 1;
    bytes += static_cast<real>(components) *
             vtkDataArray::GetDataTypeSize(info->Get(vtkDataObject::FIELD_ARRAY_TYPE()));
  }
  return bytes;
}

}  // namespace

bool vti_supported() { return true; }

Picture read_vti(const std::string& path, const std::string& array) {
  if (const std::string why = not_regular_file(path); !why.empty()) fail(path, why);
  vtkNew<vtkXMLImageDataReader> reader;
  // VTK's messages are captured (kept off stderr) and become the ConfigError's reason: the
  // reader's, its XML parser's (a malformed file) and its pipeline's.
  vtkNew<VtkErrorCapture> errors;
  reader->AddObserver(vtkCommand::ErrorEvent, errors);
  reader->SetParserErrorObserver(errors);
  vtkNew<VtkErrorCapture> pipeline_errors;
  reader->GetExecutive()->AddObserver(vtkCommand::ErrorEvent, pipeline_errors);
  auto check_errors = [&] {
    if (!errors->messages().empty()) fail(path, errors->messages());
    if (!pipeline_errors->messages().empty()) fail(path, pipeline_errors->messages());
  };
  if (reader->CanReadFile(path.c_str()) == 0) {
    check_errors();
    fail(path, "not VTK XML ImageData (a .vti file as VTK and ParaView write it)");
  }
  reader->SetFileName(path.c_str());

  // 1. The header: the points it declares and the arrays' types, checked before VTK allocates
  // them (a file of a few kB may declare 10^10 points).
  reader->UpdateInformation();
  check_errors();
  vtkInformation* header = reader->GetOutputInformation(0);
  if (header == nullptr || !header->Has(vtkStreamingDemandDrivenPipeline::WHOLE_EXTENT()))
    fail(path, "VTK read no image extent");
  int extent[6];
  header->Get(vtkStreamingDemandDrivenPipeline::WHOLE_EXTENT(), extent);
  const std::array<index_t, 3> dims{index_t{extent[1]} - extent[0] + 1,
                                    index_t{extent[3]} - extent[2] + 1,
                                    index_t{extent[5]} - extent[4] + 1};
  const auto describe = std::to_string(dims[0]) + " x " + std::to_string(dims[1]) + " x " +
                        std::to_string(dims[2]) + " points";
  if (dims[2] != 1)
    fail(path, "a sheet takes a 2-D image (one layer of points along z), this one has " +
                   describe);
  if (dims[0] < 2 || dims[1] < 2)
    fail(path, "a picture needs at least 2 x 2 points (an area in x and y), this one has " +
                   describe);
  if (dims[0] * dims[1] > kMaxSamples)
    fail(path, describe + " is more than the 2^28 samples a picture may have");
  // VTK's arrays at their own types, and the picture's value per sample.
  const auto point_count = static_cast<real>(dims[0] * dims[1]);
  const auto cell_count = static_cast<real>((dims[0] - 1) * (dims[1] - 1));
  check_host_memory(point_count * array_bytes(header, vtkDataObject::POINT_DATA_VECTOR()) +
                        cell_count * array_bytes(header, vtkDataObject::CELL_DATA_VECTOR()) +
                        point_count * static_cast<real>(sizeof(real)),
                    path + ": reading its " + describe,
                    "A picture of fewer points would fit (one point per node of the grid is as "
                    "fine as a mask or field can use).");

  // 2. The image.
  reader->Update();
  check_errors();
  vtkImageData* image = reader->GetOutput();
  if (image == nullptr) fail(path, "VTK read no image");
  double origin[3], spacing[3];
  image->GetOrigin(origin);
  image->GetSpacing(spacing);
  image->GetExtent(extent);
  if (!image->GetDirectionMatrix()->IsIdentity())
    fail(path, "its direction matrix is not the identity (a rotated image); resample it onto "
               "axis-aligned points first (ParaView: Resample To Image)");
  if (!(spacing[0] > 0.0 && spacing[1] > 0.0))
    fail(path, "its spacing in x and y must be positive");

  // The array: the one named, else the active point scalars, else the only array there is.
  vtkPointData* points = image->GetPointData();
  vtkCellData* cells = image->GetCellData();
  vtkDataArray* values = nullptr;
  bool at_points = true;
  const std::string listing = [&] {
    const std::string p = array_names(points, "point data"), c = array_names(cells, "cell data");
    const std::string all = p + (!p.empty() && !c.empty() ? ", " : "") + c;
    return all.empty() ? std::string("it has no arrays") : "its arrays: " + all;
  }();
  if (!array.empty()) {
    values = points->GetArray(array.c_str());
    if (values == nullptr) {
      values = cells->GetArray(array.c_str());
      at_points = false;
    }
    if (values == nullptr) {
      const bool there = points->GetAbstractArray(array.c_str()) != nullptr ||
                         cells->GetAbstractArray(array.c_str()) != nullptr;
      fail(path, "array '" + array + "' " + (there ? "holds no numbers" : "is not in the image") +
                     " (" + listing + ")");
    }
  } else if (points->GetScalars() != nullptr) {
    values = points->GetScalars();
  } else if (points->GetNumberOfArrays() + cells->GetNumberOfArrays() == 1) {
    at_points = points->GetNumberOfArrays() == 1;
    values = at_points ? points->GetArray(0) : cells->GetArray(0);
    if (values == nullptr) fail(path, "its only array holds no numbers (" + listing + ")");
  } else {
    fail(path, "no array is named (key 'array') and the image has no active point scalars to "
               "take (" + listing + ")");
  }
  if (values->GetNumberOfComponents() != 1)
    fail(path, std::string("array '") + (values->GetName() ? values->GetName() : "") + "' has " +
                   std::to_string(values->GetNumberOfComponents()) +
                   " components; a picture takes a scalar array (one component)");

  // Point data: one sample per point; cell data: one per cell, between the points. VTK's row j
  // (index i + W j) is y = origin + (extent_y0 + j) spacing, so the picture's row 0 (its top) is
  // VTK's last.
  Picture picture;
  picture.at_points = at_points;
  picture.width = dims[0] - (at_points ? 0 : 1);
  picture.height = dims[1] - (at_points ? 0 : 1);
  const auto count = static_cast<std::size_t>(picture.width * picture.height);
  if (static_cast<std::size_t>(values->GetNumberOfTuples()) != count)
    fail(path, "array '" + std::string(values->GetName() ? values->GetName() : "") + "' has " +
                   std::to_string(values->GetNumberOfTuples()) + " values, not the " +
                   std::to_string(count) + " of the image's " +
                   (at_points ? "points" : "cells"));
  picture.values.resize(count);
  for (index_t row = 0; row < picture.height; ++row)
    for (index_t column = 0; column < picture.width; ++column) {
      const real v = values->GetComponent(column + picture.width * (picture.height - 1 - row), 0);
      picture.values[static_cast<std::size_t>(column + picture.width * row)] =
          std::isfinite(v) ? v : std::numeric_limits<real>::quiet_NaN();
    }
  const real x0 = origin[0] + extent[0] * spacing[0], y0 = origin[1] + extent[2] * spacing[1];
  picture.own_bounds =
      std::array<real, 4>{x0, x0 + static_cast<real>(dims[0] - 1) * spacing[0], y0,
                          y0 + static_cast<real>(dims[1] - 1) * spacing[1]};
  return picture;
}

}  // namespace fhn
