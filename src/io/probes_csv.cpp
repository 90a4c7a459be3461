#include "io/probes_csv.hpp"

#include <cerrno>
#include <cstring>

#include "core/error.hpp"
#include "core/format.hpp"
#include "io/csv_resume.hpp"

namespace fhn {

ProbesCsv::ProbesCsv(const std::filesystem::path& file, const std::vector<Point>& positions,
                     int dims, bool append)
    : path_(file), out_(open_csv(file, probes_csv_header(positions, dims).c_str(), append)) {}

void ProbesCsv::write(real t, const std::vector<real>& v, const std::vector<real>& w) {
  std::string row = format_exact(t);
  for (std::size_t k = 0; k < v.size(); ++k)
    row += "," + format_exact(v[k]) + "," + format_exact(w[k]);
  if (std::fprintf(out_.get(), "%s\n", row.c_str()) < 0 || std::fflush(out_.get()) != 0)
    throw IoError(path_.string() + ": write failed (" + std::strerror(errno) + ")");
}

namespace {

// A probe's position as its columns name it: "<x>" on a cable, "(<x> <y>[ <z>])" on a sheet or a
// box.
std::string probe_label(const Point& p, int dims) {
  std::string at = format_exact(p[0]);
  for (int a = 1; a < dims; ++a) at += " " + format_exact(p[a]);
  return dims >= 2 ? "(" + at + ")" : at;
}

}  // namespace

std::string probes_csv_header(const std::vector<Point>& positions, int dims) {
  std::string text = "t";
  for (const Point& p : positions) {
    const std::string at = probe_label(p, dims);
    text += ",v@" + at + ",w@" + at;
  }
  return text + "\n";
}

}  // namespace fhn
