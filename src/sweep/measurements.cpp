#include "sweep/measurements.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace fhn {
namespace {
constexpr real kNaN = std::numeric_limits<real>::quiet_NaN();
}  // namespace

MemberMeasurements::MemberMeasurements(std::vector<real> probes, real threshold, index_t expected)
    : threshold_(threshold), expected_(expected) {
  for (real x : probes) {
    Probe p;
    p.x = x;
    p.apd = kNaN;
    probes_.push_back(p);
  }
}

void MemberMeasurements::sample(real t, const real* v) {
  for (std::size_t i = 0; i < probes_.size(); ++i) {
    Probe& p = probes_[i];
    const real now = v[i];
    if (p.sampled) {
      // The time where the line through the two samples meets theta.
      auto crossing = [&] { return p.t + (threshold_ - p.v) * (t - p.t) / (now - p.v); };
      if (p.v < threshold_ && now >= threshold_) {
        p.activations.push_back(crossing());
        p.excited = true;
      } else if (p.v >= threshold_ && now < threshold_ && p.excited) {
        p.apd = crossing() - p.activations.back();
        p.excited = false;
      }
    }
    p.sampled = true;
    p.t = t;
    p.v = now;
  }
}

real MemberMeasurements::first_activation(std::size_t probe) const {
  const auto& a = probes_[probe].activations;
  return a.empty() ? kNaN : a.front();
}

real MemberMeasurements::speed_of(std::size_t pulse) const {
  if (probes_.size() < 2) return kNaN;
  const Probe& a = probes_.front();
  const Probe& b = probes_.back();
  if (pulse >= a.activations.size() || pulse >= b.activations.size()) return kNaN;
  const real dt = std::abs(b.activations[pulse] - a.activations[pulse]);
  return dt > 0.0 ? std::abs(b.x - a.x) / dt : kNaN;
}

real MemberMeasurements::speed() const { return speed_of(0); }

std::size_t MemberMeasurements::pulses_paired() const {
  if (expected_ > 0) return static_cast<std::size_t>(expected_);
  return probes_.empty() ? 0 : probes_.front().activations.size();
}

real MemberMeasurements::last_speed() const {
  const std::size_t k = pulses_paired();
  return k == 0 ? kNaN : speed_of(k - 1);
}

bool MemberMeasurements::propagated() const {
  return !probes_.empty() && probes_.back().activations.size() >= std::max<std::size_t>(pulses_paired(), 1);
}

}  // namespace fhn
