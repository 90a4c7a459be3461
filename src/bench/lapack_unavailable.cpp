// LAPACK not found at build time: the dgtsv baseline is skipped, and says why.
#include "bench/lapack.hpp"

namespace fhn::bench {

bool lapack_dgtsv(index_t, real*, real*, real*, real*, std::string& why_not) {
  why_not = "LAPACK was not found when this fhn was built (Debian: liblapack-dev, then rebuild)";
  return false;
}

}  // namespace fhn::bench
