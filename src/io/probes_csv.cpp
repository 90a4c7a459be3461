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
  ProbeWriter(const std::filesystem::path& file, const std::vector<Point>& positions, int dims,
               bool append)
      : path_(file),
        positions_(positions),
        out_(open_csv(file, probes_csv_header(positions, dims).c_str(), append)) {}

  void write(const FrameView& f) override {
    std::string row = format_exact(f.t);
    for (const Point& p : positions_)
      for (const real* values : {f.v, f.w}) row += "," + format_exact(f.at(values, p));
    put(row);
  }

 private:
  void put(const std::string& line) {
    if (std::fprintf(out_.get(), "%s\n", line.c_str()) < 0 || std::fflush(out_.get()) != 0)
      throw IoError(path_.string() + ": write failed (" + std::strerror(errno) + ")");
  }

  std::filesystem::path path_;
  std::vector<Point> positions_;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> out_;
};

}  // namespace

std::string probes_csv_header(const std::vector<Point>& positions, int dims) {
  std::string text = "t";
  for (const Point& p : positions) {
    std::string at = format_exact(p[0]);
    for (int a = 1; a < dims; ++a) at += " " + format_exact(p[a]);
    if (dims >= 2) at = "(" + at + ")";
    text += ",v@" + at + ",w@" + at;
  }
  return text + "\n";
}

std::unique_ptr<FrameSink> make_probe_writer(const std::filesystem::path& file,
                                             const std::vector<Point>& positions, int dims,
                                             bool append) {
  return std::make_unique<ProbeWriter>(file, positions, dims, append);
}

}  // namespace fhn
