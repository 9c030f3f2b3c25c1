#pragma once
// `arena match` with a course-protocol agent (`command ...`). Such a program starts only from the
// course's start position, so every game is played whole, as a tournament plays it: through the
// game's course referee (Paper Soccer: `arena soccer-referee`, whose rules judge: a crash, an
// illegal move or a timeout loses), in the tournaments' sandbox, the built-in agents run as
// tournaments run them (`arena soccer-bot ...`). Pairs are the two colours from the start.
#include <filesystem>
#include <string>
#include <vector>

#include "match/match.hpp"
#include "sandbox/sandbox.hpp"
#include "tournament/event.hpp"

namespace arena::match {

struct CourseMatchOptions {
  std::filesystem::path arena_binary;  // runs the referee and the built-in agents
  int move_time_ms = 0;                // the referee's time per move; 0: the game's course limit
  SandboxMode sandbox = SandboxMode::Auto;
  AgentLimits limits;             // each agent's
  std::filesystem::path records;  // every game's record and logs kept here; empty: not kept
};

class CourseGames {
 public:
  // Checks the openings (the start position only), the agents against the game, and that every
  // program can start in the sandbox; throws std::runtime_error saying what is wrong.
  CourseGames(const MatchSettings& settings, CourseMatchOptions options);
  ~CourseGames();  // removes the temporary folder
  CourseGames(const CourseGames&) = delete;
  CourseGames& operator=(const CourseGames&) = delete;

  // Plays one game; called from the match's threads at once.
  GameResult play(const GameSlot& slot) const;
  // For people: who judges, at what time, in which sandbox (and what it lacks).
  std::string summary() const;

 private:
  const GameInfo& game_;
  tournament::EventSettings event_;  // participants: A, B
  CourseMatchOptions options_;
  int max_plies_;
  SandboxPlan plan_;
  std::vector<int> cores_;
  std::filesystem::path dir_;  // the games' files (options_.records, or a temporary folder)
};

}  // namespace arena::match
