#pragma once
// The GPU tridiagonal backends (partitioned, cyclic_reduction, cusparse, cusparse_pivot). Implemented in
// solvers/cuda/ when the CUDA backend is built; otherwise device_solvers_unavailable.cpp
// provides this factory and it reports why the backend cannot run.
#include <memory>

#include "solvers/tridiagonal.hpp"

namespace fhn::solvers {

std::unique_ptr<TridiagonalSolver> make_device_tridiagonal_solver(TridiagonalBackend backend,
                                                                  index_t n_max);

}  // namespace fhn::solvers
