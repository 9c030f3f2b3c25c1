#pragma once
// The end of a file that may be large or growing (a log, a build's output): its last bytes only.
#include <cstddef>
#include <filesystem>
#include <string>

namespace arena {

// The file's last `max_bytes` bytes (all of it when smaller); "" when it cannot be read.
std::string read_tail(const std::filesystem::path& file, std::size_t max_bytes);

}  // namespace arena
