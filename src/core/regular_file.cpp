#include "core/regular_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/error.hpp"

namespace fhn {
namespace {

// What a file of mode `mode` is, when not a regular file ("" when it is).
std::string kind_of(mode_t mode) {
  const char* kind = S_ISREG(mode)    ? nullptr
                     : S_ISDIR(mode)  ? "a directory"
                     : S_ISFIFO(mode) ? "a FIFO (named pipe)"
                     : S_ISCHR(mode)  ? "a character device"
                     : S_ISBLK(mode)  ? "a block device"
                     : S_ISSOCK(mode) ? "a socket"
                                      : "a special file";
  return kind ? std::string(kind) + ", not a regular file" : std::string();
}

// The reason a call that set errno `error` gives for `path`.
std::string reason_of(int error) {
  return error == ENOENT ? std::string("no such file") : std::string(std::strerror(error));
}

// Closes the descriptor at scope exit.
struct Descriptor {
  int fd;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::string not_regular_file(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return reason_of(errno);
  return kind_of(info.st_mode);
}

std::vector<unsigned char> read_regular_file(const std::string& path, const std::string& what,
                                             std::uintmax_t max_bytes) {
  const std::string cannot = path + ": cannot open " + what + " (";
  const Descriptor file{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (file.fd < 0) throw ConfigError(cannot + reason_of(errno) + ")");
  struct stat info {};
  if (::fstat(file.fd, &info) != 0) throw ConfigError(cannot + reason_of(errno) + ")");
  const std::string kind = kind_of(info.st_mode);
  if (!kind.empty()) throw ConfigError(cannot + kind + ")");
  // One byte past the limit tells the caller the file is larger; st_size bounds a regular
  // file's bytes unless it grows while being read.
  const auto size = std::min(static_cast<std::uintmax_t>(info.st_size), max_bytes + 1);
  std::vector<unsigned char> bytes(static_cast<std::size_t>(size));
  for (std::size_t done = 0; done < bytes.size();) {
    const ssize_t got = ::read(file.fd, bytes.data() + done, bytes.size() - done);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw ConfigError(path + ": cannot read " + what + " (" + reason_of(errno) + ")");
    if (got == 0) {  // the file shrank while being read
      bytes.resize(done);
      break;
    }
    done += static_cast<std::size_t>(got);
  }
  return bytes;
}

}  // namespace fhn
