// The GPU tridiagonal backends are not part of this build: the factory says so clearly.
#include <string>

#include "core/build_info.hpp"
#include "core/error.hpp"
#include "solvers/device_solvers.hpp"

namespace fhn::solvers {

std::unique_ptr<TridiagonalSolver> make_device_tridiagonal_solver(TridiagonalBackend backend,
                                                                  index_t /*n_max*/) {
  const std::string name(backend_name(backend));
  if (!cuda_compiled())
    throw DeviceError("tridiagonal backend '" + name +
                      "' not compiled; rebuild with -DFHN_WITH_CUDA=ON (needs the CUDA Toolkit)");
  throw DeviceError("tridiagonal backend '" + name +
                    "' is not available in this build: the GPU solvers come with the CUDA scheme "
                    "backend, which this version does not include yet; use 'thomas'");
}

}  // namespace fhn::solvers
