#pragma once
// Replace a small text file so that readers see either the old or the new content, never a
// partial one (the .pvd collection, summary.json, ...): write a sibling temporary file, then
// rename it over the target, which POSIX guarantees to be atomic within one file system.
#include <filesystem>
#include <string>

namespace fhn {

// Writes content to path + ".tmp" in the same directory, then renames it to path.
// Throws IoError naming the file and the system's reason on any failure; the temporary file
// is removed again when the write fails.
void write_file_atomically(const std::filesystem::path& path, const std::string& content);

}  // namespace fhn
