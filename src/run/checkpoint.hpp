#pragma once
// Checkpoints: everything needed to continue a run exactly, in one binary file written
// atomically and protected by a checksum.
//
//   "FHNCHK1\n"  payload size (u64)  payload  FNV-1a 64 of the payload (u64)
//   payload: digest, scheme (strings: u64 length + bytes), t, dt (f64), step (i64),
//            nodes (u64 count + i64 each), arrays (u64 count; each: name, u64 count + f64 each),
//            inputs (u64 count; each: file, digest (strings)) when the run read input files
//            (absent: none, as in every checkpoint of an fhnsim before issue 45)
// Numbers are stored in the machine's byte order (checkpoints move between runs, not machines).
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "grid/snapshot.hpp"

namespace fhn {

// An input file the run read (loader.hpp, input_files) and a digest of its bytes then.
struct InputDigest {
  std::string file;    // absolute
  std::string digest;  // FNV-1a 64 of the bytes, 16 hex digits
};

struct Checkpoint {
  std::string digest;  // config_digest of the run that wrote it
  std::vector<InputDigest> inputs;  // input_digests of the run that wrote it
  std::string scheme;  // Scheme::name(), for messages
  real t = 0.0;
  real dt = 0.0;
  SchemeState state;
};

// A digest of everything that determines the solution: the resolved config without the keys a
// restart may change (name, time.end, output.*). A checkpoint is accepted only by a config with
// the same digest, so a restarted run can be extended (time.end) but not changed.
std::string config_digest(const Config& config);

// The config's digest covers the names of its input files (pictures), not what they hold: these
// are digests of their bytes, read now, one for each of input_files(config). Throws IoError
// naming a file that cannot be read.
std::vector<InputDigest> input_digests(const Config& config);

// Throws ConfigError when the input files of a restart (their input_digests now) are not as the
// checkpoint's run read them: naming the file that changed since (or that the checkpoint, read
// from `file`, has no digest of: one written before fhnsim recorded them).
void check_input_digests(const Checkpoint& checkpoint, const std::vector<InputDigest>& inputs,
                         const std::filesystem::path& file);

void write_checkpoint(const std::filesystem::path& file, const Checkpoint& checkpoint);

// The largest payload a checkpoint of this config can hold (the scheme's and the sinks' arrays;
// see checkpoint.cpp): read_checkpoint refuses a header that declares more before reading it.
std::uint64_t checkpoint_payload_limit(const Config& config);

// Throws IoError when the file is not a regular file, cannot be read, is not a checkpoint, is of
// another format version (named), declares a payload above payload_limit, or is corrupted. The
// contents are not checked against a config here: run/restart.hpp does that.
Checkpoint read_checkpoint(const std::filesystem::path& file,
                           std::uint64_t payload_limit = std::uint64_t{1} << 40);

// checkpoints/<name>_<step, 10 digits>.chk in the output folder.
std::filesystem::path checkpoint_path(const std::filesystem::path& output_dir,
                                      const std::string& name, index_t step);

}  // namespace fhn
