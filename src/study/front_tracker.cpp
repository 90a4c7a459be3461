#include "study/front_tracker.hpp"

#include <cmath>

#include "core/error.hpp"
#include "grid/snapshot.hpp"
#include "study/line_fit.hpp"

namespace fhn {

FrontTracker::FrontTracker(real length, real threshold, real margin_fraction)
    : length_(length), threshold_(threshold), margin_(margin_fraction * length) {}

void FrontTracker::write(const FrameView& f) {
  if (!left_.empty() && f.t <= left_.back().t) return;
  const real c = threshold_;
  const CablePositions x = f.x();
  auto crossing = [&](index_t i, index_t j) {  // v[i] >= c > v[j], neighbours
    return x[i] + (c - f.v[i]) / (f.v[j] - f.v[i]) * (x[j] - x[i]);
  };
  Sample left{f.t, false, 0.0};
  for (index_t i = 1; i < f.n; ++i) {
    if (f.v[i] >= c && f.v[i - 1] < c) {
      left = {f.t, true, crossing(i, i - 1)};
      break;
    }
  }
  Sample right{f.t, false, 0.0};
  for (index_t i = f.n - 2; i >= 0; --i) {
    if (f.v[i] >= c && f.v[i + 1] < c) {
      right = {f.t, true, crossing(i, i + 1)};
      break;
    }
  }
  left_.push_back(left);
  right_.push_back(right);
}

std::optional<FrontSpeed> FrontTracker::fit(const std::vector<Sample>& track) const {
  // Longest run of usable samples moving in one direction.
  std::size_t best_begin = 0, best_end = 0;
  std::size_t begin = 0;
  int direction = 0;
  auto usable = [&](const Sample& s) {
    return s.present && s.x > margin_ && s.x < length_ - margin_;
  };
  for (std::size_t i = 0; i < track.size(); ++i) {
    bool extends = false;
    if (usable(track[i]) && i > begin && usable(track[i - 1])) {
      const real dx = track[i].x - track[i - 1].x;
      const int d = dx > 0.0 ? 1 : (dx < 0.0 ? -1 : 0);
      extends = d != 0 && (i == begin + 1 || d == direction);
      if (extends) direction = d;
    }
    if (!extends) {
      begin = i;
      direction = 0;
      if (!usable(track[i])) begin = i + 1;
    }
    if (usable(track[i]) && i + 1 - begin > best_end - best_begin) {
      best_begin = begin;
      best_end = i + 1;
    }
  }
  const std::size_t first = best_begin + (best_end - best_begin) / 3;
  const std::size_t count = best_end - first;
  if (best_end - best_begin < 6 || count < 4) return std::nullopt;

  // Least squares x = x0 + c t over samples [first, best_end).
  const real slope = fit_line(
                         count, [&](std::size_t k) { return track[first + k].t; },
                         [&](std::size_t k) { return track[first + k].x; })
                         .slope;
  FrontSpeed result;
  result.speed = std::abs(slope);
  result.direction = slope > 0.0 ? 1 : -1;
  result.t_from = track[first].t;
  result.t_to = track[best_end - 1].t;
  result.samples = static_cast<index_t>(count);
  return result;
}

void FrontTracker::save(SchemeState& state) {
  std::vector<real> samples;
  samples.reserve(5 * left_.size());
  for (std::size_t k = 0; k < left_.size(); ++k)
    samples.insert(samples.end(), {left_[k].t, left_[k].present ? 1.0 : 0.0, left_[k].x,
                                   right_[k].present ? 1.0 : 0.0, right_[k].x});
  state.add("front.samples", std::move(samples));
}

std::string FrontTracker::restore(const SchemeState& state) {
  const std::vector<real>* stored = state.find("front.samples");
  if (!stored)
    return "pulse speed: the checkpoint holds no front positions (written by an older fhnsim); "
           "summary.json's pulse_speed is fitted on the frames from the restart on only";
  // Checked whole before anything is taken: at most one frame per step (and one at the end),
  // times increasing, flags 0 or 1.
  const auto frames = static_cast<std::size_t>(checkpoint_count(
      static_cast<real>(stored->size() / 5), state.step + 1, "front.samples frames"));
  const std::vector<real>& s = state.get_finite("front.samples", 5 * frames);
  std::vector<Sample> left, right;
  for (std::size_t k = 0; k < frames; ++k) {
    const real* at = s.data() + 5 * k;
    checkpoint_count(at[1], 1, "front.samples left flag");
    checkpoint_count(at[3], 1, "front.samples right flag");
    if (k > 0 && at[0] <= left.back().t)
      throw IoError("checkpoint: front.samples: the frame times do not increase");
    left.push_back({at[0], at[1] == 1.0, at[2]});
    right.push_back({at[0], at[3] == 1.0, at[4]});
  }
  left_ = std::move(left);
  right_ = std::move(right);
  return "";
}

std::optional<FrontSpeed> FrontTracker::speed() const {
  const auto l = fit(left_);
  const auto r = fit(right_);
  if (!l) return r;
  if (!r) return l;
  return r->samples >= l->samples ? r : l;
}

}  // namespace fhn
