#include "study/study_runs.hpp"

#include <cstring>
#include <fstream>
#include <sstream>

#include "config/loader.hpp"
#include "config/names.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "io/atomic_file.hpp"
#include "io/binary_fields.hpp"
#include "io/output_folder.hpp"

namespace fs = std::filesystem;

namespace fhn {
namespace {

constexpr char kMagic[] = "FHNRUN1\n";

// "crank_nicolson, dt = 0.05, 41 nodes (cable of length 20, dx = 0.5)": a run in run.log.
std::string describe(const Config& c) {
  return name_of(scheme_type_names(), c.scheme.type) + ", dt = " + format_exact(c.time.dt) +
         ", " + c.domain.summary();
}

// The file's record: the magic, then the payload (the digest, the numbers, the states: step,
// t, nodes, v, w) and its fnv1a checksum.
std::string record(const std::string& digest, const StoredRun& run) {
  std::string payload;
  put_string(payload, digest);
  put<std::uint64_t>(payload, run.numbers.size());
  for (const real x : run.numbers) put<double>(payload, x);
  put<std::uint64_t>(payload, run.states.size());
  for (const Snapshot& s : run.states) {
    put<std::int64_t>(payload, s.step);
    put<double>(payload, s.t);
    put<std::uint64_t>(payload, s.nodes.size());
    for (const index_t node : s.nodes) put<std::int64_t>(payload, node);
    for (const std::vector<real>* values : {&s.v, &s.w}) {
      put<std::uint64_t>(payload, values->size());
      for (const real x : *values) put<double>(payload, x);
    }
  }
  std::string content(kMagic, sizeof kMagic - 1);
  put<std::uint64_t>(content, payload.size());
  content += payload;
  put<std::uint64_t>(content, fnv1a(payload.data(), payload.size()));
  return content;
}

// The run `text` (a file's content) holds, when it is intact and of `digest`; its states on the
// grid `domain`.
std::optional<StoredRun> parse(const fs::path& file, const std::string& text,
                               const std::string& digest, const Domain& domain) {
  const std::size_t magic = sizeof kMagic - 1;
  if (text.size() < magic + 16 || text.compare(0, magic, kMagic) != 0) return std::nullopt;
  std::uint64_t size = 0, checksum = 0;
  std::memcpy(&size, text.data() + magic, sizeof size);
  if (size != text.size() - magic - 16) return std::nullopt;
  const char* payload = text.data() + magic + 8;
  std::memcpy(&checksum, payload + size, sizeof checksum);
  if (checksum != fnv1a(payload, size)) return std::nullopt;
  try {
    BinaryReader r(file, payload, size, "kept run");
    if (r.get_string() != digest) return std::nullopt;
    StoredRun run;
    run.numbers.resize(r.count(sizeof(double)));
    for (real& x : run.numbers) x = r.get<double>();
    run.states.resize(r.count(1));
    for (Snapshot& s : run.states) {
      s.domain = domain;
      s.step = r.get<std::int64_t>();
      s.t = r.get<double>();
      s.nodes.resize(r.count(sizeof(std::int64_t)));
      for (index_t& node : s.nodes) node = r.get<std::int64_t>();
      for (std::vector<real>* values : {&s.v, &s.w}) {
        values->resize(r.count(sizeof(double)));
        for (real& x : *values) x = r.get<double>();
      }
    }
    if (!r.at_end()) return std::nullopt;
    return run;
  } catch (const IoError&) {
    return std::nullopt;  // a damaged file: the run is made again
  }
}

}  // namespace

StudyRuns::StudyRuns(const fs::path& dir, const InterruptGuard& interrupt)
    : dir_(dir), interrupt_(interrupt), log_(dir / "run.log", fs::exists(dir / "runs")) {
  log_.line(build_line());
}

fs::path StudyRuns::file_of(const Config& config, const std::string& what,
                            std::string& digest) const {
  digest = hex_digest(to_yaml(config) + "\nmeasured: " + what);
  return dir_ / "runs" / (digest + ".run");
}

std::optional<StoredRun> StudyRuns::find(const Config& config, const std::string& what) {
  std::string digest;
  const fs::path file = file_of(config, what, digest);
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return std::nullopt;
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  std::optional<StoredRun> run = parse(file, text.str(), digest, config.domain);
  if (run) {
    const std::lock_guard<std::mutex> lock(mutex_);
    ++taken_;
    log_.line("taken over: " + describe(config) + " (" + what + ") from runs/" + digest + ".run");
  }
  return run;
}

void StudyRuns::keep(const Config& config, const std::string& what, const StoredRun& run) {
  std::string digest;
  const fs::path file = file_of(config, what, digest);
  const std::lock_guard<std::mutex> lock(mutex_);
  create_folder(dir_ / "runs", "the study's folder of finished runs");
  write_file_atomically(file, record(digest, run));
  ++kept_;
  log_.line("finished: " + describe(config) + " (" + what + ") -> runs/" + digest + ".run");
}

void StudyRuns::stop_if_interrupted() const {
  if (interrupt_.interrupted()) throw InterruptedError("interrupted");
}

void StudyRuns::log(const std::string& line) {
  const std::lock_guard<std::mutex> lock(mutex_);
  log_.line(line);
}

}  // namespace fhn
