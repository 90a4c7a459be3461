#include "io/probes_csv.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/error.hpp"
#include "core/format.hpp"
#include "io/csv_resume.hpp"

namespace fhn {
namespace {

class ProbeWriter final : public FrameSink {
 public:
  ProbeWriter(const std::filesystem::path& file, const std::vector<real>& positions, bool append)
      : path_(file), positions_(positions), out_(open_csv(file, header(positions).c_str(), append)) {}

  void write(const FrameView& f) override {
    std::string row = format_exact(f.t);
    for (real p : positions_) {
      row += "," + format_exact(interpolate_at(f.x, f.v, f.n, p));
      row += "," + format_exact(interpolate_at(f.x, f.w, f.n, p));
    }
    put(row);
  }

 private:
  static std::string header(const std::vector<real>& positions) {
    std::string text = "t";
    for (real p : positions) text += ",v@" + format_exact(p) + ",w@" + format_exact(p);
    return text + "\n";
  }

  void put(const std::string& line) {
    if (std::fprintf(out_.get(), "%s\n", line.c_str()) < 0 || std::fflush(out_.get()) != 0)
      throw IoError(path_.string() + ": write failed (" + std::strerror(errno) + ")");
  }

  std::filesystem::path path_;
  std::vector<real> positions_;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> out_;
};

}  // namespace

real interpolate_at(const real* x, const real* values, index_t n, real p) {
  if (p <= x[0]) return values[0];
  if (p >= x[n - 1]) return values[n - 1];
  const index_t hi = std::upper_bound(x, x + n, p) - x;  // x[hi-1] <= p < x[hi]
  const index_t lo = hi - 1;
  const real s = (p - x[lo]) / (x[hi] - x[lo]);
  return values[lo] + s * (values[hi] - values[lo]);
}

std::unique_ptr<FrameSink> make_probe_writer(const std::filesystem::path& file,
                                             const std::vector<real>& positions, bool append) {
  return std::make_unique<ProbeWriter>(file, positions, append);
}

}  // namespace fhn
