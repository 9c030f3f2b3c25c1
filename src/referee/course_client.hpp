#pragma once
// A client of the course line protocol: connects, plays a whole game with a Player, reports.
#include <iosfwd>
#include <string>

#include "games/registry.hpp"
#include "search/player.hpp"

namespace arena {

struct CourseClientOptions {
  std::string host;
  std::string port;
  bool verbose = false;  // print every message and the board
  RuleOptions rules;  // the server's move limit and limit rule, as the player's model of the game
};

struct ClientOutcome {
  int exit_code = 0;    // 0: the game was played to its end; non-zero: it could not be
  std::string summary;  // one line: result or error
};

ClientOutcome run_course_client(const GameInfo& game, const CourseClientOptions& options,
                                Player& player, std::ostream& log);

}  // namespace arena
