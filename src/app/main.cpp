#include <iostream>

#include "app/cli.hpp"
#include "core/error.hpp"

// Started by mpirun with several ranks, the world communicator connects them (MPI is initialised
// here and finalised on return); otherwise this is one process and MPI is never touched.
int main(int argc, char** argv) {
  std::unique_ptr<fhn::Communicator> world;
  try {
    world = fhn::make_world_communicator();
  } catch (const fhn::Error& e) {
    std::cerr << "fhn: error: " << e.what() << "\n";
    return static_cast<int>(e.code());
  }
  return fhn::cli_main(argc, argv, std::cout, std::cerr, world.get());
}
