#pragma once
// `arena replay`: a game record in the terminal. On a pipe the whole game is printed; on a
// terminal the course viewer's keys step through it (D forward, A back, Esc quits; arrows too).
#include <filesystem>
#include <iosfwd>
#include <string>

#include "referee/record.hpp"
#include "view/game_views.hpp"

namespace arena::view {

// "Ply 3/40: White B4,NE (12 ms)" or "Start position".
std::string ply_line(const GameRecord& r, std::size_t ply);

// The whole game as text: header, the start position, every ply with its board, the result.
void print_game(const GameRecord& r, const GameViews& views, std::ostream& out, bool color);

// Steps through the record with keys read from `in_fd` (a terminal, put in raw mode for the
// duration), drawing on `out`. Reloads the file when it changes, so a live game can be followed.
// Gives the process exit code.
int interactive_replay(const std::filesystem::path& file, int in_fd, std::ostream& out, bool color);

}  // namespace arena::view
