#include "run/checkpoint.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>

#include "config/loader.hpp"
#include "core/error.hpp"
#include "io/atomic_file.hpp"

namespace fhn {
namespace {

constexpr char kMagic[8] = {'F', 'H', 'N', 'C', 'H', 'K', '1', '\n'};

// FNV-1a, 64 bit: a fast hash that catches truncation and flipped bits.
std::uint64_t fnv1a(const char* data, std::size_t size) {
  std::uint64_t hash = 14695981039346656037ull;
  for (std::size_t i = 0; i < size; ++i) {
    hash ^= static_cast<unsigned char>(data[i]);
    hash *= 1099511628211ull;
  }
  return hash;
}

template <class T>
void put(std::string& out, T value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}
void put_string(std::string& out, const std::string& text) {
  put<std::uint64_t>(out, text.size());
  out += text;
}

// Reads the payload with a bounds check on every field.
class Reader {
 public:
  Reader(const std::filesystem::path& file, const char* data, std::size_t size)
      : file_(file), data_(data), size_(size) {}
  template <class T>
  T get() {
    need(sizeof(T));
    T value;
    std::memcpy(&value, data_ + at_, sizeof value);
    at_ += sizeof value;
    return value;
  }
  std::string get_string() {
    const auto length = count(1);
    std::string text(data_ + at_, length);
    at_ += length;
    return text;
  }
  // A count of items of `item_size` bytes that must fit in what is left.
  std::size_t count(std::size_t item_size) {
    const auto n = get<std::uint64_t>();
    if (n > (size_ - at_) / item_size) corrupt();
    return static_cast<std::size_t>(n);
  }
  [[noreturn]] void corrupt() const {
    throw IoError(file_.string() + ": corrupted checkpoint (its content does not parse)");
  }

 private:
  void need(std::size_t bytes) const {
    if (size_ - at_ < bytes) corrupt();
  }
  std::filesystem::path file_;
  const char* data_;
  std::size_t size_;
  std::size_t at_ = 0;
};

}  // namespace

std::string config_digest(const Config& config) {
  Config physics = config;
  physics.name.clear();
  physics.source.clear();
  physics.output = OutputSpec{};
  physics.time.end = physics.time.dt;
  physics.time.steps = 1;
  // Only adaptive_explicit reads scheme.adaptive. Elsewhere a tolerance left at its default is
  // hashed as 1e-3, the default until issue 24 lowered it, so that the digests of those runs'
  // checkpoints (written into them) stay as they were and their checkpoints still resume.
  if (physics.scheme.type != SchemeType::adaptive_explicit &&
      physics.scheme.adaptive.tolerance == AdaptiveSpec{}.tolerance)
    physics.scheme.adaptive.tolerance = 1e-3;
  const std::string text = to_yaml(physics);
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fnv1a(text.data(), text.size())));
  return hex;
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
  std::string content(kMagic, sizeof kMagic);
  put<std::uint64_t>(content, payload.size());
  content += payload;
  put<std::uint64_t>(content, fnv1a(payload.data(), payload.size()));
  std::error_code ec;
  std::filesystem::create_directories(file.parent_path(), ec);
  if (ec) throw IoError(file.parent_path().string() + ": cannot create (" + ec.message() + ")");
  write_file_atomically(file, content);
}

Checkpoint read_checkpoint(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw IoError(file.string() + ": cannot open checkpoint (" + std::strerror(errno) + ")");
  const std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  constexpr std::size_t header = sizeof kMagic + sizeof(std::uint64_t);
  if (content.size() < header + sizeof(std::uint64_t) || content.compare(0, sizeof kMagic, kMagic, sizeof kMagic) != 0)
    throw IoError(file.string() + ": not an fhnsim checkpoint");
  std::uint64_t payload_size = 0, checksum = 0;
  std::memcpy(&payload_size, content.data() + sizeof kMagic, sizeof payload_size);
  if (payload_size != content.size() - header - sizeof checksum)
    throw IoError(file.string() + ": corrupted checkpoint (truncated or extended: " +
                  std::to_string(content.size()) + " bytes)");
  const char* payload = content.data() + header;
  std::memcpy(&checksum, payload + payload_size, sizeof checksum);
  if (checksum != fnv1a(payload, payload_size))
    throw IoError(file.string() + ": corrupted checkpoint (checksum mismatch)");

  Reader r(file, payload, payload_size);
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
  if (c.state.step < 0) r.corrupt();
  return c;
}

}  // namespace fhn
