#include "formed_right.hpp"

#include "core/cuda/device_buffer.hpp"
#include "solvers/cuda/batched_partitioned.cuh"

namespace fhn::test {
namespace {

struct TestForm {
  __host__ __device__ real operator()(index_t s, index_t row, real below, real centre,
                                      real above) const {
    return centre + 0.25 * (below + above) + 0.125 * static_cast<real>(s) -
           0.0625 * static_cast<real>(row);
  }
};

}  // namespace

real test_form(index_t s, index_t row, real below, real centre, real above) {
  return TestForm{}(s, row, below, centre, above);
}

std::vector<real> solve_formed_on_device(const solvers::BatchLayout& layout,
                                         const std::vector<real>& lower,
                                         const std::vector<real>& diag,
                                         const std::vector<real>& upper,
                                         const std::vector<real>& in) {
  solvers::BatchedPartitionedSolver solver;
  solver.set_matrix(lower.data(), diag.data(), upper.data(), layout.n);
  cuda::DeviceBuffer<real> field(in.size(), "formed test: in");
  field.upload(in.data(), in.size());
  cuda::DeviceBuffer<real> x(in.size(), "formed test: x");
  x.upload(in.data(), in.size());  // entries outside the batch stay as they were
  solver.solve_formed(layout, field.data(), TestForm{}, x.data());
  std::vector<real> out(in.size());
  x.download(out.data(), out.size());
  return out;
}

}  // namespace fhn::test
