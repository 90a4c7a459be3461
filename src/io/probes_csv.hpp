#pragma once
// probes.csv: t and (v, w) at fixed positions, one row per frame, flushed after every row so
// an interrupted run keeps a valid file. On a cable the values are linear interpolants between
// the frame's nodes; on a sheet bilinear interpolants (grid/interpolation.hpp).
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "io/frame_sink.hpp"

namespace fhn {

// Columns "v@<x>", "w@<x>" per probe on a cable, "v@(<x> <y>)", "w@(<x> <y>)" on a sheet.
// `append`: continue an existing file (a restarted run).
std::unique_ptr<FrameSink> make_probe_writer(const std::filesystem::path& file,
                                             const std::vector<Point>& positions, int dims,
                                             bool append);

// The header line (with its '\n') of the probes.csv of these probes.
std::string probes_csv_header(const std::vector<Point>& positions, int dims);

}  // namespace fhn
