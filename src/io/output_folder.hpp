#pragma once
// The output folder of `fhn run`, `fhn sweep` and `fhn converge`: created, proven writable and
// locked against a second process writing into it at the same time.
//
// The lock is an advisory flock(2) on the file .fhn.lock in the folder, which holds the pid, host
// and command line of the process that holds it. The kernel releases it when that process ends,
// however it ends (kill -9 included), so a lock never outlives its holder; the file itself stays
// (removing it would let two processes lock two different files of the same name). flock works
// across processes on one host and, through the kernel's emulation by fcntl locks, on NFS.
//
// fhn replaces only files it wrote. The folder's list .fhn.files names, one a line, every file
// fhn wrote there and every folder it made there (ending in '/': fhn owns what is in it, frames/,
// checkpoints/, a sweep's members/); a run, sweep or study claims what it will write (claim)
// before it writes anything, and is refused when one of those names is taken by something fhn did
// not write (a user's config.yaml or probes.csv in the folder) or is an input file of the run (a
// picture named activation.vti). A folder an fhnsim before the list wrote (its .fhn.lock without
// .fhn.files) has its files at fhn's names taken as fhn's, once.
#include <filesystem>
#include <set>
#include <string>
#include <vector>

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

  // Claims `outputs` (paths relative to the folder; a folder's ends in '/') before any is
  // written, and adds them to .fhn.files. Throws ConfigError naming the first that is, or (a
  // folder) holds, one of `inputs` (absolute paths of the files the run reads), and IoError
  // naming the first that exists and is neither listed nor in a listed folder; the list is
  // unchanged then.
  void claim(const std::vector<std::string>& outputs, const std::vector<std::string>& inputs);
  OutputFolder(const OutputFolder&) = delete;
  OutputFolder& operator=(const OutputFolder&) = delete;

  static constexpr const char* kLockFile = ".fhn.lock";
  static constexpr const char* kWrittenList = ".fhn.files";

 private:
  void write_list() const;
  std::filesystem::path dir_;
  int fd_ = -1;
  std::set<std::string> written_;  // .fhn.files's entries
  bool legacy_ = false;            // a folder of an fhnsim before .fhn.files

};

}  // namespace fhn
