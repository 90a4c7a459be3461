#pragma once
// Activation times and conduction velocity on a sheet or in a box (activation.vti).
//
// A node activates when v crosses the threshold upwards. fhn run's scheme tests it inside every
// step (Scheme::record_activation, schemes/point/activation_point.hpp), and the frames carry its
// times (FrameView::activation_first, activation_last): independent of the output cadence.
// Where the stepper records none (a sweep's members), the map takes the crossings between frames:
// between (t0, v0) and (t1, v1) with v0 < threshold <= v1 the linear interpolant
//   t* = t0 + (threshold - v0) / (v1 - v0) (t1 - t0),
// whose resolution is the frame interval (output.every), to first order in it; a node already at
// or above the threshold in the first frame seen is not counted (nothing crossed).
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

  // The next frame (t increasing); a frame at the previous frame's t is ignored (a restart
  // repeats the frame of its checkpoint's step).
  void add_frame(real t, const real* v);
  // The times a scheme recorded at every step (node_count values each; last: nullptr unless
  // keep_last), replacing what the map held.
  void take(const real* first, const real* last);

  const Domain& domain() const { return domain_; }
  real threshold() const { return threshold_; }
  bool keeps_last() const { return keep_last_; }
  bool empty() const { return frames_ == 0; }
  const std::vector<real>& first() const { return first_; }  // NaN: never activated
  const std::vector<real>& last() const { return last_; }    // empty unless keep_last
  // 1 / |grad t_first| at every node (NaN where undefined).
  std::vector<real> conduction_velocity() const;

  // The state to continue exactly after a restart: arrays "<prefix>first", "<prefix>last",
  // "<prefix>previous_v", "<prefix>previous_t" (one value: t, or NaN before the first frame).
  void save(SchemeState& state, const std::string& prefix) const;
  // False (and nothing restored) when the state holds no arrays of this prefix; IoError (and
  // nothing restored) when an array has the wrong size or a value that is not finite (NaN where
  // NaN has a meaning).
  bool restore(const SchemeState& state, const std::string& prefix);

 private:
  Domain domain_;
  real threshold_;
  bool keep_last_;
  index_t frames_ = 0;
  real previous_t_ = 0.0;
  std::vector<real> previous_v_;
  std::vector<real> first_, last_;
};

// activation.vti of a sheet or a box, written by finish() with point arrays "activation_time"
// (first crossing), "last_activation_time" (when `last`) and "conduction_velocity" (NaN where
// undefined), field data "THRESHOLD" (io's write_image: needs VTK). `recorded`: the frames carry
// the times the scheme recorded at every step (fhn run; they ride in checkpoints as the scheme's
// arrays "activation.first", "activation.last"); else the ActivationMap of the frames (a sweep's
// members), whose state rides in checkpoints as the arrays "activation.*".
std::unique_ptr<FrameSink> make_activation_writer(const std::filesystem::path& file,
                                                  const Domain& domain, real threshold, bool last,
                                                  bool recorded);

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
