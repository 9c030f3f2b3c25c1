#include "referee/mulino_log.hpp"

#include <fmt/format.h>

namespace arena {

std::string_view course_player(Side s) {
  return s == Side::White ? "W" : "B";
}

MulinoLog::MulinoLog(int move_time_ms) {
  // The course gave the timeout in whole seconds; a shorter test setting is shown as a fraction.
  text_ = fmt::format("Launching game with timeout {:g}\nWaiting for connections...\n",
                      move_time_ms / 1000.0);
}

void MulinoLog::connected(Side s) {
  text_ += fmt::format("Player {} connected!\n", course_player(s));
}

void MulinoLog::state(const mulino::WireState& s) {
  text_ += mulino::course_text(s);
  text_ += '\n';  // System.out.println(state): toString() already ends the last line
}

void MulinoLog::waiting(Side s) {
  text_ += fmt::format("Waiting for {} move...\n", course_player(s));
}

void MulinoLog::moved(Side s, int number, std::string_view move) {
  text_ += fmt::format("Player {} move n{}: {}\n", course_player(s), number, move);
}

void MulinoLog::illegal(Side s, std::string_view why) {
  text_ += fmt::format("Illegal action from player {}: {}\n", course_player(s), why);
  won(opposite(s), {});
}

void MulinoLog::refused(Side s, int number, std::string_view action, std::string_view exception) {
  moved(s, number, action);
  text_ += fmt::format("{}\n", exception);
  won(opposite(s), {});
}

void MulinoLog::timeout(Side late) {
  text_ += fmt::format("Timeout!!!!\nPlayer {} has lost!!!\n", course_player(late));
}

void MulinoLog::disconnected(Side who, std::string_view why) {
  text_ += fmt::format("Player {} disconnected: {}\n", course_player(who), why);
  won(opposite(who), {});
}

void MulinoLog::won(Side winner, std::string_view why) {
  if (!why.empty()) text_ += fmt::format("{}\n", why);
  text_ += fmt::format("Player {} WIN!!!\n", course_player(winner));
}

void MulinoLog::repetition() {
  text_ += "LOOOP!!!\n";
}

void MulinoLog::aborted(std::string_view why) {
  text_ += fmt::format("Game aborted: {}\n", why);
}

}  // namespace arena
