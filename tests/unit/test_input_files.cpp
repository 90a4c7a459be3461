// The files a config reads (issue 45): only regular files are opened (a FIFO given as a config
// blocked `fhn validate` forever; core/regular_file.hpp), and a restart is refused when a picture
// the run read has changed since its checkpoint (run/checkpoint.hpp, input_digests).
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "config/loader.hpp"
#include "core/error.hpp"
#include "core/regular_file.hpp"
#include "model/png_image.hpp"
#include "run/checkpoint.hpp"
#include "run/run.hpp"
#include "support.hpp"

using fhn::test::contains;
using fhn::test::TempDir;
using fhn::test::write_text;

namespace fs = std::filesystem;

TEST_CASE("only a regular file is read: a FIFO, a directory or a device is refused at once") {
  TempDir dir;
  const std::string fifo = (dir / "c.yaml").string();
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  // No writer ever opens the FIFO: a blocking open would wait here forever.
  const auto refusal = [](const std::string& path) {
    return fhn::test::thrown_message<fhn::ConfigError>(
        [&] { fhn::read_regular_file(path, "the file", 100); });
  };
  CHECK(refusal(fifo) == fifo + ": cannot open the file (a FIFO (named pipe), not a regular file)");
  CHECK(fhn::not_regular_file(fifo) == "a FIFO (named pipe), not a regular file");
  CHECK(contains(refusal(dir.path().string()), "(a directory, not a regular file)"));
  CHECK(contains(refusal((dir / "none").string()), "(no such file)"));
  if (fs::exists("/dev/zero"))
    CHECK(contains(refusal("/dev/zero"), "(a character device, not a regular file)"));
  CHECK(contains(fhn::test::thrown_message<fhn::ConfigError>([&] { fhn::load_config(fifo); }),
                 fifo + ": cannot open config file (a FIFO (named pipe), not a regular file)"));

  // A regular file: its bytes, at most limit + 1 of them.
  const std::string file = write_text(dir / "ten.txt", "0123456789");
  const auto bytes = [&](std::uintmax_t limit) {
    const std::vector<unsigned char> got = fhn::read_regular_file(file, "the file", limit);
    return std::string(got.begin(), got.end());
  };
  CHECK(bytes(100) == "0123456789");
  CHECK(bytes(4) == "01234");
  CHECK(fhn::not_regular_file(file).empty());
}

namespace {

// A sheet whose D is mapped from the picture `png` (a tissue: picture is read the same way),
// checkpointed at t = 0.5.
fhn::Config picture_sheet(const fs::path& png, const std::string& end) {
  return fhn::load_config_text(
      "name: picture\n"
      "model: {a: 0.01, epsilon: 0.01, gamma: 2.0}\n"
      "domain: {length: [20, 20], dx: 0.5}\n"
      "fields: [{parameter: diffusion, type: image, file: " + png.string() +
          ", from: 0.5, to: 1.0}]\n"
      "time: {end: " + end + ", dt: 0.05}\n"
      "output: {every: 0.5, vtk: false, spacetime: false, checkpoint_every: 0.5}\n",
      "picture.yaml");
}

void run(const fhn::Config& c, const fs::path& out, const fs::path& restart = {}) {
  fhn::RunOptions options;
  options.output_dir = out;
  options.quiet = true;
  options.restart = restart;
  fhn::run_simulation(c, options);
}

}  // namespace

TEST_CASE("a restart after a picture the run read changed is refused, naming the picture") {
  if (!fhn::png_supported()) return;
  TempDir dir;
  const fs::path png = dir / "tissue.png";
  const std::string disc = fhn::test::source_path("tests/data/png/disc_41x21.png");
  fs::copy_file(disc, png);  // 41 x 21: 0 in a disc, 1 outside
  run(picture_sheet(png, "1"), dir / "out");
  const fs::path checkpoint = fhn::checkpoint_path(dir / "out", "picture", 10);
  REQUIRE(fs::exists(checkpoint));
  const fhn::Checkpoint read = fhn::read_checkpoint(checkpoint);
  REQUIRE(read.inputs.size() == 1);
  CHECK(read.inputs[0].file == png.string());
  CHECK(read.inputs[0].digest.size() == 16);

  // Another picture under the same name: the config's text, and its digest, are unchanged.
  fs::copy_file(fhn::test::source_path("tests/data/png/gray8.png"), png,
                fs::copy_options::overwrite_existing);
  const fhn::Config changed = picture_sheet(png, "1");
  CHECK(fhn::config_digest(changed) == read.digest);
  const std::string message =
      fhn::test::thrown_message<fhn::ConfigError>([&] { run(changed, dir / "out", checkpoint); });
  CAPTURE(message);
  CHECK(contains(message, checkpoint.string() + ": the input file " + png.string() +
                              " changed since the checkpoint was written (the digest of its "
                              "bytes was " + read.inputs[0].digest + ", is "));
  CHECK(contains(message, "restore the file, or start the run afresh"));

  // The picture restored, the restart goes ahead.
  fs::copy_file(disc, png, fs::copy_options::overwrite_existing);
  run(picture_sheet(png, "1"), dir / "out", checkpoint);
  CHECK(contains(fhn::test::read_text(dir / "out" / "summary.json"),
                 "\"restarted_from\":\"" + checkpoint.string() + "\""));

  // A checkpoint with no digest of the picture (as one before issue 45) proves nothing.
  fhn::Checkpoint old = read;
  old.inputs.clear();
  fhn::write_checkpoint(dir / "old.chk", old);
  CHECK(contains(fhn::test::thrown_message<fhn::ConfigError>(
                     [&] { run(picture_sheet(png, "1"), dir / "old_out", dir / "old.chk"); }),
                 "old.chk: holds no digest of the input file " + png.string()));
}
