// The tests of distributed runs. CTest starts this executable under `mpirun -np 2`; each rank runs
// every test case. Started as one process (no launcher) the same cases run on one rank, which
// must give the same results. Only rank 0 prints doctest's report; a failure on any rank fails the
// run (the exit codes are combined). Where the executable's requirement is missing on some rank
// (missing_requirement: a CUDA device for the GPU cases) every rank exits with 77, which CTest
// reports as skipped.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <exception>
#include <string>

#include "tests/mpi/world.hpp"

namespace fhn::test {
namespace {
Communicator* g_world = nullptr;
}
Communicator& world() { return *g_world; }
}  // namespace fhn::test

int main(int argc, char** argv) {
  std::unique_ptr<fhn::Communicator> world;
  try {
    world = fhn::make_world_communicator();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  fhn::test::g_world = world.get();
  if (const std::string missing = fhn::test::missing_requirement(*world); !missing.empty()) {
    if (world->root()) std::printf("%s: skipped\n", missing.c_str());
    return 77;
  }
  doctest::Context ctx(argc, argv);
  if (!world->root()) ctx.setOption("out", "/dev/null");
  const int status = ctx.run();
  const bool failed = world->any(status != 0);
  return failed ? 1 : 0;
}
