// A build without CUDA: the GPU tridiagonal backends are not compiled, and the factories say so.
#include <string>

#include "core/error.hpp"
#include "solvers/device_solvers.hpp"

namespace fhn::solvers {

std::unique_ptr<TridiagonalSolver> make_device_tridiagonal_solver(TridiagonalBackend backend,
                                                                  index_t /*n_max*/) {
  throw DeviceError("tridiagonal backend '" + std::string(backend_name(backend)) +
                    "' not compiled; rebuild with -DFHN_WITH_CUDA=ON (needs the CUDA Toolkit)");
}

std::unique_ptr<BatchedTridiagonalSolver> make_device_batched_solver(TridiagonalBackend backend) {
  throw DeviceError("batched tridiagonal backend '" + std::string(backend_name(backend)) +
                    "' not compiled; rebuild with -DFHN_WITH_CUDA=ON (needs the CUDA Toolkit)");
}

}  // namespace fhn::solvers
