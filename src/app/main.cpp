#include <csignal>
#include <iostream>

#include "app/cli.hpp"
#include "core/error.hpp"

// Started by mpirun with several ranks, the world communicator connects them (MPI is initialised
// here and finalised on return); otherwise this is one process and MPI is never touched.
int main(int argc, char** argv) {
  // A closed stdout or stderr (`fhn run ... 2>&1 | head -c 10`) must not kill a run: the files
  // are what matters. Ignored, SIGPIPE turns such a write into a failed one (EPIPE), which the
  // streams and fprintf absorb, and the run goes on to write all its files.
  std::signal(SIGPIPE, SIG_IGN);
  std::unique_ptr<fhn::Communicator> world;
  try {
    world = fhn::make_world_communicator();
  } catch (const fhn::Error& e) {
    std::cerr << "fhn: error: " << e.what() << "\n";
    return static_cast<int>(e.code());
  }
  return fhn::cli_main(argc, argv, std::cout, std::cerr, world.get());
}
