#pragma once
// Input files that must be regular files (config, sweep and study files, config/yaml_text.hpp;
// the picture readers, model/png_image.hpp and model/vti_image.hpp): what a path is when it is
// not one, and reading one without ever blocking on a FIFO or reading a device.
#include <cstdint>
#include <string>
#include <vector>

namespace fhn {

// Why the path cannot be read as a regular file, symlinks followed: "" when it is one, else
// "no such file", "a directory, not a regular file", "a FIFO (named pipe), not a regular file",
// "a character device, not a regular file" (/dev/zero), "a block device, ...", "a socket, ...",
// or the system's reason ("Permission denied").
std::string not_regular_file(const std::string& path);

// The bytes of the regular file at `path`, at most max_bytes + 1 of them: a caller refuses a
// file larger than max_bytes in its own words without reading it all. Opened without blocking
// (O_NONBLOCK: a FIFO opens at once) and checked on the open descriptor (fstat), so that the
// file read is the file checked. Throws ConfigError "<path>: cannot open <what>
// (<not_regular_file's reason>)".
std::vector<unsigned char> read_regular_file(const std::string& path, const std::string& what,
                                             std::uintmax_t max_bytes);

}  // namespace fhn
