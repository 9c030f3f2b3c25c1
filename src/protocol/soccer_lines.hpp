#pragma once
// The Paper Soccer course protocol (Politehnica Bucharest 2013) without processes: the lines the
// referee and the bots exchange on stdin/stdout, and the 180-degree turn between the two bots'
// frames. See docs/soccer-protocol.md.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/parse_result.hpp"

namespace arena::soccer_wire {

// A turn: its steps, each a direction 0..7 = N, NE, E, SE, S, SW, W, NW.
using Steps = std::vector<std::uint8_t>;

// No turn can have more steps than the field has segments (fewer than 400); this bound only keeps
// hostile input small.
inline constexpr std::size_t kMaxTurnSteps = 512;
// Longest line either side accepts: "M 512" and 512 directions fit with room to spare.
inline constexpr std::size_t kMaxLineBytes = 2048;

// Referee -> bot lines, each ending in "\n".
std::string start_line();                   // "S\n": you move first
std::string finish_line();                  // "F\n": the game is over
std::string move_line(const Steps& steps);  // "M N d1 .. dN\n"

// "N d1 .. dN": a turn as the type-erased game state and the records write it.
std::string turn_text(const Steps& steps);

// The same turn seen from the other end of the field (d + 4 mod 8).
Steps rotated(const Steps& steps);

// A bot's line (without its line end) as the referee reads it, strictly: "M", then N >= 1 without
// leading zeros, then exactly N directions 0..7, all separated by single spaces, nothing before
// or after. Gives the steps, or why the line is not a turn.
Parsed<Steps> parse_bot_line(std::string_view line);

enum class RefereeKind { Start, Move, Finish };
struct RefereeMessage {
  RefereeKind kind = RefereeKind::Start;
  Steps steps;  // for Move
};

// A referee's line as a bot reads it: tolerant of extra spaces, tabs and a CR, but the count must
// match the directions that follow.
Parsed<RefereeMessage> parse_referee_line(std::string_view line);

}  // namespace arena::soccer_wire
