#pragma once
// Continuing a run's CSV files after a restart: the rows the restarted run will write again are
// cut off first, so each file reads as if the run had never stopped.
#include <cstdio>
#include <filesystem>
#include <memory>

#include "core/types.hpp"

namespace fhn {

// Keeps the header line and the rows whose first field is < limit (<= when `inclusive`);
// rewrites the file atomically. A missing file is left missing.
void keep_rows_before(const std::filesystem::path& file, real limit, bool inclusive);

// Opens a CSV for writing: truncated with `header` written, or, when `append`, positioned at its
// end (the header is written only if the file is new or empty). Throws IoError.
std::unique_ptr<std::FILE, int (*)(std::FILE*)> open_csv(const std::filesystem::path& file,
                                                        const char* header, bool append);

}  // namespace fhn
