#pragma once
// The course referee's `viewer_log`: one line per turn, "<player 0|1> <N> <d1> .. <dN> " (with a
// trailing space), directions in the referee's frame. Read by `arena soccer-view`.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/parse_result.hpp"
#include "games/soccer/turn.hpp"

namespace arena::soccer {

// Logs larger than this are refused: a whole game is a few kilobytes.
inline constexpr std::size_t kMaxViewerLogBytes = 1 << 20;

std::string viewer_log_line(int player, const Turn& turn);  // "0 2 7 0 " plus '\n'

struct LoggedTurn {
  int player = 0;  // 0 = player 1 (White), 1 = player 2
  Turn turn;
  int line = 0;  // 1-based line in the log
};

// The log's turns, checked: syntax, whose turn it is, legality. states[0] is the start,
// states[i] the position after turns[i - 1]. Errors name the line ("line 7: ...").
struct LogReplay {
  std::vector<LoggedTurn> turns;
  std::vector<State> states;
};
Parsed<LogReplay> replay_viewer_log(std::string_view text);

}  // namespace arena::soccer
