#include "parallel/ranks_tridiagonal.hpp"

#include <algorithm>
#include <string>

#include "core/error.hpp"

namespace fhn {

RanksReducedSystem::RanksReducedSystem(Communicator& comm)
    : comm_(comm), thomas_(2 * static_cast<index_t>(comm.size())) {}

solvers::BlockCouplings RanksReducedSystem::solve(const solvers::BlockEnds& ends) {
  const std::array<real, 8> rows =
      solvers::reduced_rows(ends, comm_.rank() > 0, comm_.rank() + 1 < comm_.size());
  const std::vector<real> all = comm_.gather(std::vector<real>(rows.begin(), rows.end()));

  // The root solves the 2P rows and sends rank r its L = G_{r-1} and R = F_{r+1}, and whether
  // the reduced solve succeeded (1) or not (0), so that all ranks stop alike.
  std::vector<real> neighbours;
  std::string failure;
  const auto ranks = static_cast<index_t>(comm_.size());
  if (comm_.root()) {
    const auto rows_total = static_cast<std::size_t>(2 * ranks);
    std::vector<real> lower(rows_total), diag(rows_total), upper(rows_total), z(rows_total);
    for (index_t r = 0; r < ranks; ++r) {
      std::array<real, 8> rank_rows;
      std::copy_n(all.begin() + 8 * r, 8, rank_rows.begin());
      solvers::place_reduced_rows(rank_rows, r, lower.data(), diag.data(), upper.data(), z.data());
    }
    lower[0] = upper[rows_total - 1] = 0.0;
    real solved = 1.0;
    try {
      thomas_.solve({2 * ranks, lower.data(), diag.data(), upper.data()}, z.data());
    } catch (const NumericalError& e) {
      failure = e.what();
      solved = 0.0;
    }
    for (index_t r = 0; r < ranks; ++r) {
      const solvers::BlockCouplings c = solvers::couplings_of(z.data(), r, ranks);
      neighbours.insert(neighbours.end(), {c.left, c.right, solved});
    }
  }
  const std::vector<real> mine =
      comm_.scatter(neighbours, std::vector<std::size_t>(static_cast<std::size_t>(ranks), 3));
  if (mine[2] == 0.0)
    throw NumericalError("the reduced system of the solve over ranks" +
                         (failure.empty() ? std::string(" failed on rank 0") : ": " + failure));
  return {mine[0], mine[1]};
}

RanksPartitionedSolver::RanksPartitionedSolver(Communicator& comm, index_t n_max)
    : comm_(comm),
      local_(n_max),
      reduced_(comm),
      p_(static_cast<std::size_t>(n_max)),
      q_(static_cast<std::size_t>(n_max)) {}

void RanksPartitionedSolver::solve(const solvers::TridiagonalSystem& a, real* x) {
  const index_t m = a.n;
  FHN_VERIFY(m >= 2, InternalError, "a block of the partitioned solve over ranks needs 2 rows");
  const bool has_left = comm_.rank() > 0, has_right = comm_.rank() + 1 < comm_.size();
  // 1. y, p, q by Thomas on the block (it never reads lower[0] or upper[m-1]). A failure here
  //    must stop every rank alike (a NumericalError is not one rank's alone).
  std::string failure;
  try {
    std::fill(p_.begin(), p_.begin() + m, 0.0);
    std::fill(q_.begin(), q_.begin() + m, 0.0);
    p_[0] = has_left ? -a.lower[0] : 0.0;
    q_[static_cast<std::size_t>(m - 1)] = has_right ? -a.upper[m - 1] : 0.0;
    local_.solve(a, x);  // x = y
    if (has_left) local_.solve(a, p_.data());
    if (has_right) local_.solve(a, q_.data());
  } catch (const NumericalError& e) {
    failure = e.what();
  }
  if (comm_.any(!failure.empty()))
    throw NumericalError(failure.empty() ? "the tridiagonal solve failed on another rank"
                                         : "rank " + std::to_string(comm_.rank()) + ": " + failure);

  // 2. The reduced system of every rank's ends, solved on the root: L and R.
  const auto last = static_cast<std::size_t>(m - 1);
  const solvers::BlockCouplings couplings =
      reduced_.solve({x[0], x[last], p_[0], p_[last], q_[0], q_[last]});

  // 3. x = y + L p + R q.
  for (index_t k = 0; k < m; ++k)
    x[k] += couplings.left * p_[static_cast<std::size_t>(k)] +
            couplings.right * q_[static_cast<std::size_t>(k)];
}

}  // namespace fhn
