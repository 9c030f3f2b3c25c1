#pragma once
// Paths that come from outside (URLs), confined to one folder.
#include <filesystem>
#include <optional>
#include <string_view>

namespace arena::view {

inline constexpr std::size_t kMaxRelativePath = 1024;

// Whether `relative` is acceptable as written: relative, no ".." or "." segment, no empty
// segment, no NUL, bounded length. "" names the folder itself.
bool is_clean_relative_path(std::string_view relative);

// What `relative` names under `root` (a canonical path), with symlinks resolved; nullopt when
// the name is not clean or the target does not exist or lies outside root (e.g. via a symlink).
std::optional<std::filesystem::path> resolve_under(const std::filesystem::path& root,
                                                   std::string_view relative);

// Whether `p` (canonical) is root or inside it.
bool is_within(const std::filesystem::path& root, const std::filesystem::path& p);

}  // namespace arena::view
