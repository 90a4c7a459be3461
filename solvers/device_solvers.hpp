#pragma once
// The GPU tridiagonal backends (partitioned, cyclic_reduction, cusparse, cusparse_pivot) and
// their batched forms (partitioned, cusparse). Implemented in solvers/cuda/ when the CUDA backend
// is built; otherwise device_solvers_unavailable.cpp provides these factories and they report
// why the backend cannot run.
#include <memory>

#include "solvers/batched_tridiagonal.hpp"
#include "solvers/tridiagonal.hpp"

namespace fhn::solvers {

std::unique_ptr<TridiagonalSolver> make_device_tridiagonal_solver(TridiagonalBackend backend,
                                                                  index_t n_max);

// backend: partitioned or cusparse (make_batched_tridiagonal_solver rejects the others).
std::unique_ptr<BatchedTridiagonalSolver> make_device_batched_solver(TridiagonalBackend backend);

}  // namespace fhn::solvers
