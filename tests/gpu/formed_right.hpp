#pragma once
// A right side formed inside the batched partitioned solver (solve_formed), for the GPU tests
// (test_gpu_batched.cpp): the template is instantiated in formed_right.cu, a CUDA translation
// unit, with a test form that reads all three values and the entry's indices.
#include <vector>

#include "core/types.hpp"
#include "solvers/batched_tridiagonal.hpp"

namespace fhn::test {

// d(s, row) = c + 0.25 (b + a) + 0.125 s - 0.0625 row, b and a the values of `in` in the systems
// s - 1 and s + 1 (0 outside the batch): what formed_right_reference forms on the host.
real test_form(index_t s, index_t row, real below, real centre, real above);

// x = A^-1 d for every system of `layout` (A: lower, diag, upper of n rows, host arrays), d
// formed by the solver from `in` (host, laid out as the batch).
std::vector<real> solve_formed_on_device(const solvers::BatchLayout& layout,
                                         const std::vector<real>& lower,
                                         const std::vector<real>& diag,
                                         const std::vector<real>& upper,
                                         const std::vector<real>& in);

}  // namespace fhn::test
