#include "io/output_folder.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <thread>

#include "core/error.hpp"
#include "io/atomic_file.hpp"

namespace fs = std::filesystem;

namespace fhn {
namespace {

// "pid 1234 on host node7, started as: fhn run a.yaml --output same": this process, as the lock
// file records it (the command line from /proc/self/cmdline, its arguments separated by spaces).
std::string this_process() {
  char host[256] = "unknown";
  if (gethostname(host, sizeof host) != 0) std::snprintf(host, sizeof host, "unknown");
  host[sizeof host - 1] = '\0';
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string command((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!command.empty() && command.back() == '\0') command.pop_back();
  for (char& ch : command)
    if (ch == '\0' || ch == '\n') ch = ' ';
  constexpr std::size_t kLongest = 1000;
  if (command.size() > kLongest) command = command.substr(0, kLongest) + "...";
  return "pid " + std::to_string(getpid()) + " on host " + host +
         (command.empty() ? std::string() : ", started as: " + command);
}

// What the holder of the lock on `fd` recorded. It writes the file just after taking the lock:
// an empty file is given a moment to fill.
std::string recorded_holder(int fd) {
  for (int attempt = 0; attempt < 50; ++attempt) {
    char text[2048];
    const ssize_t n = pread(fd, text, sizeof text - 1, 0);
    if (n > 0) {
      std::string holder(text, static_cast<std::size_t>(n));
      while (!holder.empty() && holder.back() == '\n') holder.pop_back();
      if (!holder.empty()) return holder;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return "a process that has not recorded itself";
}

}  // namespace

void create_folder(const fs::path& dir, const std::string& what) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw IoError(dir.string() + ": cannot create " + what + " (" + ec.message() + ")");
  if (!fs::is_directory(dir, ec))
    throw IoError(dir.string() + ": cannot create " + what + " (a file of that name exists)");
}

OutputFolder::OutputFolder(const fs::path& dir) : dir_(dir) {
  create_folder(dir, "the output folder");
  const fs::path file = dir / kLockFile;
  std::error_code ec;
  const bool locked_before = fs::exists(file, ec);
  fd_ = open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0)
    throw IoError(dir.string() + ": cannot write in the output folder (" + file.string() + ": " +
                  std::strerror(errno) + ")");
  if (flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    if (error == EWOULDBLOCK) {
      const std::string holder = recorded_holder(fd_);
      close(fd_);
      throw IoError(dir.string() + ": the output folder is in use by another fhn process (" +
                    holder + "); wait for it to end, or choose another --output");
    }
    // A file system without locks (rare): the folder is used unprotected, and the user is told.
    std::fprintf(stderr,
                 "fhn: warning: %s: cannot lock the output folder (%s); a second run into it "
                 "would not be stopped\n",
                 dir.c_str(), std::strerror(error));
  }
  const std::string holder = this_process() + "\n";
  if (ftruncate(fd_, 0) != 0 ||
      pwrite(fd_, holder.data(), holder.size(), 0) != static_cast<ssize_t>(holder.size())) {
    const int error = errno;
    close(fd_);
    throw IoError(dir.string() + ": cannot write in the output folder (" + file.string() + ": " +
                  std::strerror(error) + ")");
  }
  // What fhn wrote here before; a folder new to fhn gets its (empty) list at once, so that a run
  // refused before it claims anything does not leave a folder that reads as an old fhnsim's.
  const fs::path list = dir / kWrittenList;
  if (fs::exists(list, ec)) {
    std::ifstream in(list);
    for (std::string line; std::getline(in, line);)
      if (!line.empty() && line.front() != '#') written_.insert(line);
    if (in.bad()) {
      close(fd_);
      throw IoError(list.string() + ": cannot read the list of the files fhn wrote in the output "
                    "folder (" + std::strerror(errno) + ")");
    }
  } else if (locked_before) {
    legacy_ = true;
  } else {
    try {
      write_list();
    } catch (const IoError&) {
      close(fd_);
      throw;
    }
  }
}

void OutputFolder::write_list() const {
  std::string text =
      "# The files fhn wrote in this folder and the folders it made (ending in /), which it may\n"
      "# replace; it replaces nothing else (docs/ARCHITECTURE.md section 6).\n";
  for (const std::string& entry : written_) text += entry + "\n";
  write_file_atomically(dir_ / kWrittenList, text);
}

void OutputFolder::claim(const std::vector<std::string>& outputs,
                         const std::vector<std::string>& inputs) {
  std::error_code ec;
  for (const std::string& output : outputs) {
    const bool folder = output.back() == '/';
    const fs::path path = dir_ / (folder ? output.substr(0, output.size() - 1) : output);
    const fs::file_status status = fs::symlink_status(path, ec);
    if (!fs::exists(status)) continue;  // new: nothing to replace, and no input can be there
    for (const std::string& input : inputs) {
      // The same file (by any name, links included), or a file inside the folder.
      bool taken = fs::equivalent(path, input, ec);
      if (folder && !taken) {
        std::error_code input_ec, path_ec;
        const fs::path inside = fs::canonical(input, input_ec);
        const fs::path where = fs::canonical(path, path_ec);
        taken = !input_ec && !path_ec &&
                std::mismatch(where.begin(), where.end(), inside.begin(), inside.end()).first ==
                    where.end();
      }
      if (taken)
        throw ConfigError(path.string() + ": " +
                          (folder ? "holds the input file " + input + ", which this run would "
                                                                      "write over"
                                  : "is the input file " + input + " of this run, which it would "
                                                                   "write over") +
                          "; choose another --output, or move the input elsewhere");
    }
    if (written_.count(output) > 0 || legacy_) continue;
    throw IoError(path.string() + ": " +
                  (folder ? "a folder fhn did not make" : "a file fhn did not write") +
                  " (it is not in " + (dir_ / kWrittenList).string() + ", the list of what fhn "
                  "wrote there), where this run would write " + (folder ? "into it" : "its own") +
                  "; fhn never replaces what it did not write: move it away, or choose another "
                  "--output (nothing was written)");
  }
  const std::size_t before = written_.size();
  written_.insert(outputs.begin(), outputs.end());
  if (written_.size() != before || legacy_) write_list();
  legacy_ = false;
}

// Closing the file releases the lock. The file stays (see the header); its text names the last
// holder, which a reader tells from a live one by trying the lock.
OutputFolder::~OutputFolder() { close(fd_); }

}  // namespace fhn
