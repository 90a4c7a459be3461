#pragma once
// What sweep.csv reports of one member, from v sampled at its probes over time.
//
// At each probe, with threshold theta and samples (t_k, v_k), v linear between samples:
//   activation: v crosses theta upwards between two samples, at
//               t* = t_{k-1} + (theta - v_{k-1}) (t_k - t_{k-1}) / (v_k - v_{k-1});
//   its end:    the next downward crossing, found the same way;
//   APD:        end - activation of the last action potential that ended (duration at theta).
// Between the first probe (x_a) and the last one (x_b), pulses are paired by order. K is the
// number of stimulus pulses the member received (E, from its config), or where it received none
// (a wave train driven by a boundary) the number of pulses the first probe saw:
//   speed      = |x_b - x_a| / |t_b,1 - t_a,1|     (the first pulse)
//   last_speed = |x_b - x_a| / |t_b,K - t_a,K|     (the K-th: S2 in an S1-S2 protocol), when both
//                                                 probes saw at least K pulses;
//   propagated = the last probe saw at least max(K, 1) pulses: every stimulus started a wave
//                that reached it.
// A value that cannot be measured (no pulse, no end) is NaN (an empty cell in sweep.csv).
#include <vector>

#include "core/types.hpp"

namespace fhn {

class MemberMeasurements {
 public:
  // `expected`: E, the stimulus pulses the member receives (0: none, boundary-driven).
  MemberMeasurements(std::vector<real> probes, real threshold, index_t expected);

  // v at every probe at time t (one value per probe, in probe order), times increasing.
  void sample(real t, const real* v);

  index_t pulses(std::size_t probe) const { return static_cast<index_t>(probes_[probe].activations.size()); }
  real first_activation(std::size_t probe) const;  // NaN: none
  real apd(std::size_t probe) const { return probes_[probe].apd; }
  real speed() const;
  real last_speed() const;
  bool propagated() const;

 private:
  struct Probe {
    real x = 0.0;
    bool sampled = false;
    real t = 0.0, v = 0.0;  // the previous sample
    bool excited = false;   // an activation whose end has not come yet
    std::vector<real> activations;
    real apd;
  };
  real speed_of(std::size_t pulse) const;
  std::size_t pulses_paired() const;  // K

  real threshold_;
  index_t expected_;
  std::vector<Probe> probes_;
};

}  // namespace fhn
