#pragma once
// How the Morris course's Engine judged an Action (Phase1.java, Phase2.java, PhaseFinal.java and
// Util.java of it.unibo.ai.didattica.mulino.actions), check by check in the Engine's order, so
// that arena's server accepts exactly what the original accepted and, when it refuses, names the
// exception the original threw. In particular the Engine reads removeOpponentChecker only when
// the move closes a mill: a removal named without a mill is ignored, not an error.
#include <optional>
#include <string>

#include "games/morris/state.hpp"
#include "protocol/mulino_messages.hpp"

namespace arena::mulino {

struct Judgement {
  // The move the Engine made of the action; empty when it refused it.
  std::optional<morris::Move> move;
  // What the Engine ignored in an accepted action, for people ("" when nothing was ignored).
  std::string note;
  // Why it refused the action, in arena's words ("b4 is not empty").
  std::string reason;
  // What the original printed when it refused: the exception's first stack-trace line
  // ("it.unibo.ai.didattica.mulino.actions.PositionNotEmptyException: Position b4 Not Empty"),
  // or the message it printed before System.exit for an action of the wrong class.
  std::string original;
  // The exception's simple name ("PositionNotEmptyException"), or "System.exit(-3)".
  std::string original_name;
  // The action's class is not the phase's: the Engine stopped with no winner (System.exit).
  bool wrong_class = false;

  explicit operator bool() const { return move.has_value(); }
};

// Judges the action the side to move in `s` sent, as the Engine did for the State it had sent
// (whose phase is wire_phase(s)).
Judgement judge_action(const morris::State& s, const WireAction& a);

// The action as the Engine printed it ("Player W move n4: " + this): Action.toString(), the
// fields run together, "null" for a missing one, the removal left out when null. Bounded and
// printable.
std::string action_text(const WireAction& a);

}  // namespace arena::mulino
