#pragma once
// Where one server run keeps its records: <parent>/<game>-<YYYYmmdd-HHMMSS>[-N], created fresh.
#include <filesystem>
#include <string_view>

namespace arena {

std::filesystem::path make_run_directory(const std::filesystem::path& parent,
                                         std::string_view game);

}  // namespace arena
