// The CPU cases of the MPI tests (fhn_mpi_tests) need nothing beyond the ranks themselves.
#include "tests/mpi/world.hpp"

namespace fhn::test {

std::string missing_requirement(Communicator&) { return ""; }

}  // namespace fhn::test
