// Hostile VTK images (.vti) for tissue: and fields: (model/vti_image.hpp), written as text the
// way a hand-edited or truncated file looks: a malformed file, whose XML parser's message is
// captured, not printed. Compiled only into builds with VTK.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "model/vti_image.hpp"
#include "support.hpp"

namespace {

using fhn::test::contains;

const std::string kSheet = "model: {a: 0.01, epsilon: 0.01, gamma: 2.0}\n"
                           "domain: {length: [20, 20], dx: 0.5}\ntime: {end: 1, dt: 0.05}\n"
                           "output: {every: 0.5, probes: []}\n";

// A .vti file as text: point array "v" (Float64, ASCII `values`) over the points of `extent`
// ("x0 x1 y0 y1 z0 z1"), at `origin` and `spacing` ("x y z"); `tail` closes the file (a broken
// one for a malformed file).
std::string vti_text(const std::string& extent, const std::string& origin,
                     const std::string& spacing, const std::string& values,
                     const std::string& tail = "</DataArray>\n</PointData>\n<CellData>\n"
                                               "</CellData>\n</Piece>\n</ImageData>\n"
                                               "</VTKFile>\n") {
  return "<?xml version=\"1.0\"?>\n"
         "<VTKFile type=\"ImageData\" version=\"1.0\" byte_order=\"LittleEndian\" "
         "header_type=\"UInt64\">\n"
         "<ImageData WholeExtent=\"" + extent + "\" Origin=\"" + origin + "\" Spacing=\"" +
         spacing + "\" Direction=\"1 0 0 0 1 0 0 0 1\">\n"
         "<Piece Extent=\"" + extent + "\">\n<PointData Scalars=\"v\">\n"
         "<DataArray type=\"Float64\" Name=\"v\" format=\"ascii\">" + values + tail;
}

// While alive, this process's stderr (file descriptor 2: where VTK prints what no observer
// takes) goes to `file`.
class StderrToFile {
 public:
  explicit StderrToFile(const std::filesystem::path& file) : saved_(::dup(2)) {
    std::fflush(stderr);
    const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ::dup2(fd, 2);
    ::close(fd);
  }
  ~StderrToFile() {
    std::fflush(stderr);
    ::dup2(saved_, 2);
    ::close(saved_);
  }
  StderrToFile(const StderrToFile&) = delete;
  StderrToFile& operator=(const StderrToFile&) = delete;

 private:
  int saved_;
};

}  // namespace

TEST_CASE("a malformed .vti is a config error with the XML parser's reason and nothing on stderr") {
  const fhn::test::TempDir dir;
  // A closing tag that does not match: the header is VTK's, the body is not XML.
  const std::string broken = fhn::test::write_text(
      dir / "broken.vti",
      vti_text("0 1 0 1 0 0", "0 0 0", "1 1 1", "0 1 0 1", "</DataArra>\n</PointData>\n"));
  std::string message;
  {
    const StderrToFile capture(dir / "stderr.txt");
    message = fhn::test::thrown_message<fhn::ConfigError>([&] { fhn::read_vti(broken, ""); });
  }
  CHECK(contains(message, broken + ": not a VTK image fhnsim can read: "));
  CHECK(contains(message, "mismatched tag"));
  CHECK(fhn::test::read_text(dir / "stderr.txt").empty());
}
