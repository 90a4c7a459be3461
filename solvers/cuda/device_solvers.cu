// The GPU tridiagonal backends of a CUDA build, single and batched.
#include <string>

#include "core/cuda/device_buffer.hpp"
#include "core/error.hpp"
#include "solvers/cuda/batched_cusparse.hpp"
#include "solvers/cuda/batched_partitioned.hpp"
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
    case TridiagonalBackend::thomas_partitioned:
      break;
  }
  throw InternalError("make_device_tridiagonal_solver: '" + name +
                      "' is not a GPU backend (make_tridiagonal_solver makes it on the host)");
}

std::unique_ptr<BatchedTridiagonalSolver> make_device_batched_solver(TridiagonalBackend backend) {
  const std::string name(backend_name(backend));
  try {
    cuda::require_device();
  } catch (const DeviceError& e) {
    throw DeviceError("batched tridiagonal backend '" + name + "' cannot run: " + e.what());
  }
  if (backend == TridiagonalBackend::partitioned)
    return std::make_unique<BatchedPartitionedSolver>();
  if (backend == TridiagonalBackend::cusparse) return std::make_unique<BatchedCusparseSolver>();
  throw InternalError("make_device_batched_solver: '" + name +
                      "' has no batched GPU form (make_batched_tridiagonal_solver rejects it)");
}

}  // namespace fhn::solvers
