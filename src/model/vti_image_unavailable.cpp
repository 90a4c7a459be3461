// Without VTK: the same entry points, saying what is missing.
#include "model/vti_image.hpp"

#include "core/error.hpp"

namespace fhn {

bool vti_supported() { return false; }

Picture read_vti(const std::string& path, const std::string&) {
  throw ConfigError(path + ": this build reads no VTK images (it was configured without VTK, "
                           "FHN_WITH_VTK=OFF or VTK not found); install VTK (Debian: "
                           "libvtk9-dev) and rebuild, or give the picture as a PNG");
}

}  // namespace fhn
