// LAPACK found at build time: the reference implementation's dgtsv through its Fortran symbol.
#include <climits>

#include "bench/lapack.hpp"

extern "C" void dgtsv_(const int* n, const int* nrhs, double* dl, double* d, double* du, double* b,
                       const int* ldb, int* info);

namespace fhn::bench {

bool lapack_dgtsv(index_t n, real* dl, real* d, real* du, real* b, std::string& why_not) {
  if (n > INT_MAX) {
    why_not = "dgtsv takes n as a 32-bit Fortran INTEGER; n = " + std::to_string(n) + " is larger";
    return false;
  }
  const int size = static_cast<int>(n);
  const int one = 1;
  int info = 0;
  dgtsv_(&size, &one, dl, d, du, b, &size, &info);
  if (info != 0) {
    why_not = info > 0 ? "dgtsv: U(" + std::to_string(info) + "," + std::to_string(info) +
                             ") is exactly zero (singular matrix)"
                       : "dgtsv: argument " + std::to_string(-info) + " is invalid";
    return false;
  }
  return true;
}

}  // namespace fhn::bench
