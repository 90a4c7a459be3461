#pragma once
// probes.csv: t and (v, w) at fixed positions, one row per sample (output.probes_every, by
// default the frames' cadence), flushed after every row so an interrupted run keeps a valid
// file. On a cable the values are linear interpolants between the nodes; on a sheet bilinear
// interpolants, on a box trilinear (grid/interpolation.hpp), as FrameView::at reads a frame.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/types.hpp"
#include "io/frame_sink.hpp"

namespace fhn {

// Columns "v@<x>", "w@<x>" per probe on a cable, "v@(<x> <y>)", "w@(<x> <y>)" on a sheet.
class ProbesCsv {
 public:
  // `append`: continue an existing file (a restarted run). Throws IoError.
  ProbesCsv(const std::filesystem::path& file, const std::vector<Point>& positions, int dims,
            bool append);
  // One row: t, then v[k] and w[k] of each probe k in order.
  void write(real t, const std::vector<real>& v, const std::vector<real>& w);

 private:
  std::filesystem::path path_;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> out_;
};

// The header line (with its '\n') of the probes.csv of these probes.
std::string probes_csv_header(const std::vector<Point>& positions, int dims);

}  // namespace fhn
