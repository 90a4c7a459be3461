// make_world_communicator of a build without MPI: one process always; started by mpirun with
// several ranks it refuses, since every rank would run the whole problem and write the same files.
#include "core/build_info.hpp"
#include "core/error.hpp"
#include "parallel/communicator.hpp"

namespace fhn {

bool mpi_compiled() { return false; }

std::unique_ptr<Communicator> make_world_communicator() {
  const int ranks = launcher_ranks();
  if (ranks > 1)
    throw ConfigError("started with " + std::to_string(ranks) +
                      " MPI ranks, but this fhn was built without MPI (configured with "
                      "-DFHN_WITH_MPI=OFF, or the MPI development files were not found: install "
                      "libopenmpi-dev and rebuild); run it without mpirun, as one process");
  return make_serial_communicator();
}

}  // namespace fhn
