#pragma once
// The partition method for one tridiagonal system cut into consecutive blocks (the chunks of
// PartitionedThomasSolver, or the slabs of a cable spread over ranks: the exchange between ranks
// is the caller's, src/parallel/ranks_tridiagonal.hpp): each block is reduced to two rows in its
// first and last unknowns, the 2B reduced rows are solved, each block is then finished.
//
// Block b (m >= 2 rows, k = 0..m-1): a_k x_{k-1} + b_k x_k + c_k x_{k+1} = d_k, where
// a_0 couples to L = the previous block's last unknown and c_{m-1} to R = the next block's first
// (both 0 at the ends of the chain). With T the block without those two couplings (Thomas):
//   x = y + L p + R q,   T y = d,  T p = -a_0 e_0,  T q = -c_{m-1} e_{m-1}.
// Its first and last rows F = x_0 and G = x_{m-1} then satisfy
//   (A) F - p_0 L - q_0 R = y_0,   (B) G - p_{m-1} L - q_{m-1} R = y_{m-1},
// with L = G of block b-1 and R = F of block b+1. Taking A - (q_0/q_{m-1}) B and
// B - (p_{m-1}/p_0) A keeps each row's unknowns neighbours in the order (F_0, G_0, F_1, ...):
//   F_b - (p_0 - q_0 p_{m-1}/q_{m-1}) G_{b-1} - (q_0/q_{m-1}) G_b = y_0 - (q_0/q_{m-1}) y_{m-1},
//   G_b - (p_{m-1}/p_0) F_b - (q_{m-1} - p_{m-1} q_0/p_0) F_{b+1} = y_{m-1} - (p_{m-1}/p_0) y_0
// (at a chain end p or q is 0 and the row is A or B as it is): a tridiagonal system of 2B rows,
// diagonally dominant when the blocks are (|p|, |q| < 1, decaying away from their coupling).
//
// The reduced system only needs the six end values of a block's y, p and q, wherever these were
// computed: on the host by Thomas, or on a GPU (the CUDA Crank-Nicolson slabs).
#include <array>

#include "core/types.hpp"

namespace fhn::solvers {

// The first and last values of a block's three solutions y, p, q (p = 0 without a left
// neighbour, q = 0 without a right one).
struct BlockEnds {
  real y_first, y_last;
  real p_first, p_last;
  real q_first, q_last;
};

// A block's two reduced rows, (lower, diag, upper, rhs) of A - (q_0/q_{m-1}) B then of
// B - (p_{m-1}/p_0) A; has_left / has_right: whether the previous / next block exists.
std::array<real, 8> reduced_rows(const BlockEnds& ends, bool has_left, bool has_right);

// The couplings of block b: L = G_{b-1} and R = F_{b+1} (0 at the ends of the chain).
struct BlockCouplings {
  real left;
  real right;
};

// Puts block `block`'s two reduced rows (as reduced_rows returns them) into rows 2 block and
// 2 block + 1 of the reduced system's lower, diag, upper and right side.
void place_reduced_rows(const std::array<real, 8>& rows, index_t block, real* lower, real* diag,
                        real* upper, real* rhs);

// Block `block`'s couplings from the solved reduced system z (2 blocks values, F_0, G_0, F_1, ...):
// L = G_{block-1} = z[2 block - 1] and R = F_{block+1} = z[2 block + 2], 0 at the chain's ends.
BlockCouplings couplings_of(const real* z, index_t block, index_t blocks);

}  // namespace fhn::solvers
