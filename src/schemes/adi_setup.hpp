#pragma once
// What the split Crank-Nicolson scheme (scheme.crank_nicolson.formulation: adi) sets up once per
// run, the same on every backend: the reaction sub-step's parameters, the constant line matrices
// of the diffusion step (or, on a sheet with a tissue mask or D per node, one row per node and
// axis) and their batched solvers (maths in adi_point.hpp). AdiCpu and the CUDA scheme
// (cuda/adi_cuda.cu) both build on it.
#include <cstdint>
#include <memory>
#include <vector>

#include "model/problem.hpp"
#include "schemes/adi_point.hpp"
#include "solvers/batched_tridiagonal.hpp"

namespace fhn {

// The parts of the split scheme that do not depend on where it runs: the reaction parameters and
// the line matrices.
struct AdiSetup {
  ReactionParams reaction;
  real r = 0.0;  // k D / h^2
  // Per axis: the matrix I - (k/2) D d of its lines (host arrays of N_axis entries; empty beyond
  // the domain's axes).
  std::vector<real> lower[kMaxAxes], diag[kMaxAxes], upper[kMaxAxes];
  // A sheet whose fields are not uniform (adi_point.hpp, "Sheets with a tissue mask or D per
  // node"; no anisotropic tensor, which the factories refuse): every node's quadrant
  // byte (model/tissue.hpp), and per axis the row of each node in its line's matrix, host arrays
  // in node order (the layout of the right sides, rows and columns alike). Empty otherwise.
  std::vector<std::uint8_t> quadrants;
  std::vector<real> node_lower[kMaxAxes], node_diag[kMaxAxes], node_upper[kMaxAxes];
  bool medium() const { return !quadrants.empty(); }
};
AdiSetup adi_setup(const Problem& problem, const CrankNicolsonSpec& spec);

// The batched solvers of the diffusion step, their matrices set: along[a] solves the lines along
// axis a (the rows of a sheet along x, its columns along y; none beyond the domain's axes).
// Throws ConfigError when the solver does not work in `space` (the backend's memory), naming the
// solvers that do.
struct AdiSolvers {
  std::unique_ptr<solvers::BatchedTridiagonalSolver> along[kMaxAxes];
};
AdiSolvers adi_solvers(const AdiSetup& setup, const Domain& domain,
                       solvers::TridiagonalBackend backend, MemorySpace space);

}  // namespace fhn
