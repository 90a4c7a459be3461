#include "core/format.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <limits>

namespace fhn {
namespace {

// Levenshtein distance: the fewest insertions, deletions and substitutions turning a into b.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitution = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
      diagonal = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, substitution});
    }
  }
  return row[b.size()];
}

}  // namespace

std::string format_exact(real value) {
  // std::to_chars without a precision gives the shortest text that reads back exactly,
  // in fixed or scientific notation, whichever is shorter ("300", "0.1", "1e-10").
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

std::string human_bytes(real bytes) {
  const char* units[] = {"B", "kB", "MB", "GB", "TB"};
  int u = 0;
  while (bytes >= 1000.0 && u < 4) {
    bytes /= 1000.0;
    ++u;
  }
  char text[32];
  std::snprintf(text, sizeof text, u == 0 ? "%.0f %s" : "%.1f %s", bytes, units[u]);
  return text;
}

std::string shell_quoted(const std::string& word) {
  const char* plain =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./=:,+@%-";
  if (!word.empty() && word.find_first_not_of(plain) == std::string::npos) return word;
  std::string quoted = "'";
  for (const char ch : word) quoted += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return quoted + "'";
}

std::uint64_t fnv1a(const char* data, std::size_t size, std::uint64_t hash) {
  for (std::size_t i = 0; i < size; ++i) {
    hash ^= static_cast<unsigned char>(data[i]);
    hash *= 1099511628211ull;
  }
  return hash;
}

std::string hex_digest(const std::string& text) { return hex_digest(fnv1a(text.data(), text.size())); }

std::string hex_digest(std::uint64_t hash) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  return hex;
}

std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates) {
  const std::string* best = nullptr;
  std::size_t best_distance = std::numeric_limits<std::size_t>::max();
  const std::size_t limit = std::max<std::size_t>(2, word.size() / 3);
  for (const auto& candidate : candidates) {
    // The distance is at least the difference in length: skip hopeless (e.g. huge) words.
    const std::size_t length_gap = std::max(word.size(), candidate.size()) -
                                   std::min(word.size(), candidate.size());
    if (length_gap > limit) continue;
    const std::size_t d = edit_distance(word, candidate);
    if (d < best_distance) {
      best_distance = d;
      best = &candidate;
    }
  }
  if (best == nullptr || best_distance > limit) return "";
  return "; did you mean '" + *best + "'?";
}

}  // namespace fhn
