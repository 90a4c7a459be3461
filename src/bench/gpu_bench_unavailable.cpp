// CUDA not compiled in: `fhn bench` runs the CPU part only, and says why.
#include "bench/bench.hpp"

namespace fhn::bench {

bool run_gpu_benchmarks(const BenchOptions&, std::vector<BenchRow>&, std::string& why_not) {
  why_not = "CUDA is not compiled into this build (rebuild with -DFHN_WITH_CUDA=ON)";
  return false;
}

}  // namespace fhn::bench
