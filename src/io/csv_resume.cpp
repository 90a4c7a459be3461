#include "io/csv_resume.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "core/error.hpp"
#include "io/atomic_file.hpp"

namespace fhn {

void for_each_row(const std::filesystem::path& file,
                  const std::function<void(const std::string& row, real first)>& visit) {
  std::ifstream in(file, std::ios::binary);
  std::string line;
  std::getline(in, line);  // the header
  while (std::getline(in, line) && !in.eof()) visit(line, std::strtod(line.c_str(), nullptr));
}

void keep_rows_before(const std::filesystem::path& file, real limit, bool inclusive) {
  std::ifstream in(file);
  std::string header;
  if (!in || !std::getline(in, header)) return;
  in.close();
  std::string kept = header + "\n";
  for_each_row(file, [&](const std::string& row, real first) {
    if (inclusive ? first <= limit : first < limit) kept += row + "\n";
  });
  write_file_atomically(file, kept);
}

std::unique_ptr<std::FILE, int (*)(std::FILE*)> open_csv(const std::filesystem::path& file,
                                                        const char* header, bool append) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> out(std::fopen(file.c_str(), append ? "a" : "w"),
                                                       &std::fclose);
  if (!out) throw IoError(file.string() + ": cannot create (" + std::strerror(errno) + ")");
  if (!append || std::ftell(out.get()) == 0) {
    if (std::fputs(header, out.get()) < 0 || std::fflush(out.get()) != 0)
      throw IoError(file.string() + ": write failed (" + std::strerror(errno) + ")");
  }
  return out;
}

}  // namespace fhn
