#pragma once
// The `fhn` command line. Kept out of main() so tests can run it in-process and check the exit
// code and the messages.
#include <iosfwd>

namespace fhn {

// Parses argv, runs the subcommand, prints errors to `err`, returns the process exit code
// (DESIGN.md section 6).
int cli_main(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace fhn
