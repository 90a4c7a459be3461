#include "run/progress.hpp"

#include <unistd.h>

#include <string>

namespace fhn {
namespace {

std::string format_duration(double seconds) {
  const long s = static_cast<long>(seconds + 0.5);
  char buffer[32];
  if (s >= 3600)
    std::snprintf(buffer, sizeof buffer, "%ld:%02ld:%02ld", s / 3600, (s / 60) % 60, s % 60);
  else
    std::snprintf(buffer, sizeof buffer, "%ld:%02ld", s / 60, s % 60);
  return buffer;
}

}  // namespace

Progress::Progress(const TimeGrid& time, bool enabled, std::FILE* stream)
    : total_(time.steps),
      dt_(time.dt),
      enabled_(enabled),
      terminal_(isatty(fileno(stream)) != 0),
      stream_(stream),
      start_(Clock::now()),
      last_print_(start_) {}

Progress::Progress(index_t total, std::string unit, bool enabled, std::FILE* stream)
    : Progress(TimeGrid{0.0, total}, enabled, stream) {
  unit_ = std::move(unit);
}

void Progress::update(index_t steps_done) {
  if (!enabled_) return;
  const auto now = Clock::now();
  // A terminal is redrawn 5 times a second; a log gets a line every 5 s (the first after 2 s,
  // so short runs stay quiet).
  const double since = std::chrono::duration<double>(now - last_print_).count();
  const bool due = terminal_ ? since >= 0.2 : since >= (last_print_ == start_ ? 2.0 : 5.0);
  if (!due) return;
  last_print_ = now;
  print(steps_done, false);
}

void Progress::finish(index_t steps_done) {
  if (!enabled_) return;
  // Close the bar on a terminal; a log only gets a final line if it got progress lines.
  if (terminal_ || last_print_ != start_) print(steps_done, true);
}

void Progress::print(index_t steps_done, bool final_line) {
  const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
  const double fraction = total_ > 0 ? static_cast<double>(steps_done) / static_cast<double>(total_) : 1.0;
  const double rate = elapsed > 0.0 ? static_cast<double>(steps_done) / elapsed : 0.0;
  const double eta = rate > 0.0 ? static_cast<double>(total_ - steps_done) / rate : 0.0;
  // "t = 12.5 / 300" (simulated time) or "member-steps = 1.2e+06 / 4.1e+06".
  const bool counting = !unit_.empty();
  const double scale = counting ? 1.0 : dt_;
  char done[96];
  std::snprintf(done, sizeof done, "%s = %.6g / %.6g", counting ? unit_.c_str() : "t",
                static_cast<double>(steps_done) * scale, static_cast<double>(total_) * scale);
  const char* per = counting ? "/s" : " steps/s";
  if (terminal_) {
    constexpr int width = 30;
    const int filled = static_cast<int>(fraction * width);
    std::string bar(static_cast<std::size_t>(filled), '#');
    bar.resize(width, '.');
    std::fprintf(stream_, "\r[%s] %3.0f%%  %s  %.3g%s  %s %s\033[K", bar.c_str(), 100.0 * fraction,
                 done, rate, per, final_line ? "took" : "ETA",
                 format_duration(final_line ? elapsed : eta).c_str());
    if (final_line) std::fputc('\n', stream_);
  } else {
    std::fprintf(stream_, "progress: %s (%.0f%%), %.3g%s, %s %s\n", done, 100.0 * fraction, rate,
                 per, final_line ? "took" : "ETA", format_duration(final_line ? elapsed : eta).c_str());
  }
  std::fflush(stream_);
}

}  // namespace fhn
