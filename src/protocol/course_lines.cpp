#include "protocol/course_lines.hpp"

#include <array>
#include <utility>

#include "core/text.hpp"

namespace arena::course {
namespace {

bool has_control_bytes(std::string_view s) {
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 && c != '\t') return true;
    if (u >= 0x7f) return true;
  }
  return false;
}

// Splits "KEYWORD rest" at the first space; rest keeps its inner spaces.
std::pair<std::string_view, std::string_view> split_keyword(std::string_view line) {
  const auto sp = line.find(' ');
  if (sp == std::string_view::npos) return {line, {}};
  return {line.substr(0, sp), line.substr(sp + 1)};
}

}  // namespace

std::string welcome(Side s) { return "WELCOME " + std::string(side_name(s)) + "\n"; }
std::string message(std::string_view text) { return "MESSAGE " + std::string(text) + "\n"; }
std::string opponent_move(std::string_view move) { return "OPPONENT_MOVE " + std::string(move) + "\n"; }
std::string your_turn() { return "YOUR_TURN\n"; }
std::string valid_move() { return "VALID_MOVE\n"; }
std::string illegal_move() { return "ILLEGAL_MOVE\n"; }
std::string timeout() { return "TIMEOUT\n"; }
std::string victory() { return "VICTORY\n"; }
std::string tie() { return "TIE\n"; }
std::string defeat() { return "DEFEAT\n"; }
std::string move_line(std::string_view move) { return "MOVE " + std::string(move) + "\n"; }

Parsed<std::string> parse_client_line(std::string_view raw) {
  if (has_control_bytes(raw)) return Parsed<std::string>::fail("the line holds control or non-ASCII bytes");
  const std::string line = to_upper(trim(raw));
  if (line.empty()) return Parsed<std::string>::fail("empty line");
  const auto [keyword, rest] = split_keyword(line);
  if (keyword != "MOVE")
    return Parsed<std::string>::fail("expected 'MOVE <move>', got '" + printable(line) + "'");
  const std::string_view move = trim(rest);
  if (move.empty()) return Parsed<std::string>::fail("MOVE without a move");
  return Parsed<std::string>::ok(std::string(move));
}

Parsed<ServerMessage> parse_server_line(std::string_view line) {
  using P = Parsed<ServerMessage>;
  if (has_control_bytes(line)) return P::fail("the line holds control or non-ASCII bytes");
  const auto [keyword, rest] = split_keyword(line);
  static constexpr std::array<std::pair<std::string_view, ServerKind>, 7> kBare = {{
      {"YOUR_TURN", ServerKind::YourTurn},
      {"VALID_MOVE", ServerKind::ValidMove},
      {"ILLEGAL_MOVE", ServerKind::IllegalMove},
      {"TIMEOUT", ServerKind::Timeout},
      {"VICTORY", ServerKind::Victory},
      {"TIE", ServerKind::Tie},
      {"DEFEAT", ServerKind::Defeat},
  }};
  for (const auto& [name, kind] : kBare)
    if (keyword == name) {
      if (!trim(rest).empty()) return P::fail(std::string(name) + " takes no argument");
      return P::ok({kind, {}});
    }
  if (keyword == "MESSAGE") return P::ok({ServerKind::Message, std::string(rest)});
  if (keyword == "WELCOME") {
    const std::string_view colour = trim(rest);
    if (colour != "White" && colour != "Black")
      return P::fail("WELCOME with colour '" + printable(colour) + "'");
    return P::ok({ServerKind::Welcome, std::string(colour)});
  }
  if (keyword == "OPPONENT_MOVE") {
    const std::string_view move = trim(rest);
    if (move.empty()) return P::fail("OPPONENT_MOVE without a move");
    return P::ok({ServerKind::OpponentMove, std::string(move)});
  }
  return P::fail("unknown message '" + printable(line) + "'");
}

}  // namespace arena::course
