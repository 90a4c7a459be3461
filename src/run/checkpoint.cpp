#include "run/checkpoint.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "config/loader.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "core/regular_file.hpp"
#include "io/atomic_file.hpp"
#include "io/binary_fields.hpp"
#include "io/output_folder.hpp"

namespace fhn {
namespace {

constexpr char kMagic[8] = {'F', 'H', 'N', 'C', 'H', 'K', '1', '\n'};

}  // namespace

std::string config_digest(const Config& config) {
  Config physics = config;
  physics.name.clear();
  physics.source.clear();
  physics.output = OutputSpec{};
  physics.time.end = physics.time.dt;
  physics.time.steps = 1;
  physics.scheme.explicit_limit = SchemeSpec{}.explicit_limit;  // what the check allows, not the run
  // Only adaptive_explicit reads scheme.adaptive. Elsewhere a tolerance left at its default is
  // hashed as 1e-3, the default until issue 24 lowered it, so that the digests of those runs'
  // checkpoints (written into them) stay as they were and their checkpoints still resume.
  if (physics.scheme.type != SchemeType::adaptive_explicit &&
      physics.scheme.adaptive.tolerance == AdaptiveSpec{}.tolerance)
    physics.scheme.adaptive.tolerance = 1e-3;
  return hex_digest(to_yaml(physics));
}

std::vector<InputDigest> input_digests(const Config& config) {
  std::vector<InputDigest> digests;
  for (const std::string& file : input_files(config)) {
    // The loader has read the file; a FIFO put in its place since must not block the run.
    if (const std::string why = not_regular_file(file); !why.empty())
      throw IoError(file + ": cannot read the input file to record its digest (" + why + ")");
    std::ifstream in(file, std::ios::binary);
    std::uint64_t hash = kFnvOffset;
    std::vector<char> chunk(std::size_t{1} << 16);
    while (in) {
      in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
      hash = fnv1a(chunk.data(), static_cast<std::size_t>(in.gcount()), hash);
    }
    if (in.bad() || !in.eof())
      throw IoError(file + ": cannot read the input file to record its digest (" +
                    std::strerror(errno) + ")");
    digests.push_back({file, hex_digest(hash)});
  }
  return digests;
}

void check_input_digests(const Checkpoint& checkpoint, const std::vector<InputDigest>& inputs,
                         const std::filesystem::path& file) {
  for (const InputDigest& now : inputs) {
    const auto then = std::find_if(checkpoint.inputs.begin(), checkpoint.inputs.end(),
                                   [&now](const InputDigest& d) { return d.file == now.file; });
    if (then == checkpoint.inputs.end())
      throw ConfigError(file.string() + ": holds no digest of the input file " + now.file +
                        " (written by an fhnsim that did not record its inputs' contents), so the "
                        "restart cannot tell that the file is unchanged; start the run afresh");
    if (then->digest != now.digest)
      throw ConfigError(file.string() + ": the input file " + now.file + " changed since the "
                        "checkpoint was written (the digest of its bytes was " + then->digest +
                        ", is " + now.digest + "); a restart continues a run only with the inputs "
                        "it began with: restore the file, or start the run afresh");
  }
}

std::filesystem::path checkpoint_path(const std::filesystem::path& output_dir, const std::string& name,
                                      index_t step) {
  char digits[32];
  std::snprintf(digits, sizeof digits, "%010lld", static_cast<long long>(step));
  return output_dir / "checkpoints" / (name + "_" + digits + ".chk");
}

void write_checkpoint(const std::filesystem::path& file, const Checkpoint& c) {
  std::string payload;
  put_string(payload, c.digest);
  put_string(payload, c.scheme);
  put<double>(payload, c.t);
  put<double>(payload, c.dt);
  put<std::int64_t>(payload, c.state.step);
  put<std::uint64_t>(payload, c.state.nodes.size());
  for (const index_t node : c.state.nodes) put<std::int64_t>(payload, node);
  put<std::uint64_t>(payload, c.state.arrays.size());
  for (const auto& [name, values] : c.state.arrays) {
    put_string(payload, name);
    put<std::uint64_t>(payload, values.size());
    payload.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(real));
  }
  if (!c.inputs.empty()) {  // absent when there are none: such checkpoints are as before
    put<std::uint64_t>(payload, c.inputs.size());
    for (const InputDigest& input : c.inputs) {
      put_string(payload, input.file);
      put_string(payload, input.digest);
    }
  }
  std::string content(kMagic, sizeof kMagic);
  put<std::uint64_t>(content, payload.size());
  content += payload;
  put<std::uint64_t>(content, fnv1a(payload.data(), payload.size()));
  create_folder(file.parent_path(), "the checkpoints folder");
  write_file_atomically(file, content);
}

