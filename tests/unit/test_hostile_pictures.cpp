// Hostile pictures for tissue: and fields: (model/png_image.hpp, model/vti_image.hpp): paths of
// PNG or .vti pictures that are not regular files (a directory, a device, a FIFO), each said for
// what it is, without blocking.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <filesystem>
#include <string>

#include "core/regular_file.hpp"
#include "model/png_image.hpp"
#include "model/vti_image.hpp"
#include "support.hpp"

namespace {

using fhn::test::contains;

// A config of a small sheet whose tissue is the picture at `file`.
std::string sheet_with_picture(const std::string& file) {
  return "model: {a: 0.01, epsilon: 0.01, gamma: 2.0}\n"
         "domain: {length: [20, 20], dx: 0.5}\ntime: {end: 1, dt: 0.05}\n"
         "output: {every: 0.5, probes: []}\n"
         "tissue: [{shape: image, file: " + file + "}]\n";
}

}  // namespace

TEST_CASE("a picture path that is a directory, a device or a FIFO is named for what it is") {
  const fhn::test::TempDir dir;
  if (fhn::vti_supported()) {
    std::filesystem::create_directory(dir / "folder.vti");
    CHECK(contains(fhn::test::thrown_message<fhn::ConfigError>(
                       [&] { fhn::read_vti((dir / "folder.vti").string(), ""); }),
                   "folder.vti: not a VTK image fhnsim can read: a directory, not a regular file"));
  }
  if (!fhn::png_supported()) return;
  std::filesystem::create_directory(dir / "folder.png");
  std::filesystem::create_symlink("/dev/zero", dir / "zero.png");
  REQUIRE(mkfifo((dir / "fifo.png").c_str(), 0600) == 0);
  auto error_of = [&](const std::string& name) {
    return fhn::test::thrown_message<fhn::ConfigError>(
        [&] { fhn::read_png((dir / name).string()); });
  };
  CHECK(contains(error_of("folder.png"),
                 "folder.png: cannot open the image file (a directory, not a regular file)"));
  CHECK(contains(error_of("zero.png"),
                 "zero.png: cannot open the image file (a character device, not a regular file)"));
  // Opened without blocking: no writer ever comes.
  CHECK(contains(error_of("fifo.png"),
                 "fifo.png: cannot open the image file (a FIFO (named pipe), not a regular file)"));
  CHECK(contains(error_of("none.png"), "none.png: cannot open the image file (no such file)"));
  // In a config: at the file's key, with its line and column.
  CHECK(contains(fhn::test::config_error(sheet_with_picture((dir / "zero.png").string())),
                 "test.yaml:5:31: tissue[0].file: " + (dir / "zero.png").string() +
                     ": cannot open the image file (a character device, not a regular file)"));
  // The same reasons without opening anything (what the .vti reader checks).
  CHECK(fhn::not_regular_file((dir / "fifo.png").string()) ==
        "a FIFO (named pipe), not a regular file");
  CHECK(fhn::not_regular_file(fhn::test::source_path("tests/data/png/gray8.png")).empty());
}
