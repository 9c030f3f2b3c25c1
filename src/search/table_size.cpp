#include "search/table_size.hpp"

#include <algorithm>

namespace arena {

int engine_table_mb(const PlayerSpec& spec, std::optional<std::uint64_t> memory_limit) {
  int mb = spec.table_mb > 0 ? spec.table_mb : kDefaultTableMb;
  if (memory_limit) {
    const std::uint64_t quarter_mb = *memory_limit / 4 / (1024 * 1024);
    mb = static_cast<int>(std::min<std::uint64_t>(static_cast<std::uint64_t>(mb), quarter_mb));
  }
  return std::max(mb, 1);
}

}  // namespace arena