std::uint64_t checkpoint_payload_limit(const Config& c) {
  // Per node: the scheme's arrays (v, w, a previous w; a moving grid's node indices) and the
  // arrays of the sinks that keep one value per node (activation: first, last, previous v):
  // 8 values of 8 bytes, generously. Per frame: the front tracker's 5 values and the tip path's
  // 3; frames come at most once a step (the earlier part of a restarted run may have had
  // another output.every). Names, strings and counts fit in the 1 MiB slack.
  const auto nodes = static_cast<std::uint64_t>(c.domain.node_count());
  const auto frames = static_cast<std::uint64_t>(c.time.steps + 2);
  return 8 * (8 * nodes + 8 * frames) + (std::uint64_t{1} << 20);
}

Checkpoint read_checkpoint(const std::filesystem::path& file, std::uint64_t payload_limit) {
  // The file type first: a directory, a device (/dev/zero, /dev/urandom) or a pipe never ends or
  // never parses, so only a regular file is opened.
  std::error_code ec;
  const auto status = std::filesystem::status(file, ec);
  if (ec || !std::filesystem::exists(status))
    throw IoError(file.string() + ": cannot open checkpoint (" +
                  (ec ? ec.message() : std::string("no such file")) + ")");
  if (!std::filesystem::is_regular_file(status))
    throw IoError(file.string() + ": not a checkpoint file (" +
                  (std::filesystem::is_directory(status) ? "a directory" : "not a regular file") +
                  ")");
  const std::uint64_t file_size = std::filesystem::file_size(file, ec);
  std::ifstream in(file, std::ios::binary);
  if (ec || !in)
    throw IoError(file.string() + ": cannot open checkpoint (" + std::strerror(errno) + ")");

  // The header: magic (with its version digit) and the payload size, checked against the file's
  // size and this config's bound before the payload is read.
  constexpr std::size_t header = sizeof kMagic + sizeof(std::uint64_t);
  char head[header] = {};
  in.read(head, header);
  const bool whole_header = in.gcount() == static_cast<std::streamsize>(header);
  const std::size_t prefix = sizeof kMagic - 2;  // "FHNCHK", then the version digit and '\n'
  if (whole_header && std::memcmp(head, kMagic, prefix) == 0 && head[sizeof kMagic - 1] == '\n' &&
      head[prefix] != kMagic[prefix])
    throw IoError(file.string() + ": checkpoint format version " + std::string(1, head[prefix]) +
                  "; this build of fhnsim reads version " + std::string(1, kMagic[prefix]) +
                  " (written by another version of fhnsim)");
  if (!whole_header || file_size < header + sizeof(std::uint64_t) ||
      std::memcmp(head, kMagic, sizeof kMagic) != 0)
    throw IoError(file.string() + ": not an fhnsim checkpoint");
  std::uint64_t payload_size = 0, checksum = 0;
  std::memcpy(&payload_size, head + sizeof kMagic, sizeof payload_size);
  if (payload_size != file_size - header - sizeof checksum)
    throw IoError(file.string() + ": corrupted checkpoint (truncated or extended: " +
                  std::to_string(file_size) + " bytes)");
  if (payload_size > payload_limit)
    throw IoError(file.string() + ": corrupted checkpoint (a payload of " +
                  std::to_string(payload_size) + " bytes, more than the " +
                  std::to_string(payload_limit) + " a checkpoint of this config can hold)");
  std::string content(static_cast<std::size_t>(payload_size + sizeof checksum), '\0');
  in.read(content.data(), static_cast<std::streamsize>(content.size()));
  if (in.gcount() != static_cast<std::streamsize>(content.size()))
    throw IoError(file.string() + ": corrupted checkpoint (truncated while read)");
  const char* payload = content.data();
  std::memcpy(&checksum, payload + payload_size, sizeof checksum);
  if (checksum != fnv1a(payload, payload_size))
    throw IoError(file.string() + ": corrupted checkpoint (checksum mismatch)");

  BinaryReader r(file, payload, payload_size, "checkpoint");
  Checkpoint c;
  c.digest = r.get_string();
  c.scheme = r.get_string();
  c.t = r.get<double>();
  c.dt = r.get<double>();
  c.state.step = r.get<std::int64_t>();
  c.state.nodes.resize(r.count(sizeof(std::int64_t)));
  for (index_t& node : c.state.nodes) node = r.get<std::int64_t>();
  const std::size_t arrays = r.count(1);
  for (std::size_t a = 0; a < arrays; ++a) {
    std::string name = r.get_string();
    std::vector<real> values(r.count(sizeof(real)));
    for (real& value : values) value = r.get<double>();
    c.state.add(name, std::move(values));
  }
  if (!r.at_end()) {  // the input files' digests, when there are any
    c.inputs.resize(r.count(2 * sizeof(std::uint64_t)));
    for (InputDigest& input : c.inputs) {
      input.file = r.get_string();
      input.digest = r.get_string();
    }
    if (!r.at_end()) r.corrupt();
  }
  if (c.state.step < 0) r.corrupt();
  return c;
}

}  // namespace fhn
