#include "io/grid_csv.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "core/error.hpp"
#include "core/format.hpp"
#include "io/csv_resume.hpp"

namespace fhn {
namespace {

class GridCsvWriter final : public FrameSink {
 public:
  GridCsvWriter(const std::filesystem::path& file, const GridStats& stats, index_t resumed_at)
      : path_(file),
        stats_(stats),
        out_(open_csv(file, "step,t,nodes\n", resumed_at >= 0)),
        resumed_at_(resumed_at) {}

  void write(const FrameView&) override { flush_new_rows(); }
  void finish() override { flush_new_rows(); }
  void save(SchemeState&) override { flush_new_rows(); }  // the file reaches the checkpoint

 private:
  void flush_new_rows() {
    const std::vector<GridRecord>& rows = stats_.regrids();
    for (; written_ < rows.size(); ++written_) {
      const GridRecord& r = rows[written_];
      if (r.step <= resumed_at_) continue;
      check(std::fprintf(out_.get(), "%lld,%s,%lld\n", static_cast<long long>(r.step),
                         format_exact(r.t).c_str(), static_cast<long long>(r.nodes)));
    }
    check(std::fflush(out_.get()));
  }

  void check(int status) {
    if (status < 0) throw IoError(path_.string() + ": write failed (" + std::strerror(errno) + ")");
  }

  std::filesystem::path path_;
  const GridStats& stats_;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> out_;
  index_t resumed_at_;
  std::size_t written_ = 0;  // rows of stats_.regrids() already handled
};

}  // namespace

std::unique_ptr<FrameSink> make_grid_writer(const std::filesystem::path& file,
                                            const GridStats& stats, index_t resumed_at) {
  return std::make_unique<GridCsvWriter>(file, stats, resumed_at);
}

}  // namespace fhn
