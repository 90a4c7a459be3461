#pragma once
// The communicator of the MPI test executable (started by ctest under mpirun -np 2). Every test
// case runs on every rank, in the same order, and makes the same collective calls.
#include "parallel/communicator.hpp"

namespace fhn::test {

Communicator& world();

}  // namespace fhn::test
