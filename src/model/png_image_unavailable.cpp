// Without zlib: the same entry points, saying what is missing.
#include "model/png_image.hpp"

#include "core/error.hpp"

namespace fhn {

bool png_supported() { return false; }

Picture read_png(const std::string& path) {
  throw ConfigError(path + ": this build reads no PNG files (zlib was not found when it was "
                           "configured); install zlib (Debian: zlib1g-dev) and rebuild");
}

}  // namespace fhn
