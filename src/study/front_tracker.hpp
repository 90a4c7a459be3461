#pragma once
// Measures the speed of a travelling front or pulse from the frames of a run.
//
// Each frame, the leftmost and the rightmost place where v crosses `threshold` (linearly
// interpolated between nodes) are recorded. For each of the two tracks, the longest stretch of
// consecutive frames in which the crossing lies away from the ends (more than `margin` from
// them) and moves steadily in one direction is taken; its first third is dropped as the wave's
// formation transient, and a least-squares line through the rest gives the speed.
#include <optional>
#include <vector>

#include "io/frame_sink.hpp"

namespace fhn {

struct FrontSpeed {
  real speed = 0.0;      // |dx/dt|, space units per time unit
  int direction = 0;     // +1 travelling right, -1 travelling left
  real t_from = 0.0;     // time span of the samples fitted
  real t_to = 0.0;
  index_t samples = 0;
};

class FrontTracker final : public FrameSink {
 public:
  FrontTracker(real length, real threshold = 0.5, real margin_fraction = 0.1);
  // A frame at or before the previous frame's t (a restart repeats its checkpoint's frame) is
  // already in the tracks and is skipped.
  void write(const FrameView& frame) override;
  // Array "front.samples": per frame seen, t, left present (0/1), left x, right present, right x.
  void save(SchemeState& state) override;
  std::string restore(const SchemeState& state) override;
  std::optional<FrontSpeed> speed() const;

 private:
  struct Sample {
    real t;
    bool present;
    real x;
  };
  std::optional<FrontSpeed> fit(const std::vector<Sample>& track) const;

  real length_;
  real threshold_;
  real margin_;
  std::vector<Sample> left_;   // leftmost crossing
  std::vector<Sample> right_;  // rightmost crossing
};

}  // namespace fhn
