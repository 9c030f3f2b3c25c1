#pragma once
// Tournament games of the Bologna Morris protocol: an in-process Morris server on two ports of
// 127.0.0.1 (free ones, or the course's 5800/5801), and each agent a child process given its
// colour (White or Black) and the ports.
#include <memory>

#include "tournament/match_runner.hpp"

namespace arena::tournament {

std::unique_ptr<MatchRunner> make_morris_match_runner();

}  // namespace arena::tournament
