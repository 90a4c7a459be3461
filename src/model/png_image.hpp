#pragma once
// A grey image read from a PNG file: the picture a tissue: or fields: region of shape `image`
// takes its shape from (model/tissue.hpp). Built with zlib (png_image.cpp); without it
// (png_image_unavailable.cpp) reading one throws a ConfigError that says what to install.
#include <string>

#include "config/config.hpp"

namespace fhn {

// The PNG file at `path` as a Picture (config/config.hpp): every pixel's value in [0, 1], the
// grey level, or for colour pixels the luma 0.299 R + 0.587 G + 0.114 B (ITU-R BT.601, what
// image programs call "greyscale"), of samples scaled by 1 / (2^depth - 1), times the pixel's
// alpha where the image has one (a transparent pixel is black). Every colour type and bit depth
// of the PNG standard (ISO/IEC 15948) is read; interlaced images are not (a ConfigError says
// so). Throws ConfigError naming the file for a file that cannot be read or is not such a PNG.
Picture read_png(const std::string& path);

// Whether PNG files can be read in this build (zlib was found).
bool png_supported();

}  // namespace fhn
