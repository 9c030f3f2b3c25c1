#pragma once
// One game between two participants outside an event's schedule: a course worker's job, a game of
// `arena match` with a course-protocol agent. It is the request an event makes for a game (the
// move time, the time cap, the game's files hidden from the agents), played by the game's runner.
#include <array>
#include <cstdint>
#include <filesystem>
#include <vector>

#include "referee/record.hpp"
#include "tournament/event.hpp"
#include "tournament/match_runner.hpp"

namespace arena::tournament {

struct SingleGame {
  // participants: {White, Black}; the working directory, move time, rules, sandbox and limits.
  EventSettings settings;
  std::uint64_t seed = 0;              // the built-in agents' seeds are derived from it
  std::filesystem::path arena_binary;  // runs the built-in agents (and Paper Soccer's referee)
  // The game's files (MatchRequest::stem); their folder is hidden from the agents.
  std::filesystem::path stem;
  std::array<std::vector<int>, 2> cores;  // each side's cores, with the CPU protection
  int max_plies = 0;                      // >0: a draw (ply-limit) after this many plies
};

// Checks the participants for the game (check_participants_for) and plays it. Throws
// std::runtime_error as MatchRunner::play does, and for participants that cannot play.
GameRecord play_single_game(const GameInfo& game, const SingleGame& single,
                            const SandboxPlan& plan);

}  // namespace arena::tournament
