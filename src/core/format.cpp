#include "core/format.hpp"

#include <charconv>

namespace fhn {

std::string format_exact(real value) {
  // std::to_chars without a precision gives the shortest text that reads back exactly,
  // in fixed or scientific notation, whichever is shorter ("300", "0.1", "1e-10").
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

}  // namespace fhn
