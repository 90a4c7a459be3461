// Hostile PNG pictures for tissue: and fields: (model/png_image.hpp): a header that declares more
// pixels than the memory there is, refused before anything that size is allocated (exit 2, the
// file and its key named), and paths of PNG or .vti pictures that are not regular files (a
// directory, a device, a FIFO), each said for what it is, without blocking. Hostile .vti files:
// test_hostile_vti.cpp.
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

TEST_CASE("a PNG declaring 16384^2 RGBA16 pixels is refused before decoding when memory is short") {
  if (!fhn::png_supported()) return;  // the stub refuses every PNG (test_png.cpp)
  // A 69-byte file whose header declares 2^28 pixels of 8 bytes: 2.1 GB of inflated rows and
  // 2.1 GB of values. With 1 GiB of address space to spare the check must refuse it (exit 2),
  // where the decoder ran out of memory (exit 1) after allocating the rows.
  const fhn::test::TempDir dir;
  const std::string png = fhn::test::source_path("tests/data/png/declares_16384x16384_rgba16.png");
  const std::string config = fhn::test::write_text(dir / "huge.yaml", sheet_with_picture(png));
  const int code =
      fhn::test::run_with_address_space({"validate", config}, dir / "err.txt", std::uint64_t{1} << 30);
  const std::string err = fhn::test::read_text(dir / "err.txt");
  CAPTURE(err);
  CHECK(code == 2);
  CHECK(contains(err, "huge.yaml:5:31: tissue[0].file: " + png + ": decoding its 16384 x 16384 "
                      "pixels (4 channels of 16 bits) needs about 4.3 GB of host memory"));
  CHECK(contains(err, "refused before allocating it. A picture of fewer pixels would fit"));
}

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
