#pragma once
// Restitution at the probes: per probe and beat the action potential's duration (APD) and the
// diastolic interval (DI) that follows it, from the probes' samples (output.probes_every, linear
// in time between samples); and the conduction velocity between consecutive probes, beat by beat.
//
// A beat begins at the activation, v crossing the threshold theta (output.activation.threshold)
// upwards: t_act = t_0 + (theta - v_0) / (v_1 - v_0) (t_1 - t_0) between the samples (t_0, v_0),
// (t_1, v_1) around it. Its resting level v_rest is the least v since the previous beat's
// repolarisation (the run's start for the first), its peak v_peak the greatest v since the
// activation. It ends at the repolarisation, v crossing
//   v_rep = v_peak - r (v_peak - v_rest)
// downwards (r = output.restitution.level), interpolated alike: the usual "APD at r x 100 %
// repolarisation", r = 0.9 giving APD90. Then
//   APD_n = t_rep,n - t_act,n,   DI_n = t_act,n+1 - t_rep,n,
// DI_n the interval of rest that precedes beat n + 1, so that the restitution curve pairs
// APD_{n+1} with DI_n (Nolasco and Dahlen, J. Appl. Physiol. 25, 191 (1968)); APD_n + DI_n is
// the cycle length t_act,n+1 - t_act,n. A new beat is counted only after the previous one
// repolarised.
//
// Between consecutive probes a and b (in output.probes' order) the conduction velocity of beat n,
// seen at both, is CV = |p_b - p_a| / (t_act,n(b) - t_act,n(a)): positive when the wave runs from
// a to b. On a planar wave along the pair's line it is the wave's speed.
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "core/types.hpp"
#include "grid/domain.hpp"
#include "io/json.hpp"

namespace fhn {

constexpr real kNoTime = std::numeric_limits<real>::quiet_NaN();

struct Beat {
  real activation = kNoTime;
  real repolarisation = kNoTime;  // NaN until v crossed the repolarisation level
  real v_rest = 0.0;
  real v_peak = 0.0;
};

// One probe's beats from its samples of v, in time order.
class BeatDetector {
 public:
  BeatDetector(real threshold, real level) : threshold_(threshold), level_(level) {}
  void add(real t, real v);
  const std::vector<Beat>& beats() const { return beats_; }

 private:
  real threshold_, level_;
  bool started_ = false;
  bool excited_ = false;  // between an activation and its repolarisation
  real t_prev_ = 0.0, v_prev_ = 0.0;
  real v_min_ = 0.0;  // least v since the last repolarisation
  std::vector<Beat> beats_;
};

// The beats of every probe, written as restitution.csv and cv.csv and summarised in
// summary.json's "restitution".
class RestitutionTracker {
 public:
  RestitutionTracker(const std::vector<Point>& positions, int dims, real threshold, real level);
  // One sample: v[k] at probe k at time t.
  void add(real t, const std::vector<real>& v);
  // The samples of a probes.csv already written (a restarted run's, cut to the checkpoint): the
  // tracker continues as if it had seen them.
  void replay(const std::filesystem::path& probes_csv);
  const std::vector<Beat>& beats(std::size_t probe) const { return probes_[probe].beats(); }
  // restitution.csv (probe, x[, y[, z]], beat, activation, repolarisation, apd, di, v_rest,
  // v_peak; empty where not known yet) and cv.csv (from, to, beat, distance, activation_from,
  // activation_to, cv), rewritten whole.
  void write(const std::filesystem::path& dir) const;
  void add_summary(JsonObject& summary) const;

 private:
  std::vector<Point> positions_;
  int dims_;
  real threshold_, level_;
  std::vector<BeatDetector> probes_;
};

}  // namespace fhn
