#include "view/safe_path.hpp"

#include <algorithm>
#include <system_error>

namespace arena::view {

bool is_clean_relative_path(std::string_view relative) {
  if (relative.size() > kMaxRelativePath) return false;
  if (relative.empty()) return true;
  if (relative.front() == '/') return false;
  while (true) {
    const auto slash = relative.find('/');
    const std::string_view segment = relative.substr(0, slash);
    if (segment.empty() || segment == "." || segment == "..") return false;
    if (segment.find('\0') != std::string_view::npos) return false;
    if (slash == std::string_view::npos) return true;
    relative.remove_prefix(slash + 1);
  }
}

bool is_within(const std::filesystem::path& root, const std::filesystem::path& p) {
  const auto [r, q] = std::mismatch(root.begin(), root.end(), p.begin(), p.end());
  return r == root.end();
}

std::optional<std::filesystem::path> resolve_under(const std::filesystem::path& root,
                                                   std::string_view relative) {
  if (!is_clean_relative_path(relative)) return std::nullopt;
  std::error_code ec;
  const auto target = std::filesystem::canonical(root / std::string(relative), ec);
  if (ec || !is_within(root, target)) return std::nullopt;
  return target;
}

}  // namespace arena::view
