// The VTK writers of a build configured with -DFHN_WITH_VTK=OFF: same factories, which refuse
// clearly, so that callers need no #ifdef (CMake compiles this file instead of vtk_writers.cpp).
#include "core/error.hpp"
#include "io/vtk_writers.hpp"

namespace fhn {

namespace {

[[noreturn]] void throw_not_compiled() {
  throw ConfigError(
      "VTK output is not compiled into this build (configured with -DFHN_WITH_VTK=OFF); set "
      "output.vtk: false, output.spacetime: false and output.activation.enabled: false, or "
      "rebuild with VTK");
}

}  // namespace

std::unique_ptr<FrameSink> make_vtk_series_writer(const std::filesystem::path&, const std::string&,
                                                  Precision, index_t, real,
                                                  const std::optional<PhaseLevels>&) {
  throw_not_compiled();
}

void write_image(const std::filesystem::path&, const Domain&, const std::vector<NamedValues>&,
                 const std::vector<NamedValues>&) {
  throw_not_compiled();
}

std::unique_ptr<CurveSeries> make_curve_series(const std::filesystem::path&, const std::string&,
                                               real) {
  throw_not_compiled();
}

std::unique_ptr<FrameSink> make_spacetime_writer(const std::filesystem::path&, index_t, real,
                                                 index_t) {
  throw_not_compiled();
}

bool vtk_compiled() { return false; }

}  // namespace fhn
