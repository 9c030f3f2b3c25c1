#include "core/memory_limit.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>
#include <string>

namespace arena {
namespace {

namespace fs = std::filesystem;

void tighten(std::optional<std::uint64_t>& limit, std::uint64_t bytes) {
  limit = limit ? std::min(*limit, bytes) : bytes;
}

// A limit file's number; none for "max", v1's "unlimited" (close to 2^63), or no file.
std::optional<std::uint64_t> read_limit(const fs::path& file) {
  std::ifstream in(file);
  std::string text;
  if (!std::getline(in, text)) return std::nullopt;
  while (!text.empty() && (text.back() == ' ' || text.back() == '\r')) text.pop_back();
  std::uint64_t bytes = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), bytes);
  if (error != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  if (bytes >= (std::uint64_t{1} << 62)) return std::nullopt;
  return bytes;
}

// The tightest limit of `file` in the cgroup `path` under `mount` and in each cgroup above it.
void tighten_along(std::optional<std::uint64_t>& limit, const fs::path& mount,
                   std::string_view path, const char* file) {
  if (path.empty() || path.front() != '/' || path.find("..") != std::string_view::npos) return;
  fs::path group = mount / fs::path(path).relative_path();
  for (;;) {
    if (const auto bytes = read_limit(group / file)) tighten(limit, *bytes);
    if (group == mount || !group.has_relative_path()) break;
    group = group.parent_path();
  }
}

}  // namespace

std::optional<std::uint64_t> cgroup_memory_limit(std::string_view proc_self_cgroup,
                                                 const fs::path& cgroup_root) {
  std::optional<std::uint64_t> limit;
  std::istringstream lines{std::string(proc_self_cgroup)};
  std::string line;
  // Lines are "ID:CONTROLLERS:PATH"; v2's is "0::PATH".
  while (std::getline(lines, line)) {
    const auto first = line.find(':');
    const auto second = first == std::string::npos ? first : line.find(':', first + 1);
    if (second == std::string::npos) continue;
    const std::string_view controllers =
        std::string_view(line).substr(first + 1, second - first - 1);
    const std::string_view path = std::string_view(line).substr(second + 1);
    if (controllers.empty()) {
      // v2 alone at the root, or beside v1 (a hybrid host) under "unified".
      tighten_along(limit, cgroup_root, path, "memory.max");
      tighten_along(limit, cgroup_root / "unified", path, "memory.max");
      continue;
    }
    std::string_view rest = controllers;
    while (!rest.empty()) {
      const std::string_view name = rest.substr(0, rest.find(','));
      if (name == "memory") {
        tighten_along(limit, cgroup_root / controllers, path, "memory.limit_in_bytes");
        break;
      }
      rest.remove_prefix(std::min(rest.size(), name.size() + 1));
    }
  }
  return limit;
}

std::optional<std::uint64_t> process_memory_limit() {
  std::optional<std::uint64_t> limit;
  std::ifstream in("/proc/self/cgroup");
  std::stringstream text;
  text << in.rdbuf();
  if (const auto bytes = cgroup_memory_limit(text.str(), "/sys/fs/cgroup")) tighten(limit, *bytes);
  for (const int resource : {RLIMIT_AS, RLIMIT_DATA}) {
    rlimit r{};
    if (::getrlimit(resource, &r) == 0 && r.rlim_cur != RLIM_INFINITY) tighten(limit, r.rlim_cur);
  }
  return limit;
}

}  // namespace arena
