#pragma once
// Tournament games of Paper Soccer: `arena soccer-referee` (the course's referee) as a child
// process, with White as player 1 and Black as player 2, each a bot command on stdin/stdout.
#include <memory>

#include "tournament/match_runner.hpp"

namespace arena::tournament {

std::unique_ptr<MatchRunner> make_soccer_match_runner();

}  // namespace arena::tournament
