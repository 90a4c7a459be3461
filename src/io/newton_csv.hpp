#pragma once
// newton.csv: one row per Newton iteration (step, iteration, ||du||_inf, ||F||_inf, and for a
// scheme with several Newton solves per step, the stage). Rows are buffered and flushed at every
// frame and checkpoint, so the file is complete up to the last frame or checkpoint written.
#include <cstdio>
#include <filesystem>
#include <memory>

#include "io/frame_sink.hpp"
#include "core/newton_log.hpp"

namespace fhn {

class NewtonCsvWriter final : public NewtonLog, public FrameSink {
 public:
  // `append`: continue an existing file (a restarted run); `stages`: add the stage column.
  NewtonCsvWriter(const std::filesystem::path& file, bool append, bool stages = false);
  void record(const NewtonIteration& iteration) override;
  void write(const FrameView& frame) override;  // flushes
  void finish() override;
  void save(SchemeState&) override;  // flushes: the file reaches the checkpoint's step

 private:
  void check(int status);

  std::filesystem::path path_;
  bool stages_;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> out_;
};

}  // namespace fhn
