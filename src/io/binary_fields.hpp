#pragma once
// Binary records (checkpoints, a study's kept runs): values appended in the machine's byte
// order, read back with a bounds check on every field.
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <utility>

#include "core/error.hpp"

namespace fhn {

template <class T>
void put(std::string& out, T value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}
inline void put_string(std::string& out, const std::string& text) {
  put<std::uint64_t>(out, text.size());
  out += text;
}

// Reads a payload of `file` (a `what`: "checkpoint", for messages) with a bounds check on every
// field: IoError "<file>: corrupted <what> (its content does not parse)" past its end.
class BinaryReader {
 public:
  BinaryReader(const std::filesystem::path& file, const char* data, std::size_t size,
               std::string what)
      : file_(file), data_(data), size_(size), what_(std::move(what)) {}
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
  bool at_end() const { return at_ == size_; }
  [[noreturn]] void corrupt() const {
    throw IoError(file_.string() + ": corrupted " + what_ + " (its content does not parse)");
  }

 private:
  void need(std::size_t bytes) const {
    if (size_ - at_ < bytes) corrupt();
  }
  std::filesystem::path file_;
  const char* data_;
  std::size_t size_;
  std::string what_;
  std::size_t at_ = 0;
};

}  // namespace fhn
