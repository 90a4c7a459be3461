#pragma once
// The runs of a study (fhn converge) kept as they finish, and its clean stop on a signal.
//
// Each run's result (its states at the times the study measures, and a few numbers) is written
// into <folder>/runs/<digest>.run as the run finishes, atomically, the digest covering the run's
// resolved config and what is measured of it (`what`: the times, the quantity). A study run
// again into the same folder takes every run whose file holds that digest (and is intact) from
// there instead of running it, so an interrupted study continues where it stopped and gives the
// result the uninterrupted one gives. SIGINT, SIGTERM and SIGUSR1 stop the runs between steps
// (InterruptedError, exit code 130). run.log in the folder says which runs were kept, taken over,
// and how the study ended.
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "core/interrupt.hpp"
#include "io/run_log.hpp"
#include "grid/snapshot.hpp"

namespace fhn {

// What a run gave: numbers (its measured value, its time...) and states (their domain is the
// run config's grid).
struct StoredRun {
  std::vector<real> numbers;
  std::vector<Snapshot> states;
};

class StudyRuns {
 public:
  // Opens <dir>/run.log (adding to it when runs/ exists: a study continued) under `interrupt`.
  StudyRuns(const std::filesystem::path& dir, const InterruptGuard& interrupt);

  // The kept run of `config` measured as `what`, when runs/ holds it intact; nullopt otherwise.
  std::optional<StoredRun> find(const Config& config, const std::string& what);
  // Writes the finished run into runs/ (thread-safe: the study's runs finish on several threads).
  void keep(const Config& config, const std::string& what, const StoredRun& run);

  // Whether a signal has come; stop_if_interrupted throws InterruptedError then: the runs poll
  // it between steps.
  bool interrupted() const { return interrupt_.interrupted(); }
  void stop_if_interrupted() const;

  // run.log: a line (thread-safe).
  void log(const std::string& line);
  index_t kept() const { return kept_; }
  index_t taken() const { return taken_; }

 private:
  std::filesystem::path file_of(const Config& config, const std::string& what,
                                std::string& digest) const;

  std::filesystem::path dir_;
  const InterruptGuard& interrupt_;
  std::mutex mutex_;
  RunLog log_;
  index_t kept_ = 0, taken_ = 0;
};

}  // namespace fhn
