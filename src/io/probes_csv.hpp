#pragma once
// probes.csv: t and (v, w) at fixed positions, one row per frame, flushed after every row so
// an interrupted run keeps a valid file.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <vector>

#include "io/frame_sink.hpp"

namespace fhn {

// `append`: continue an existing file (a restarted run).
std::unique_ptr<FrameSink> make_probe_writer(const std::filesystem::path& file,
                                             const std::vector<real>& positions, bool append);

// Linear interpolation of values at position p on the increasing nodes x[0..n).
real interpolate_at(const real* x, const real* values, index_t n, real p);

}  // namespace fhn
