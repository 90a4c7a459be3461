#pragma once
// A picture read from a VTK image file (.vti, VTK's XML ImageData): the picture a tissue: or
// fields: region of shape `image` takes its values from (model/tissue.hpp). Built with VTK
// (vti_image.cpp, VTK's vtkXMLImageDataReader); without it (vti_image_unavailable.cpp) reading
// one throws a ConfigError that says what to install.
#include <string>

#include "config/config.hpp"

namespace fhn {

// The scalar array `array` of the 2-D VTK image at `path` as a Picture (config/config.hpp):
// point data sampled at the points, cell data in the cells, the rows flipped so that row 0 is
// the top (largest y), own_bounds from the image's origin and spacing. An empty `array` takes
// the point data's active scalars, else the image's only array. Throws ConfigError naming the
// file for a file that cannot be read, an image with more than one layer of points along z
// (a sheet takes one) or a direction matrix other than the identity, an array that is missing
// (the message lists those there are) or has more than one component.
Picture read_vti(const std::string& path, const std::string& array);

// Whether .vti files can be read in this build (VTK was found).
bool vti_supported();

}  // namespace fhn
