// The Morris course's Engine, check by check (Phase1.java, Phase2.java, PhaseFinal.java,
// Util.java): what it accepted, what it ignored, and which exception it threw, with the
// exception's own message.
#include "protocol/mulino_judge.hpp"

#include <gtest/gtest.h>

#include <string>

#include "support/positions.hpp"

namespace arena::mulino {
namespace {

using morris::State;
using testing::pts;

State position(std::string_view white, std::string_view black, int white_hand, int black_hand,
               Side to_move = Side::White) {
  return *State::from_position({pts(white), pts(black), white_hand, black_hand, to_move, 0}).value;
}

WireAction place(std::optional<std::string> put, std::optional<std::string> remove = {}) {
  return {ActionKind::Phase1, std::move(put), {}, std::move(remove)};
}
WireAction slide(ActionKind kind, std::optional<std::string> from, std::optional<std::string> to,
                 std::optional<std::string> remove = {}) {
  return {kind, std::move(from), std::move(to), std::move(remove)};
}

std::string accepted(const State& s, const WireAction& a) {
  const Judgement j = judge_action(s, a);
  EXPECT_TRUE(j) << j.reason;
  return j ? s.move_text(*j.move) : "";
}

// The exception line the original printed (without the package).
std::string thrown(const State& s, const WireAction& a) {
  const Judgement j = judge_action(s, a);
  EXPECT_FALSE(j);
  EXPECT_FALSE(j.reason.empty());
  const std::string package = "it.unibo.ai.didattica.mulino.actions.";
  EXPECT_EQ(j.original.substr(0, package.size()), package) << j.original;
  EXPECT_EQ(j.original.substr(package.size(), j.original_name.size()), j.original_name);
  return j.original.substr(std::min(package.size(), j.original.size()));
}

// The course player's game: a7, d1, then d7 with the opponent's d1 named although no mill closes.
TEST(MulinoJudge, ARemovalWithoutAMillIsIgnoredWhilePlacing) {
  State s = State::start();
  s.apply(*s.parse_move("a7").value);
  s.apply(*s.parse_move("d1").value);
  const Judgement j = judge_action(s, place("d7", "d1"));
  ASSERT_TRUE(j) << j.reason;
  EXPECT_EQ(s.move_text(*j.move), "d7");
  EXPECT_EQ(j.note,
            "removeOpponentChecker 'd1' ignored: d7 closes no mill (the course's Engine reads it "
            "only after a mill)");
  // Whatever it names: never read, so never wrong.
  EXPECT_EQ(accepted(s, place("d7", "zz")), "d7");
  EXPECT_EQ(accepted(s, place("d7", "a7")), "d7");
  EXPECT_EQ(accepted(s, place("d7")), "d7");
  EXPECT_TRUE(judge_action(s, place("d7")).note.empty());
}

TEST(MulinoJudge, PlacingChecksInTheEnginesOrder) {
  const State s = position("a1 d1", "b2 b4", 7, 7);
  EXPECT_EQ(thrown(s, place({})), "WrongPositionException: Position null does not exist!");
  EXPECT_EQ(thrown(s, place("A1")), "WrongPositionException: Position A1 does not exist!");
  EXPECT_EQ(thrown(s, place("d4", "b2")), "WrongPositionException: Position d4 does not exist!");
  EXPECT_EQ(thrown(s, place("b2", "zz")), "PositionNotEmptyException: Position b2 Not Empty");
  EXPECT_EQ(judge_action(s, place("b2")).reason, "b2 is not empty");
}

TEST(MulinoJudge, AMillMustNameAnOpponentPieceThatMayGo) {
  // g1 closes a1 d1 g1. Black: a mill b2 b4 b6, and f2, c3 outside it.
  const State s = position("a1 d1", "b2 b4 b6 f2 c3", 7, 4);
  EXPECT_EQ(thrown(s, place("g1")), "WrongPositionException: Position null does not exist!");
  EXPECT_EQ(judge_action(s, place("g1")).reason,
            "g1 closes a mill: name the opponent piece to remove too");
  EXPECT_EQ(thrown(s, place("g1", "x")), "WrongPositionException: Position x does not exist!");
  EXPECT_EQ(thrown(s, place("g1", "a1")),
            "TryingToRemoveOwnCheckerException: You are trying to remove your own checker...");
  EXPECT_EQ(thrown(s, place("g1", "g1")),
            "TryingToRemoveOwnCheckerException: You are trying to remove your own checker...");
  // The original's message for an empty point is the one above, copied.
  EXPECT_EQ(thrown(s, place("g1", "e5")),
            "TryingToRemoveEmptyCheckerException: You are trying to remove your own checker...");
  // The piece it names as available is the first outside a mill in the Engine's HashMap order
  // (g1 f2 d1 g4 d2 e3 f4 d3 e4 a1 b2 c3 ...): f2 before c3.
  EXPECT_EQ(thrown(s, place("g1", "b4")),
            "TryingToRemoveCheckerInTripleException: It has been asked to remove checker in pos. "
            "b4, but in pos. f2 there is one checker available!");
  EXPECT_EQ(accepted(s, place("g1", "c3")), "g1c3");
  EXPECT_TRUE(judge_action(s, place("g1", "c3")).note.empty());
  // When every piece is in a mill, any may go.
  EXPECT_EQ(accepted(position("a1 d1", "b2 b4 b6", 7, 6), place("g1", "b4")), "g1b4");
}

TEST(MulinoJudge, MovingChecksInTheEnginesOrder) {
  const auto k = ActionKind::Phase2;
  const State s = position("a1 d1 d2 b4 f4", "g1 g4 d3 c4 e4", 0, 0);
  EXPECT_EQ(thrown(s, slide(k, {}, "a4")), "WrongPositionException: Position null does not exist!");
  EXPECT_EQ(thrown(s, slide(k, "", "a4")), "WrongPositionException: Position  does not exist!");
  EXPECT_EQ(thrown(s, slide(k, "q9", "a4")), "WrongPositionException: Position q9 does not exist!");
  EXPECT_EQ(thrown(s, slide(k, "g1", "g7")),
            "TryingToMoveOpponentCheckerException: You are trying to move your opponent checker: "
            "g1g7");
  EXPECT_EQ(thrown(s, slide(k, "a4", "a7")),  // an empty point is not the mover's either
            "TryingToMoveOpponentCheckerException: You are trying to move your opponent checker: "
            "a4a7");
  EXPECT_EQ(thrown(s, slide(k, "a1", {})), "WrongPositionException: Position null does not exist!");
  EXPECT_EQ(thrown(s, slide(k, "a1", "a1", "g1")),
            "FromAndToAreEqualsException: The from and to position are the same: a1a1g1");
  // Not next to it; the original's message for this exception is the one above, copied.
  EXPECT_EQ(thrown(s, slide(k, "a1", "a7")),
            "FromAndToAreNotConnectedException: The from and to position are the same: a1a7");
  // A "to" that is no point is "not connected" in this phase: adjacency is checked first.
  EXPECT_EQ(thrown(s, slide(k, "a1", "zz")),
            "FromAndToAreNotConnectedException: The from and to position are the same: a1zz");
  EXPECT_EQ(thrown(s, slide(k, "d1", "g1")), "PositionNotEmptyException: Position g1 Not Empty");
  // A removal named without a mill is ignored.
  const Judgement j = judge_action(s, slide(k, "a1", "a4", "g1"));
  ASSERT_TRUE(j) << j.reason;
  EXPECT_EQ(s.move_text(*j.move), "a1a4");
  EXPECT_NE(j.note.find("'g1' ignored: a1a4 closes no mill"), std::string::npos) << j.note;
  // d2-d3 is taken; b4 to b2 closes no mill; f4 to f2 neither.
  EXPECT_EQ(accepted(s, slide(k, "f4", "f2", "nonsense")), "f4f2");
}

TEST(MulinoJudge, AMoveThatClosesAMillNeedsItsRemoval) {
  const auto k = ActionKind::Phase2;
  // e3 to d3 closes d1 d2 d3; no Black piece is in a mill.
  const State s = position("d1 d2 e3 a7", "a1 g1 c3 g7 f6", 0, 0);
  EXPECT_EQ(thrown(s, slide(k, "e3", "d3")),
            "WrongPositionException: Position null does not exist!");
  EXPECT_EQ(accepted(s, slide(k, "e3", "d3", "a1")), "e3d3a1");
}

TEST(MulinoJudge, FlyingChecksInTheEnginesOrder) {
  const auto k = ActionKind::Final;
  // White has 3 and flies; Black has 5 and slides. The phase is FINAL for both.
  const State w = position("a1 d2 g7", "b4 c4 e4 f4 d6", 0, 0);
  EXPECT_EQ(accepted(w, slide(k, "a1", "e5", "b4")), "a1e5");
  EXPECT_NE(judge_action(w, slide(k, "a1", "e5", "b4")).note.find("'b4' ignored"),
            std::string::npos);
  // A "to" that is no point: here the position is checked first.
  EXPECT_EQ(thrown(w, slide(k, "a1", "zz")), "WrongPositionException: Position zz does not exist!");
  EXPECT_EQ(thrown(w, slide(k, "a1", "b4")), "PositionNotEmptyException: Position b4 Not Empty");
  const State b = position("a1 d2 g7", "b4 c4 e4 f4 d6", 0, 0, Side::Black);
  EXPECT_EQ(thrown(b, slide(k, "b4", "a7")),
            "FromAndToAreNotConnectedException: The from and to position are the same: b4a7");
  EXPECT_EQ(thrown(b, slide(k, "b4", "zz")), "WrongPositionException: Position zz does not exist!");
  EXPECT_EQ(accepted(b, slide(k, "b4", "b6", "g7")), "b4b6");
}

TEST(MulinoJudge, TheActionClassMustBeThePhases) {
  const Judgement j = judge_action(State::start(), slide(ActionKind::Phase2, "a1", "a4"));
  EXPECT_FALSE(j);
  EXPECT_TRUE(j.wrong_class);
  EXPECT_EQ(j.reason, "sent a Phase2Action in phase FIRST, which takes a Phase1Action");
  EXPECT_EQ(j.original_name, "System.exit(-2)");
  const State final_phase = position("a1 d2 g7", "b4 c4 e4 f4 d6", 0, 0);
  const Judgement f = judge_action(final_phase, slide(ActionKind::Phase2, "a1", "a4"));
  EXPECT_TRUE(f.wrong_class);
  EXPECT_EQ(f.original_name, "System.exit(-4)");
  EXPECT_EQ(f.original,
            "Engine was expecting PhaseFinalAction instance, but received a different action...");
}

TEST(MulinoJudge, TheActionAsTheEnginePrintedIt) {
  EXPECT_EQ(action_text(place("d7", "d1")), "d7d1");
  EXPECT_EQ(action_text(place({})), "null");
  EXPECT_EQ(action_text(slide(ActionKind::Phase2, "a1", "a4")), "a1a4");
  EXPECT_EQ(action_text(slide(ActionKind::Final, "a1", {}, "b2")), "a1nullb2");
  EXPECT_EQ(action_text(place(std::string("\x01\n", 2))), "??");
}

}  // namespace
}  // namespace arena::mulino
