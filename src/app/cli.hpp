#pragma once
// The `fhn` command line. Kept out of main() so tests can run it in-process and check the exit
// code and the messages.
#include <iosfwd>

#include "parallel/communicator.hpp"

namespace fhn {

// Parses argv, runs the subcommand, prints errors to `err`, returns the process exit code
// (docs/ARCHITECTURE.md section 5). `world`: the ranks mpirun started (nullptr: this process
// alone). Every rank calls cli_main with the same arguments; `run` and `sweep` spread over the
// ranks, the other commands refuse several ranks or print on rank 0 only. An error that only this
// rank can know of (an I/O error of the root's writers, a rank's device failing) is printed with
// the rank and ends every rank (Communicator::abort), since the others would wait for this one
// forever.
int cli_main(int argc, const char* const* argv, std::ostream& out, std::ostream& err,
             Communicator* world = nullptr);

}  // namespace fhn
