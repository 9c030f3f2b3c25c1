#include "protocol/mulino_judge.hpp"

#include <fmt/format.h>

#include <array>
#include <bit>
#include <string_view>
#include <vector>

#include "core/text.hpp"
#include "protocol/java_serial/writer.hpp"
#include "protocol/mulino_position.hpp"

namespace arena::mulino {
namespace {

using morris::kNoPoint;
using morris::Move;
using morris::point_bit;
using morris::Points;

constexpr std::string_view kPackage = "it.unibo.ai.didattica.mulino.actions.";

// A field as Java's string concatenation shows it: "null" when missing.
std::string java(const std::optional<std::string>& s) {
  return s ? printable(*s, 40) : "null";
}

// The field named in arena's words: "putPosition is null", "to 'z9' is not a point".
std::string not_a_point(std::string_view field, const std::optional<std::string>& s) {
  if (!s) return fmt::format("{} is null", field);
  if (s->empty()) return fmt::format("{} is empty", field);
  return fmt::format("{} '{}' is not a point", field, printable(*s, 40));
}

std::optional<int> point_of(const std::optional<std::string>& s) {
  if (!s) return std::nullopt;
  return point_index(*s);
}

std::string_view name(int p) {
  return kPoints[static_cast<std::size_t>(p)];
}

Judgement refuse(std::string reason, std::string_view exception, std::string_view message) {
  Judgement j;
  j.reason = std::move(reason);
  j.original_name = exception;
  j.original = fmt::format("{}{}: {}", kPackage, exception, message);
  return j;
}

Judgement wrong_position(std::string reason, const std::optional<std::string>& position) {
  return refuse(std::move(reason), "WrongPositionException",
                fmt::format("Position {} does not exist!", java(position)));
}

// The points in the order the Engine's board (a java.util.HashMap) iterates them: the order in
// which Util.removeOpponentChecker looks for an opponent piece outside every mill.
const std::vector<std::size_t>& board_iteration_order() {
  static const std::vector<std::size_t> order = [] {
    const std::vector<std::string> keys(kPoints.begin(), kPoints.end());
    return jser::java_hash_map_order(keys, jser::java_hash_map_shape(keys.size()).capacity);
  }();
  return order;
}

// After the piece has landed on m.to (the mover's pieces are then own_after): Phase1, Phase2 and
// PhaseFinal call Util.removeOpponentChecker only if Util.hasCompletedTriple, so without a mill
// the removal is never read.
Judgement with_removal(const morris::State& s, Move m, Points own_after, const WireAction& a) {
  const Side side = s.side_to_move();
  const Points opp = s.points(opposite(side));
  const std::string stem = s.move_text(m);
  Judgement j;
  if (!morris::mill_through(own_after, m.to) || opp == 0) {
    if (a.remove)
      j.note = fmt::format(
          "removeOpponentChecker '{}' ignored: {} closes no mill (the course's Engine reads it "
          "only "
          "after a mill)",
          printable(*a.remove, 40), stem);
    j.move = m;
    return j;
  }
  const auto r = point_of(a.remove);
  if (!r)
    return wrong_position(
        a.remove ? fmt::format("{} closes a mill and removeOpponentChecker '{}' is not a point",
                               stem, printable(*a.remove, 40))
                 : fmt::format("{} closes a mill: name the opponent piece to remove too", stem),
        a.remove);
  if (own_after & point_bit(*r))
    return refuse(fmt::format("{} is {}'s own piece, not one to remove", name(*r), side_name(side)),
                  "TryingToRemoveOwnCheckerException",
                  "You are trying to remove your own checker...");
  if (!(opp & point_bit(*r)))
    return refuse(
        fmt::format("{} holds no {} piece to remove", name(*r), side_name(opposite(side))),
        // The original's message, copied from the exception above, is this one too.
        "TryingToRemoveEmptyCheckerException", "You are trying to remove your own checker...");
  const Points in_mill = morris::in_mills(opp);
  if (in_mill & point_bit(*r)) {
    for (const std::size_t p : board_iteration_order())
      if ((opp & ~in_mill) & point_bit(static_cast<int>(p)))
        return refuse(
            fmt::format("{} is in a mill: a piece in a mill may be removed only when all pieces "
                        "are in mills ({} is not)",
                        name(*r), name(static_cast<int>(p))),
            "TryingToRemoveCheckerInTripleException",
            fmt::format("It has been asked to remove checker in pos. {}, but in pos. {} there is "
                        "one checker available!",
                        name(*r), name(static_cast<int>(p))));
  }
  m.remove = static_cast<std::uint8_t>(*r);
  j.move = m;
  return j;
}

// Phase1.initialChecks, then the placement.
Judgement judge_placement(const morris::State& s, const WireAction& a) {
  const auto to = point_of(a.from);
  if (!to) return wrong_position(not_a_point("putPosition", a.from), a.from);
  const Side side = s.side_to_move();
  const Points own = s.points(side), occupied = own | s.points(opposite(side));
  if (occupied & point_bit(*to))
    return refuse(fmt::format("{} is not empty", name(*to)), "PositionNotEmptyException",
                  fmt::format("Position {} Not Empty", name(*to)));
  const Move m{kNoPoint, static_cast<std::uint8_t>(*to), kNoPoint};
  return with_removal(s, m, own | point_bit(*to), a);
}

// Phase2.initialChecks and PhaseFinal.initialChecks (which differ only in where the adjacency
// check comes), then the move.
Judgement judge_move(const morris::State& s, const WireAction& a, Phase phase) {
  const Side side = s.side_to_move();
  const Points own = s.points(side), occupied = own | s.points(opposite(side));
  const std::string shown = action_text(a);
  if (!a.from || a.from->empty()) return wrong_position(not_a_point("from", a.from), a.from);
  const auto from = point_index(*a.from);
  if (!from) return wrong_position(not_a_point("from", a.from), a.from);
  if (!(own & point_bit(*from)))
    return refuse(fmt::format("{} holds no {} piece", name(*from), side_name(side)),
                  "TryingToMoveOpponentCheckerException",
                  "You are trying to move your opponent checker: " + shown);
  if (!a.to || a.to->empty()) return wrong_position(not_a_point("to", a.to), a.to);
  if (*a.to == *a.from)
    return refuse(fmt::format("from and to are both {}", name(*from)),
                  "FromAndToAreEqualsException", "The from and to position are the same: " + shown);
  const auto to = point_index(*a.to);
  auto not_connected = [&] {
    return refuse(
        to ? fmt::format("{} is not next to {} (a piece flies only when its side has 3)", name(*to),
                         name(*from))
           : fmt::format("to '{}' is not a point next to {}", printable(*a.to, 40), name(*from)),
        // The original's message for this exception is the one of the one above.
        "FromAndToAreNotConnectedException", "The from and to position are the same: " + shown);
  };
  const bool adjacent = to && (morris::kAdjacent[*from] & point_bit(*to));
  const bool flying = s.on_board(side) <= 3;
  if (phase == Phase::Second && !adjacent) return not_connected();
  if (!to) return wrong_position(not_a_point("to", a.to), a.to);
  if (occupied & point_bit(*to))
    return refuse(fmt::format("{} is not empty", name(*to)), "PositionNotEmptyException",
                  fmt::format("Position {} Not Empty", name(*to)));
  if (phase == Phase::Final && !flying && !adjacent) return not_connected();
  const Move m{static_cast<std::uint8_t>(*from), static_cast<std::uint8_t>(*to), kNoPoint};
  return with_removal(s, m, (own & ~point_bit(*from)) | point_bit(*to), a);
}

}  // namespace

Judgement judge_action(const morris::State& s, const WireAction& a) {
  const Phase phase = wire_phase(s);
  if (a.kind != action_kind_for(phase)) {
    // The Engine's applyMove of the phase does not cast the action: it exits with no winner,
    // printing this first (Phase1 prints nothing).
    static constexpr std::array<std::string_view, 3> printed = {
        "", "Engine expecting a Phase2Action, found something different...",
        "Engine was expecting PhaseFinalAction instance, but received a different action..."};
    Judgement j;
    j.reason = fmt::format("sent a {} in phase {}, which takes a {}", action_class_name(a.kind),
                           phase_constant(phase), action_class_name(action_kind_for(phase)));
    j.original = printed[static_cast<std::size_t>(phase)];
    j.original_name = fmt::format("System.exit({})", -2 - static_cast<int>(phase));
    j.wrong_class = true;
    return j;
  }
  return phase == Phase::First ? judge_placement(s, a) : judge_move(s, a, phase);
}

std::string action_text(const WireAction& a) {
  std::string out = java(a.from);
  if (a.kind != ActionKind::Phase1) out += java(a.to);
  if (a.remove) out += java(a.remove);
  return out;
}

}  // namespace arena::mulino
