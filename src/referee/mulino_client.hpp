#pragma once
// An agent for the Morris course server (Mulino, Bologna 2016/17): connects to the White or Black
// port (retrying while the server is not listening yet), works out the opponent's moves from the
// states the server sends, answers with Actions chosen by a Player, and ends when the server
// closes the connection (the protocol has no result message).
#include <cstdint>
#include <iosfwd>
#include <string>

#include "core/side.hpp"
#include "referee/course_client.hpp"
#include "search/player.hpp"

namespace arena {

struct MulinoClientOptions {
  Side side = Side::White;
  std::string host = "127.0.0.1";
  std::uint16_t white_port = 5800;
  std::uint16_t black_port = 5801;
  int connect_timeout_ms = 60000;  // how long to keep retrying a refused connection
  bool course_output = false;      // print what the course's text client printed (the states)
};

// exit_code 0: the game ran until the server closed it (summary: the result as far as the rules
// tell); 2: could not connect; 3: the server broke the protocol.
ClientOutcome run_mulino_client(const MulinoClientOptions& options, Player& player,
                                std::ostream& log);

}  // namespace arena
