#pragma once
// run.log of fhn run and fhn sweep: what ran, with which build, and how long it took. Flushed
// line by line, so that the log of a run that dies says how far it got.
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/build_info.hpp"
#include "core/error.hpp"
#include "io/vtk_writers.hpp"

namespace fhn {

class RunLog {
 public:
  RunLog(const std::filesystem::path& file, bool append)
      : path_(file), out_(file, append ? std::ios::app : std::ios::trunc) {
    if (!out_) throw IoError(file.string() + ": cannot create (" + std::strerror(errno) + ")");
  }
  void line(const std::string& text) {
    out_ << text << '\n';
    out_.flush();
    if (!out_) throw IoError(path_.string() + ": write failed (" + std::strerror(errno) + ")");
  }

 private:
  std::filesystem::path path_;
  std::ofstream out_;
};

// The first line of every run.log: "fhnsim 0.1.0 (<revision>, Release, GNU 13, CUDA on, MPI on,
// VTK on)".
inline std::string build_line() {
  return std::string("fhnsim ") + version() + " (" + git_revision() + ", " + build_type() + ", " +
         compiler() + ", CUDA " + (cuda_compiled() ? "on" : "off") + ", MPI " +
         (mpi_compiled() ? "on" : "off") + ", VTK " +
         (vtk_compiled() ? "on" : "off") + ")";
}

}  // namespace fhn
