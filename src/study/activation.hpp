#pragma once
// Activation times and conduction velocity on a sheet or in a box (activation.vti).
//
// A node activates when v crosses the threshold upwards. The scheme tests it inside every step
// (Scheme::record_activation, schemes/point/activation_point.hpp; a sweep's output members through
// MemberBatch::record_activation), and the frames carry its times (FrameView::activation_first,
// activation_last): independent of the output cadence.
// Between two samples (t0, v0), (t1, v1) with v0 < threshold <= v1, v linear in time, the crossing
// lies at
//   t* = t0 + (threshold - v0) / (v1 - v0) (t1 - t0)
// (upward_crossing: a point's activation read off frames, PointActivation).
// The conduction velocity is the speed of the activation front, from the first activation times:
//   CV = 1 / |grad t_act|,  grad by central differences, (t_{i+1} - t_{i-1}) / (2 h), one-sided
// where a neighbour is outside the grid or never activated; NaN where no difference exists or
// |grad t_act| = 0. Nodes that never activated hold NaN.
#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

#include "io/frame_sink.hpp"

namespace fhn {

// The upward crossing of `threshold` between (t0, v0) and (t1, v1) as above, NaN where there is
// none (a crossing: v0 < threshold <= v1).
real upward_crossing(real t0, real v0, real t1, real v1, real threshold);

class ActivationMap {
 public:
  ActivationMap(const Domain& domain, real threshold, bool keep_last);

  // The times a scheme recorded at every step (node_count values each; last: nullptr unless
  // keep_last), replacing what the map held.
  void take(const real* first, const real* last);

  const Domain& domain() const { return domain_; }
  real threshold() const { return threshold_; }
  bool keeps_last() const { return keep_last_; }
  bool empty() const { return !taken_; }  // no times taken yet
  const std::vector<real>& first() const { return first_; }  // NaN: never activated
  const std::vector<real>& last() const { return last_; }    // empty unless keep_last
  // 1 / |grad t_first| at every node (NaN where undefined).
  std::vector<real> conduction_velocity() const;

 private:
  Domain domain_;
  real threshold_;
  bool keep_last_;
  bool taken_ = false;
  std::vector<real> first_, last_;
};

// activation.vti of a sheet or a box, written by finish() with point arrays "activation_time"
// (first crossing), "last_activation_time" (when `last`) and "conduction_velocity" (NaN where
// undefined), field data "THRESHOLD" (io's write_image: needs VTK), from the times the scheme
// recorded at every step, which each frame carries (they ride in checkpoints as the scheme's
// arrays "activation.first", "activation.last").
std::unique_ptr<FrameSink> make_activation_writer(const std::filesystem::path& file,
                                                  const Domain& domain, real threshold, bool last);

// The first activation at one point of any domain (a work-precision study's activation_time):
// v at p in each frame as a probe reads it (FrameView::at), the first upward crossing of the
// threshold between frames (upward_crossing).
class PointActivation final : public FrameSink {
 public:
  PointActivation(const Point& p, real threshold) : point_(p), threshold_(threshold) {}
  void write(const FrameView& f) override;
  // nullopt: v at p never crossed the threshold upwards.
  std::optional<real> time() const { return time_; }

 private:
  Point point_;
  real threshold_;
  std::optional<real> previous_t_, previous_v_;
  std::optional<real> time_;
};

}  // namespace fhn
