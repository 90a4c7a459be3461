#pragma once
// The output folder of `fhn run`, `fhn sweep` and `fhn converge`: created, proven writable and
// locked against a second process writing into it at the same time.
//
// The lock is an advisory flock(2) on the file .fhn.lock in the folder, which holds the pid, host
// and command line of the process that holds it. The kernel releases it when that process ends,
// however it ends (kill -9 included), so a lock never outlives its holder; the file itself stays
// (removing it would let two processes lock two different files of the same name). flock works
// across processes on one host and, through the kernel's emulation by fcntl locks, on NFS.
#include <filesystem>
#include <string>

namespace fhn {

// Creates `dir` and its parents. Throws IoError "<dir>: cannot create <what> (<reason>)" when it
// cannot, or when a file that is not a folder has that name.
void create_folder(const std::filesystem::path& dir, const std::string& what);

// Holds the output folder `dir` for as long as it lives: created (create_folder), locked and
// proven writable (the lock file is written) before anything else touches the folder.
class OutputFolder {
 public:
  // Throws IoError naming the folder and, when the lock is held, the other process ("in use by
  // pid 1234 on host, fhn run a.yaml --output same"): the caller stops before writing anything.
  explicit OutputFolder(const std::filesystem::path& dir);
  ~OutputFolder();
  OutputFolder(const OutputFolder&) = delete;
  OutputFolder& operator=(const OutputFolder&) = delete;

  static constexpr const char* kLockFile = ".fhn.lock";

 private:
  int fd_ = -1;
};

}  // namespace fhn
