#pragma once
// The bot side of the Paper Soccer course protocol: reads S / M / F from the referee, keeps the
// game in the referee's frame, asks a player for each turn and answers "M N d1 .. dN" in its own
// frame (it always attacks north). Used by the course bot `bot` and by `arena soccer-ref`.
#include <cstdio>
#include <iosfwd>
#include <string>

#include "search/player.hpp"

namespace arena {

struct SoccerBotOptions {
  std::string label = "A";       // the course's bot id: only a name in messages
  std::FILE* messages = stderr;  // where to say what it does; nullptr: silent
};

// Plays one game on `in` / `out` (file descriptors, usually 0 and 1). Returns 0 after F or when
// the referee goes away, 2 when the referee sends something this bot cannot follow.
int run_soccer_bot(int in_fd, int out_fd, Player& player, const SoccerBotOptions& options);

}  // namespace arena
