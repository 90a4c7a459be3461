// The files a config reads (issue 45): only regular files are opened (a FIFO given as a config
// blocked `fhn validate` forever; core/regular_file.hpp).
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "config/loader.hpp"
#include "core/error.hpp"
#include "core/regular_file.hpp"
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
