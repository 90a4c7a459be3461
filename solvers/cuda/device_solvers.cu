// The GPU tridiagonal backends of a CUDA build.
#include <string>

#include "core/cuda/device_buffer.hpp"
#include "core/error.hpp"
#include "solvers/cuda/cusparse_gtsv.hpp"
#include "solvers/cuda/cyclic_reduction.hpp"
#include "solvers/cuda/partitioned.hpp"
#include "solvers/device_solvers.hpp"

namespace fhn::solvers {

std::unique_ptr<TridiagonalSolver> make_device_tridiagonal_solver(TridiagonalBackend backend,
                                                                  index_t n_max) {
  const std::string name(backend_name(backend));
  try {
    cuda::require_device();
  } catch (const DeviceError& e) {
    throw DeviceError("tridiagonal backend '" + name + "' cannot run: " + e.what());
  }
  switch (backend) {
    case TridiagonalBackend::partitioned:
      return std::make_unique<PartitionedSolver>(n_max);
    case TridiagonalBackend::cyclic_reduction:
      return std::make_unique<CyclicReductionSolver>(n_max);
    case TridiagonalBackend::cusparse:
    case TridiagonalBackend::cusparse_pivot:
      return std::make_unique<CusparseGtsvSolver>(backend, n_max);
    case TridiagonalBackend::thomas:
      break;
  }
  throw InternalError("make_device_tridiagonal_solver: '" + name +
                      "' is not a GPU backend (make_tridiagonal_solver makes it on the host)");
}

}  // namespace fhn::solvers
