#include "solvers/cpu/partition_method.hpp"

namespace fhn::solvers {

std::array<real, 8> reduced_rows(const BlockEnds& e, bool has_left, bool has_right) {
  const real top = has_right ? e.q_first / e.q_last : 0.0;    // A - top B
  const real bottom = has_left ? e.p_last / e.p_first : 0.0;  // B - bottom A
  return {-(e.p_first - top * e.p_last), 1.0, -top, e.y_first - top * e.y_last,
          -bottom, 1.0, -(e.q_last - bottom * e.q_first), e.y_last - bottom * e.y_first};
}

void place_reduced_rows(const std::array<real, 8>& rows, index_t block, real* lower, real* diag,
                        real* upper, real* rhs) {
  for (std::size_t half = 0; half < 2; ++half) {
    const auto i = static_cast<std::size_t>(2 * block) + half;
    lower[i] = rows[4 * half];
    diag[i] = rows[4 * half + 1];
    upper[i] = rows[4 * half + 2];
    rhs[i] = rows[4 * half + 3];
  }
}

BlockCouplings couplings_of(const real* z, index_t block, index_t blocks) {
  return {block > 0 ? z[2 * block - 1] : 0.0, block + 1 < blocks ? z[2 * block + 2] : 0.0};
}

}  // namespace fhn::solvers
