#pragma once
// A closed, open or half-open interval of allowed values: what a config key or a kinetics
// parameter accepts, and how a message names it.
#include <limits>
#include <string>

#include "core/format.hpp"
#include "core/types.hpp"

namespace fhn {

constexpr real kInf = std::numeric_limits<real>::infinity();

struct Interval {
  real lo = -kInf;
  real hi = kInf;
  bool lo_open = false;
  bool hi_open = false;

  bool contains(real x) const {
    return (lo_open ? x > lo : x >= lo) && (hi_open ? x < hi : x <= hi);
  }
  std::string describe() const {
    if (lo == -kInf && hi == kInf) return "any finite number";
    if (hi == kInf) return std::string(lo_open ? "a number > " : "a number >= ") + format_exact(lo);
    if (lo == -kInf) return std::string(hi_open ? "a number < " : "a number <= ") + format_exact(hi);
    return std::string("a number in ") + (lo_open ? "(" : "[") + format_exact(lo) + ", " +
           format_exact(hi) + (hi_open ? ")" : "]");
  }
};
// Host and device: a form's parameters() table names its intervals, and kernels walk the table;
// constexpr, so that the table can be counted at compile time (kinetics/kinetics.hpp).
FHN_HOST_DEVICE constexpr Interval positive() { return {0.0, kInf, true, false}; }
FHN_HOST_DEVICE constexpr Interval non_negative() { return {0.0, kInf, false, false}; }
FHN_HOST_DEVICE constexpr Interval any_number() { return {}; }
FHN_HOST_DEVICE constexpr Interval closed(real lo, real hi) { return {lo, hi, false, false}; }

}  // namespace fhn
