#pragma once
// The line protocol of the Calabria course servers (Fission 2021/22, Murus Gallicus 2020/21):
// pure formatting and parsing, no sockets. See docs/protocol.md.
#include <cstddef>
#include <string>
#include <string_view>

#include "core/parse_result.hpp"
#include "core/side.hpp"

namespace arena::course {

// Longest line either side accepts; real moves are a dozen bytes.
inline constexpr std::size_t kMaxLineBytes = 1024;

enum class ServerKind {
  Welcome,
  Message,
  OpponentMove,
  YourTurn,
  ValidMove,
  IllegalMove,
  Timeout,
  Victory,
  Tie,
  Defeat
};

struct ServerMessage {
  ServerKind kind;
  std::string argument;  // colour, message text or move; empty for the others
};

// Server -> client lines, each ending in "\n".
std::string welcome(Side s);
std::string message(std::string_view text);
std::string opponent_move(std::string_view move);
std::string your_turn();
std::string valid_move();
std::string illegal_move();
std::string timeout();
std::string victory();
std::string tie();
std::string defeat();

// A client's line (without line end) as the course server read it: case-insensitive, spaces
// around the move trimmed. Gives the move text in upper case, or why the line is not a move.
Parsed<std::string> parse_client_line(std::string_view line);

// A server's line (without line end) as a client reads it.
Parsed<ServerMessage> parse_server_line(std::string_view line);

// "MOVE <move>\n"
std::string move_line(std::string_view move);

}  // namespace arena::course
