#include "core/format.hpp"

#include <charconv>
#include <cstdio>

namespace fhn {

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

}  // namespace fhn
