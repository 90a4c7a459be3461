#pragma once
// Continuing a run's CSV files after a restart: the rows the restarted run will write again are
// cut off first, so each file reads as if the run had never stopped.
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "core/types.hpp"

namespace fhn {

// Calls visit(row, its first field) for every complete row (one that ends with '\n') after the
// header line, streaming (newton.csv may hold millions of rows); a last line without its newline
// was cut by a kill and is no row. A missing file has no rows.
void for_each_row(const std::filesystem::path& file,
                  const std::function<void(const std::string& row, real first)>& visit);

// Keeps the header line and the complete rows (for_each_row) whose first field is < limit (<=
// when `inclusive`); rewrites the file atomically. A missing file is left missing.
void keep_rows_before(const std::filesystem::path& file, real limit, bool inclusive);

// Opens a CSV for writing: truncated with `header` written, or, when `append`, positioned at its
// end (the header is written only if the file is new or empty). Throws IoError.
std::unique_ptr<std::FILE, int (*)(std::FILE*)> open_csv(const std::filesystem::path& file,
                                                        const char* header, bool append);

}  // namespace fhn
