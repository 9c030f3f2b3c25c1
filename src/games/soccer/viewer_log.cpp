#include "games/soccer/viewer_log.hpp"

#include <fmt/format.h>

#include "core/text.hpp"

namespace arena::soccer {

std::string viewer_log_line(int player, const Turn& turn) {
  std::string out = fmt::format("{} {} ", player, turn.size());
  for (std::uint8_t d : turn) {
    out += static_cast<char>('0' + d);
    out += ' ';
  }
  out += '\n';
  return out;
}

Parsed<LogReplay> replay_viewer_log(std::string_view text) {
  if (text.size() > kMaxViewerLogBytes)
    return Parsed<LogReplay>::fail(
        fmt::format("the log is larger than {} bytes: not a Paper Soccer log", kMaxViewerLogBytes));
  LogReplay out;
  out.states.push_back(State::start());
  int line_no = 0;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    const std::string_view raw = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    ++line_no;
    const std::string_view line = trim(raw);
    if (line.empty()) continue;
    auto fail = [&](const std::string& why) {
      return Parsed<LogReplay>::fail(
          fmt::format("line {} ('{}'): {}", line_no, printable(line), why));
    };
    const State& before = out.states.back();
    if (before.over()) return fail("the game was already over");
    const std::size_t sp = line.find_first_of(" \t");
    const std::string_view who = line.substr(0, sp);
    if (who != "0" && who != "1") return fail("the line must start with the player, 0 or 1");
    const int player = who[0] - '0';
    if (sp == std::string_view::npos) return fail("no turn after the player");
    auto turn = parse_turn(line.substr(sp + 1));
    if (!turn) return fail(turn.error);
    if (player != index(before.side_to_move()))
      return fail(fmt::format("it is player {}'s turn", index(before.side_to_move())));
    State after = before;
    const TurnCheck check = play_turn(after, *turn.value);
    if (!check) return fail(check.detail);
    out.turns.push_back({player, std::move(*turn.value), line_no});
    out.states.push_back(after);
  }
  return Parsed<LogReplay>::ok(std::move(out));
}

}  // namespace arena::soccer
