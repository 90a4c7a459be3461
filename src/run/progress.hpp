#pragma once
// Progress of a long run on stderr: a redrawn bar on a terminal, a line every few seconds
// otherwise (log files, CI), nothing with --quiet.
#include <chrono>
#include <cstdio>
#include <string>

#include "core/types.hpp"
#include "grid/time_grid.hpp"

namespace fhn {

class Progress {
 public:
  // Shows simulated time: t(step) of `time` up to t(time.steps).
  Progress(const TimeGrid& time, bool enabled, std::FILE* stream = stderr);
  // Counts `unit` (e.g. "member-steps") instead of simulated time.
  Progress(index_t total, std::string unit, bool enabled, std::FILE* stream = stderr);
  void update(index_t steps_done);
  void finish(index_t steps_done);

 private:
  void print(index_t steps_done, bool final_line);

  using Clock = std::chrono::steady_clock;
  index_t total_;
  real dt_;
  std::string unit_;  // empty: show simulated time
  bool enabled_;
  bool terminal_;
  std::FILE* stream_;
  Clock::time_point start_;
  Clock::time_point last_print_;
};

}  // namespace fhn
