#include "handin/entry_path.hpp"

#include <fmt/format.h>

namespace arena::handin {

std::string EntryPath::text() const {
  std::string out;
  for (const auto& p : parts) {
    if (!out.empty()) out += '/';
    out += p;
  }
  return out;
}

Parsed<EntryPath> clean_entry_path(std::string_view name, const UnpackLimits& limits) {
  if (name.empty()) return Parsed<EntryPath>::fail("an entry has no name");
  if (name.front() == '/') return Parsed<EntryPath>::fail("absolute path");
  if (name.size() > limits.max_path_bytes)
    return Parsed<EntryPath>::fail(
        fmt::format("path is longer than the limit of {} bytes", limits.max_path_bytes));
  EntryPath out;
  std::size_t start = 0;
  while (start <= name.size()) {
    std::size_t slash = name.find('/', start);
    if (slash == std::string_view::npos) slash = name.size();
    const std::string_view part = name.substr(start, slash - start);
    start = slash + 1;
    if (part.empty() || part == ".") continue;  // "./alice//x": tar and zip tools write these
    if (part == "..") return Parsed<EntryPath>::fail("path leaves the folder ('..')");
    if (part.find('\0') != std::string_view::npos)
      return Parsed<EntryPath>::fail("a name holds a NUL byte");
    if (part.size() > limits.max_name_bytes)
      return Parsed<EntryPath>::fail(fmt::format(
          "a name in the path is longer than the limit of {} bytes", limits.max_name_bytes));
    out.parts.emplace_back(part);
  }
  if (out.parts.size() > static_cast<std::size_t>(limits.max_depth) + 1)
    return Parsed<EntryPath>::fail(
        fmt::format("path is deeper than the limit of {} folders", limits.max_depth));
  return Parsed<EntryPath>::ok(std::move(out));
}

std::string link_target_error(const EntryPath& link, std::string_view target) {
  if (target.empty()) return "symbolic link with an empty target";
  if (target.front() == '/') return "symbolic link to an absolute path";
  if (target.size() > 1024) return "symbolic link with a target longer than 1024 bytes";
  // Depth below the top of the folder that holds the link, followed part by part.
  long depth = static_cast<long>(link.parts.size()) - 1;
  std::size_t start = 0;
  while (start <= target.size()) {
    std::size_t slash = target.find('/', start);
    if (slash == std::string_view::npos) slash = target.size();
    const std::string_view part = target.substr(start, slash - start);
    start = slash + 1;
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      if (--depth < 0) return "symbolic link that points outside the folder";
    } else {
      ++depth;
    }
  }
  return "";
}

}  // namespace arena::handin
