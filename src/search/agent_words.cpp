#include "search/agent_words.hpp"

#include <fmt/format.h>

#include "core/text.hpp"
#include "search/player.hpp"
#include "search/table_size.hpp"

namespace arena {

std::string read_engine_words(std::span<const std::string_view> words, bool with_nodes,
                              EngineWords& out) {
  // The same limit given twice is allowed (the last counts), as saved events may hold it.
  bool time = false, depth = false, nodes = false;
  for (const std::string_view word : words) {
    const auto eq = word.find('=');
    const std::string_view key = word.substr(0, eq);
    const std::string_view value = eq == std::string_view::npos ? "" : word.substr(eq + 1);
    if (key == "time") {
      if (!parse_number(value, 1, 3'600'000, out.time_ms))
        return fmt::format("'{}': time must be milliseconds, 1 to 3600000", printable(word));
      time = true;
    } else if (key == "depth") {
      if (!parse_number(value, 1, 60, out.depth))
        return fmt::format("'{}': depth must be 1 to 60", printable(word));
      depth = true;
    } else if (key == "nodes" && with_nodes) {
      if (!parse_number<std::uint64_t>(value, 1, 1'000'000'000'000, out.nodes))
        return fmt::format("'{}': nodes must be 1 to 10^12", printable(word));
      nodes = true;
    } else if (key == "threads") {
      if (!parse_number(value, 1, 64, out.threads))
        return fmt::format("'{}': threads must be 1 to 64", printable(word));
    } else if (key == "table" && with_nodes) {
      if (!parse_number(value, 1, kMaxTableMb, out.table_mb))
        return fmt::format("'{}': table must be megabytes, 1 to {}", printable(word), kMaxTableMb);
    } else if (key == "level") {
      if (!parse_number(value, 1, kEngineLevels, out.level))
        return fmt::format("'{}': level must be 1 to {}", printable(word), kEngineLevels);
    } else {
      return fmt::format("engine option '{}' is not {}", printable(word),
                         with_nodes ? "time=MS, depth=N, nodes=N, threads=N, level=N or table=MB"
                                    : "time=MS, depth=N, threads=N or level=N");
    }
    if (time + depth + nodes > 1)
      return with_nodes ? "engine takes one of time=MS, depth=N or nodes=N"
                        : "engine takes time=MS or depth=N, not both";
  }
  return {};
}

std::string take_leading_name(std::string_view& spec) {
  spec = trim(spec);
  std::size_t n = 0;
  while (n < spec.size() && is_name_char(spec[n])) ++n;
  if (n == 0 || n == spec.size() || spec[n] != ':' ||
      (n + 1 < spec.size() && spec[n + 1] != ' ' && spec[n + 1] != '\t'))
    return {};
  std::string name(spec.substr(0, n));
  spec = trim(spec.substr(n + 1));
  return name;
}

}  // namespace arena
