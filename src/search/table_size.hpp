#pragma once
// How large an engine player's transposition table is.
#include <cstdint>
#include <optional>

#include "search/player.hpp"

namespace arena {

// 16 MB: at 1 s a move Morris searches about 6 million nodes, six times the slots, yet 128 MB
// reached no deeper a depth in the positions of the games lost to Sanmill (docs/match.md).
inline constexpr int kDefaultTableMb = 16;
inline constexpr int kMaxTableMb = 65536;  // the most anyone may ask for

// The table's megabytes for `spec`: its own (table=MB) or the default, within a quarter of
// `memory_limit` (the process's, in bytes; a tight sandbox shrinks the table rather than break
// its limit), never below 1.
int engine_table_mb(const PlayerSpec& spec, std::optional<std::uint64_t> memory_limit);

}  // namespace arena
