#include "solvers/cuda/partitioned.hpp"

#include <string>

#include "core/error.hpp"
#include "solvers/cuda/partitioned.cuh"

namespace fhn::solvers {

namespace {

using Rows = partitioned::ArrayRows;
using Sink = partitioned::ArraySink;

// The automatic choice ("at most two waves"): the single kernel while its blocks have at most
// kSingleKernelWaves tiles each of the top level, i.e. while the multi-kernel form's top-level
// grids run in at most that many waves of co-resident blocks. There a solve takes tens of
// microseconds, of which its 2 L + 1 launches (gaps, ramp-up and tail of each grid) are a large
// part, and the single kernel has a grid barrier in each gap between them instead. With more
// waves the launches are a small part, and the single kernel's fixed assignment of tiles to
// blocks can only lose against the hardware's, which gives each tile (block) to whichever block
// slot frees first. On an H100 (132 SMs, 6
// blocks of 33.8 KB shared memory each) two waves are n <= 1.6 M unknowns: a, b, c, d are 52 MB,
// about the 50 MB L2 cache. At n <= kBaseRows the multi-kernel form is one launch already and
// stays. To be tuned by measurement (fhn bench: "partitioned, one kernel" / "multi-kernel").
constexpr index_t kSingleKernelWaves = 2;

index_t checked_n_max(index_t n_max) {
  FHN_VERIFY(n_max >= 1, InternalError,
             "partitioned: solver made for n_max = " + std::to_string(n_max));
  // One block per tile: the grid of the first pass has ceil(n / kTileRows) blocks.
  FHN_VERIFY(n_max / partitioned::kTileRows < 2147483647, DeviceError,
             "partitioned: " + std::to_string(n_max) +
                 " unknowns need more thread blocks than one launch can have");
  return n_max;
}

}  // namespace

PartitionedSolver::PartitionedSolver(index_t n_max, Launch launch)
    : n_max_(checked_n_max(n_max)),
      launch_(launch),
      capacity_(partitioned::single_kernel_capacity<Rows, Sink>()),
      single_kernel_limit_(kSingleKernelWaves * capacity_ * partitioned::kTileRows),
      workspace_(std::make_unique<partitioned::Workspace>(n_max)) {
  FHN_VERIFY(capacity_ > 0 || launch != Launch::single_kernel, DeviceError,
             "partitioned: the single-kernel solve needs a cooperative launch, which this device "
             "does not support");
}

PartitionedSolver::~PartitionedSolver() = default;

bool PartitionedSolver::runs_single_kernel(index_t n) const {
  switch (launch_) {
    case Launch::multi_kernel: return false;
    case Launch::single_kernel: return true;
    case Launch::automatic: break;
  }
  return n > partitioned::kBaseRows && n <= single_kernel_limit_;
}

int PartitionedSolver::kernel_launches(index_t n) const {
  return runs_single_kernel(n) ? 1 : partitioned::multi_kernel_launches(n);
}

void PartitionedSolver::solve(const TridiagonalSystem& a, real* rhs_in_solution_out) {
  solve_on(a, rhs_in_solution_out, nullptr);
}

void PartitionedSolver::solve_on(const TridiagonalSystem& a, real* rhs_in_solution_out,
                                 cudaStream_t stream) {
  FHN_VERIFY(a.n >= 1 && a.n <= n_max_, InternalError,
             "partitioned: system of size " + std::to_string(a.n) + " for a solver made for " +
                 std::to_string(n_max_));
  // In place: each pass-2 tile reads and writes only its own part of the right-hand side.
  const Rows rows{a.lower, a.diag, a.upper, rhs_in_solution_out};
  const Sink sink{rhs_in_solution_out};
  if (runs_single_kernel(a.n))
    partitioned::solve_single(rows, sink, a.n, *workspace_, capacity_, stream);
  else
    partitioned::solve(rows, sink, a.n, *workspace_, stream);
}

}  // namespace fhn::solvers
