#pragma once
// Tournament games of the Calabria line protocol (Fission, Murus Gallicus): an in-process course
// server on a free port of 127.0.0.1, and each agent a child process given the host and port.
#include <memory>

#include "tournament/match_runner.hpp"

namespace arena::tournament {

std::unique_ptr<MatchRunner> make_line_match_runner();

}  // namespace arena::tournament
