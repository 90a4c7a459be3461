#include "io/pvd_collection.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>

#include "core/error.hpp"
#include "core/format.hpp"
#include "io/atomic_file.hpp"

namespace fhn {
namespace {

constexpr const char* kHead =
    "<?xml version=\"1.0\"?>\n"
    "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
    "  <Collection>\n";
constexpr const char* kTail =
    "  </Collection>\n"
    "</VTKFile>\n";

std::string xml_escape(const std::string& text) {
  std::string escaped;
  for (const char c : text) {
    switch (c) {
      case '&': escaped += "&amp;"; break;
      case '<': escaped += "&lt;"; break;
      case '>': escaped += "&gt;"; break;
      case '"': escaped += "&quot;"; break;
      case '\'': escaped += "&apos;"; break;
      default: escaped += c;
    }
  }
  return escaped;
}

// Writes all of `text` at `offset`; false (errno set) when the system wrote less.
bool write_at(int fd, const std::string& text, long long offset) {
  const ssize_t written = ::pwrite(fd, text.data(), text.size(), static_cast<off_t>(offset));
  if (written == static_cast<ssize_t>(text.size())) return true;
  if (written >= 0) errno = ENOSPC;  // a short write: the disk or the size limit is full
  return false;
}

}  // namespace

std::string pvd_dataset_line(real t, const std::string& relative_file) {
  return "    <DataSet timestep=\"" + format_exact(t) + "\" group=\"\" part=\"0\" file=\"" +
         xml_escape(relative_file) + "\"/>\n";
}

std::string frame_file_name(const std::string& name, index_t index, const char* extension) {
  char digits[32];
  std::snprintf(digits, sizeof digits, "%06lld", static_cast<long long>(index));
  return name + "_" + digits + "." + extension;
}

std::optional<std::vector<PvdDataset>> read_pvd_datasets(const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) return std::nullopt;
  std::ifstream in(file, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string head = kHead, tail = kTail;
  if (!in.good() && !in.eof()) return std::nullopt;
  if (text.size() < head.size() + tail.size() || text.compare(0, head.size(), head) != 0 ||
      text.compare(text.size() - tail.size(), tail.size(), tail) != 0)
    return std::nullopt;
  // Each line between head and tail: exactly the line pvd_dataset_line writes for its time.
  const std::string key = "    <DataSet timestep=\"";
  std::vector<PvdDataset> datasets;
  for (std::size_t at = head.size(); at < text.size() - tail.size();) {
    const std::size_t end = text.find('\n', at);
    if (end == std::string::npos || end >= text.size() - tail.size()) return std::nullopt;
    std::string line = text.substr(at, end + 1 - at);
    at = end + 1;
    if (line.compare(0, key.size(), key) != 0) return std::nullopt;
    const char* time = line.c_str() + key.size();
    char* time_end = nullptr;
    const real t = std::strtod(time, &time_end);
    const std::size_t file_at = line.find("file=\"");
    if (time_end == time || *time_end != '"' || file_at == std::string::npos ||
        line.size() < file_at + 10 || line.compare(line.size() - 4, 4, "\"/>\n") != 0)
      return std::nullopt;
    datasets.push_back({t, std::move(line)});
  }
  return datasets;
}

namespace {

// The <DataSet> lines of an existing collection (read_pvd_datasets; none where it does not
// parse) with t < before, in order.
std::string datasets_before(const std::filesystem::path& file, real before) {
  std::string kept;
  if (const auto datasets = read_pvd_datasets(file))
    for (const PvdDataset& d : *datasets)
      if (d.t < before) kept += d.line;
  return kept;
}

}  // namespace

void write_pvd(const std::filesystem::path& file, const std::string& dataset_lines) {
  write_file_atomically(file, kHead + dataset_lines + kTail);
}

PvdCollection::PvdCollection(std::filesystem::path file, real keep_before_t)
    : file_(std::move(file)) {
  const std::string kept = keep_before_t >= 0.0 ? datasets_before(file_, keep_before_t) : "";
  write_file_atomically(file_, kHead + kept + kTail);
  fd_ = ::open(file_.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd_ < 0) throw IoError("cannot open '" + file_.string() + "': " + std::strerror(errno));
  tail_offset_ = static_cast<long long>(std::strlen(kHead) + kept.size());
}

PvdCollection::~PvdCollection() {
  if (fd_ >= 0) ::close(fd_);
}

std::size_t PvdCollection::append(real t, const std::string& relative_file) {
  const std::string line = pvd_dataset_line(t, relative_file);
  if (!write_at(fd_, line + kTail, tail_offset_)) {
    const std::string reason = std::strerror(errno);
    // Put the old tail back where it was and drop whatever the failed write left after it.
    if (write_at(fd_, kTail, tail_offset_))
      if (::ftruncate(fd_, static_cast<off_t>(tail_offset_ + static_cast<long long>(std::strlen(kTail)))) != 0) {
      }  // best effort: the error below is what matters
    throw IoError("cannot write '" + file_.string() + "': " + reason);
  }
  tail_offset_ += static_cast<long long>(line.size());
  return line.size() + std::strlen(kTail);
}

}  // namespace fhn
