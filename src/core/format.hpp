#pragma once
// Number formatting shared by messages and writers.
#include <string>

#include "core/types.hpp"

namespace fhn {

// Shortest decimal text that reads back to exactly the same double (e.g. "0.1", "1e-10").
std::string format_exact(real value);

}  // namespace fhn
