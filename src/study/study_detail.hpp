#pragma once
// Internal to src/study/: what the study kinds share (the run config of a study, number and
// column formatting, running jobs on threads) and the runner of each kind, which run_study
// (study.cpp) dispatches to. The public interface is study/study.hpp.
#include <algorithm>
#include <atomic>
#include <filesystem>
#include <iosfwd>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "core/first_error.hpp"
#include "study/study.hpp"
#include "study/study_runs.hpp"

namespace fhn::study_detail {

constexpr real kNaN = std::numeric_limits<real>::quiet_NaN();

// Runs body(0..count-1) on up to hardware_concurrency threads (one when `serial`, e.g. for the
// GPU); the exception of the lowest i is rethrown once every thread has stopped. Threads of its
// own, not an OpenMP loop as in sweeps: each body runs whole schemes whose loops are OpenMP
// regions (sheets, ADI), which inside an outer OpenMP loop would be nested regions, one thread
// each at the default of one active level.
template <class Body>
void parallel_for(std::size_t count, bool serial, Body body) {
  const std::size_t threads =
      serial ? 1 : std::max<std::size_t>(1, std::min<std::size_t>(count, std::thread::hardware_concurrency()));
  std::atomic<std::size_t> next{0};
  FirstError failed;
  auto worker = [&] {
    for (std::size_t i = next++; i < count; i = next++)
      failed.guard(static_cast<index_t>(i), [&] { body(i); });
  };
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& thread : pool) thread.join();
  failed.rethrow();
}

// A run config of the study: the base config, the study's overrides, then `extra`. Frames are
// not written by studies.
Config study_run(const StudyConfig& st, const std::vector<Override>& extra,
                 const BuildCapabilities& build);

// Values the study gives its runs itself ("time.dt=0.025" of a level, a solver), as overrides
// that messages name by the study file: "study.yaml (the study's run with time.dt=0.025)".
std::vector<Override> made_by(const StudyConfig& st, const std::vector<std::string>& assignments);

// "key=value", the value written exactly (format_exact).
std::string assign(const std::string& key, real value);

// Overrides that make a run end at the last comparison time, with frames only there.
std::vector<std::string> end_at(real end);

// A table cell: x to `digits` significant digits, "-" for NaN.
std::string number(real x, int digits = 4);

// `text` padded with spaces to `width` columns (one space after it when it fills them).
std::string pad(const std::string& text, std::size_t width);

std::string first_line(const std::string& text);

bool uses_device(const Config& c);

// The study kinds: each runs its runs (kept in and taken from `runs`, which stops them on a
// signal), prints its table to `out`, writes its CSV into `dir` and returns the CSV's path.
std::filesystem::path run_convergence(const StudyConfig& st, const StudyOptions& options,
                                      const std::filesystem::path& dir, std::ostream& out, StudyRuns& runs);
std::filesystem::path run_stability(const StudyConfig& st, const StudyOptions& options,
                                    const std::filesystem::path& dir, std::ostream& out, StudyRuns& runs);
std::filesystem::path run_newton(const StudyConfig& st, const StudyOptions& options,
                                 const std::filesystem::path& dir, std::ostream& out, StudyRuns& runs);
std::filesystem::path run_adaptive(const StudyConfig& st, const StudyOptions& options,
                                   const std::filesystem::path& dir, std::ostream& out, StudyRuns& runs);
std::filesystem::path run_work_precision(const StudyConfig& st, const StudyOptions& options,
                                         const std::filesystem::path& dir, std::ostream& out, StudyRuns& runs);

}  // namespace fhn::study_detail
