#include "io/atomic_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <system_error>

#include "core/error.hpp"

namespace fhn {

namespace {

// The reason of the last failed system call; the C++ streams leave it in errno.
std::string system_reason() {
  return errno != 0 ? std::strerror(errno) : "unknown stream error";
}

// Removes the half-written temporary file (best effort) and throws, naming the target, the
// step that failed and why: "cannot write 'a.pvd' (rename 'a.pvd.tmp'): Permission denied".
[[noreturn]] void fail(const std::filesystem::path& path, const std::filesystem::path& tmp,
                       const std::string& step, const std::string& reason) {
  std::error_code ignored;
  std::filesystem::remove(tmp, ignored);
  throw IoError("cannot write '" + path.string() + "' (" + step + " '" + tmp.string() +
                "'): " + reason);
}

}  // namespace

void write_file_atomically(const std::filesystem::path& path, const std::string& content) {
  std::filesystem::path tmp = path;
  tmp += ".tmp";

  errno = 0;
  std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
  if (!out) fail(path, tmp, "open", system_reason());
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  out.flush();
  if (!out) fail(path, tmp, "write", system_reason());
  out.close();
  if (out.fail()) fail(path, tmp, "close", system_reason());

  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) fail(path, tmp, "rename", ec.message());
}

}  // namespace fhn
