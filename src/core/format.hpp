#pragma once
// Number formatting shared by messages and writers.
#include <string>
#include <vector>

#include "core/types.hpp"

namespace fhn {

// Shortest decimal text that reads back to exactly the same double (e.g. "0.1", "1e-10").
std::string format_exact(real value);

// A byte count for people: "950 B", "12.3 MB", "4.5 GB" (powers of 1000).
std::string human_bytes(real bytes);

// "; did you mean 'gamma'?" when one of `candidates` is close enough to `word` (in edit
// distance) to be a plausible typo of it, else "".
std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace fhn
