#pragma once
// The game log in the words the course's Java server (Engine) printed: the states as
// State.toString() wrote them, "Waiting for W move...", "Player W move n1: a1", and the ending
// ("Player W WIN!!!", "Timeout!!!!" / "Player W has lost!!!", "LOOOP!!!"). Endings the original
// never reached (an illegal action, a disconnection, a blocked player) get a line of the same kind.
#include <string>
#include <string_view>

#include "core/side.hpp"
#include "protocol/mulino_messages.hpp"

namespace arena {

class MulinoLog {
 public:
  explicit MulinoLog(int move_time_ms);

  void connected(Side s);
  void state(const mulino::WireState& s);
  void waiting(Side s);
  void moved(Side s, int number, std::string_view move);  // number: the player's own count, from 1
  void illegal(Side s, std::string_view why);
  // An action the Engine refused: the action as it printed it, then the exception it threw (the
  // first line of its stack trace); arena then gives the game to the opponent.
  void refused(Side s, int number, std::string_view action, std::string_view exception);
  void timeout(Side late);
  void disconnected(Side who, std::string_view why);
  void won(Side winner, std::string_view why);
  void repetition();
  void aborted(std::string_view why);

  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

// "W" or "B", as the course names the players.
std::string_view course_player(Side s);

}  // namespace arena
