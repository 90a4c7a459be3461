// Hostile VTK images (.vti) for tissue: and fields: (model/vti_image.hpp), written as text the
// way a hand-edited or truncated file looks: a header declaring more points than a picture may
// have or than the memory there is, refused before VTK allocates them (exit 2, the file and its
// key named); a malformed file, whose XML parser's message is captured, not printed; an origin
// that leaves the image no width, reported at the file's line and column. Compiled only into
// builds with VTK.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <utility>

#include "model/vti_image.hpp"
#include "support.hpp"

namespace {

using fhn::test::config_error;
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

TEST_CASE("a .vti declaring more points than a picture may have or than memory holds is refused "
          "before VTK allocates them") {
  const fhn::test::TempDir dir;
  // 10^10 points in a file of a few hundred bytes: over the 2^28 samples of a picture; 10^8
  // points of Float64: 0.8 GB for VTK's array and 0.8 GB for the picture's values, more than
  // the 1 GiB of address space the child has to spare.
  const std::string huge = fhn::test::write_text(
      dir / "huge.vti", vti_text("0 99999 0 99999 0 0", "0 0 0", "1 1 1", "0"));
  const std::string large = fhn::test::write_text(
      dir / "large.vti", vti_text("0 9999 0 9999 0 0", "0 0 0", "0.002 0.002 1", "0"));
  const std::pair<std::string, std::string> cases[] = {
      {huge, ": not a VTK image fhnsim can read: 100000 x 100000 x 1 points is more than the "
             "2^28 samples a picture may have"},
      {large, ": reading its 10000 x 10000 x 1 points needs about 1.6 GB of host memory"}};
  for (const auto& [file, reason] : cases) {
    const std::string config = fhn::test::write_text(
        dir / "c.yaml", kSheet + "tissue: [{shape: image, file: " + file + "}]\n");
    const int code = fhn::test::run_with_address_space({"validate", config}, dir / "err.txt",
                                                       std::uint64_t{1} << 30);
    const std::string err = fhn::test::read_text(dir / "err.txt");
    CAPTURE(err);
    CHECK(code == 2);
    CHECK(contains(err, "c.yaml:5:31: tissue[0].file: " + file + reason));
    CHECK_FALSE(contains(err, "Unable to allocate"));
  }
}

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

TEST_CASE("a .vti whose origin leaves it no width is reported at the file's line and column") {
  const fhn::test::TempDir dir;
  // Origin 1e300, spacing 1: every point's x rounds to 1e300.
  const std::string far = fhn::test::write_text(
      dir / "far.vti", vti_text("0 1 0 1 0 0", "1e300 0 0", "1 1 1", "0 1 0 1"));
  CHECK(contains(config_error(kSheet + "tissue: [{shape: image, file: " + far + "}]\n"),
                 "test.yaml:5:31: tissue[0].file: the image's origin and spacing place it at "
                 "1e+300 .. 1e+300 in x, no width in double precision (the spacing is below the "
                 "round-off of the origin); give tissue[0].x_min and tissue[0].x_max to place it"));
  // Placed by the config's bounds instead, it is read.
  CHECK(config_error(kSheet + "tissue: [{shape: image, file: " + far +
                     ", x_min: 0, x_max: 20}]\n")
            .empty());
  // Bounds whose width overflows: at the bound, with its line and column.
  const std::string wide = config_error(kSheet + "tissue: [{shape: image, file: " + far +
                                        ", x_min: -1e308, x_max: 1e308}]\n");
  CHECK(contains(wide, "test.yaml:5:" + std::to_string(55 + far.size()) +
                           ": tissue[0].x_max: an image needs a rectangle of some area to cover "
                           "(x_min < x_max, their difference a finite number), got -1e+308 .. "
                           "1e+308 in x"));
}
