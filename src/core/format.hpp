#pragma once
// Number formatting shared by messages and writers.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/types.hpp"

namespace fhn {

// Shortest decimal text that reads back to exactly the same double (e.g. "0.1", "1e-10").
std::string format_exact(real value);

// A byte count for people: "950 B", "12.3 MB", "4.5 GB" (powers of 1000).
std::string human_bytes(real bytes);

// A word as the shell reads it back: unchanged when it holds only characters the shell takes
// literally, else in single quotes (a ' inside as '\''): for the commands messages suggest.
std::string shell_quoted(const std::string& word);

// FNV-1a, 64 bit: a fast hash that catches truncation and flipped bits (not a cryptographic one).
// `hash` continues the hash of the bytes before `data` (a file hashed a chunk at a time).
constexpr std::uint64_t kFnvOffset = 14695981039346656037ull;
std::uint64_t fnv1a(const char* data, std::size_t size, std::uint64_t hash = kFnvOffset);
// fnv1a of `text` as 16 hex digits: a digest that tells whether a config is the one written.
std::string hex_digest(const std::string& text);
// A hash as 16 hex digits.
std::string hex_digest(std::uint64_t hash);

// "; did you mean 'gamma'?" when one of `candidates` is close enough to `word` (in edit
// distance) to be a plausible typo of it, else "".
std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace fhn
