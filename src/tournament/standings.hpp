#pragma once
// The table of an event from its games: the course's points (3 a win, 1 a draw, 0 a loss),
// W/D/L overall and per colour, the crosstable, and how many games each fault cost.
#include <array>
#include <string>
#include <vector>

#include "tournament/event.hpp"

namespace arena::tournament {

inline constexpr int kWinPoints = 3;
inline constexpr int kDrawPoints = 1;

struct Wdl {
  int wins = 0, draws = 0, losses = 0;
  int games() const { return wins + draws + losses; }
};

struct StandingRow {
  int participant = 0;
  int rank = 0;  // 1-based; equal for rows tied on every criterion
  int points = 0;
  Wdl total, as_white, as_black;
  double sonneborn_berger = 0;  // sum over opponents of (points scored against them) * their points
  int fault_losses = 0;         // games lost by timeout, illegal move, crash or disconnect
};

// Rows sorted by points, then Sonneborn-Berger, then wins, then name.
std::vector<StandingRow> compute_standings(const std::vector<Participant>& participants,
                                           const std::vector<GameResult>& games);

// cell[i][j]: i's results against j, from i's point of view ('W', 'D', 'L'; 0 for a game not
// played yet): the game where i had White, the game where i had Black, and i's points.
struct CrossCell {
  char as_white = 0, as_black = 0;
  int points = 0;
};
using Crosstable = std::vector<std::vector<CrossCell>>;
Crosstable compute_crosstable(int participants, const std::vector<GameResult>& games);

// Points of one game for the participant on `side`.
int points_for(Outcome outcome, Side side);

}  // namespace arena::tournament
