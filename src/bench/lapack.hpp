#pragma once
// LAPACK's dgtsv, the CPU baseline of the tridiagonal variants. LAPACK is optional at build
// time: lapack_dgtsv.cpp calls it where CMake found LAPACK, lapack_unavailable.cpp says why not.
#include <string>

#include "core/types.hpp"

namespace fhn::bench {

// Solves A x = b by Gaussian elimination with partial pivoting (LAPACK dgtsv). A has the
// sub-diagonal dl (n-1 entries: dl[i] = A(i+1, i)), the diagonal d (n) and the super-diagonal
// du (n-1); all three are overwritten by the LU factors and b (n) by x.
// Returns false with the reason in `why_not` when LAPACK is not built in or dgtsv fails.
bool lapack_dgtsv(index_t n, real* dl, real* d, real* du, real* b, std::string& why_not);

}  // namespace fhn::bench
