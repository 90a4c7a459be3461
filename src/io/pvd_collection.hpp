#pragma once
// The ParaView collection (.pvd) of a run's frames: valid at every moment, also after a kill,
// at a constant cost per frame.
//
// The file is written whole once (atomically, through a temporary file and a rename); after
// that each frame is one write of its <DataSet .../> line followed by the closing tail
// "  </Collection>\n</VTKFile>\n", at the offset where the old tail began. One write call
// replaces the tail by the longer text, so the file on disk always ends with the tail and
// names only frames whose files are complete (a writer appends a frame after its file is
// renamed into place). A failed write (disk full, file size limit) puts the old tail back.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/types.hpp"

namespace fhn {

class PvdCollection {
 public:
  // Creates `file`. A restarted run passes keep_before_t >= 0: the existing collection's frames
  // with t < keep_before_t are kept, in order. Throws IoError when the file cannot be written.
  PvdCollection(std::filesystem::path file, real keep_before_t = -1.0);
  ~PvdCollection();
  PvdCollection(const PvdCollection&) = delete;
  PvdCollection& operator=(const PvdCollection&) = delete;

  // Adds the frame at time t stored in `relative_file` (relative to the .pvd's folder).
  // Returns the bytes written: the same for every frame of the same time and name width.
  std::size_t append(real t, const std::string& relative_file);

  const std::filesystem::path& path() const { return file_; }

 private:
  std::filesystem::path file_;
  int fd_ = -1;
  long long tail_offset_ = 0;  // where the closing tail starts
};

// The <DataSet .../> line of a frame.
std::string pvd_dataset_line(real t, const std::string& relative_file);

// A frame's file name in frames/: <name>_<index, 6 digits>.<extension> (vtu: a cable, vti: a
// sheet or a box, vtp: curves).
std::string frame_file_name(const std::string& name, index_t index, const char* extension);

// The <DataSet .../> lines (with their '\n') of a collection this writer wrote, in order, with
// their times; nullopt when the file is missing or is not such a collection (not the head, the
// lines and the tail, a line or a time that does not parse).
struct PvdDataset {
  real t = 0.0;
  std::string line;
};
std::optional<std::vector<PvdDataset>> read_pvd_datasets(const std::filesystem::path& file);

// Writes the collection of these lines (pvd_dataset_line) whole, atomically: a restart's repair.
void write_pvd(const std::filesystem::path& file, const std::string& dataset_lines);

}  // namespace fhn
