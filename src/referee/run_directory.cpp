#include "referee/run_directory.hpp"

#include <fmt/format.h>

#include <ctime>

namespace arena {

std::filesystem::path make_run_directory(const std::filesystem::path& parent,
                                         std::string_view game) {
  std::time_t now = std::time(nullptr);
  std::tm local{};
  ::localtime_r(&now, &local);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &local);
  const std::string base = fmt::format("{}-{}", game, stamp);
  std::filesystem::create_directories(parent);
  // create_directory is false when the directory exists: another run in the same second.
  auto dir = parent / base;
  for (int n = 2; !std::filesystem::create_directory(dir); ++n)
    dir = parent / fmt::format("{}-{}", base, n);
  return dir;
}

}  // namespace arena
