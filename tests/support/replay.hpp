#pragma once
// Replays a game record's moves on a fresh position, checking each move is legal on its turn.
#include <gtest/gtest.h>

#include <memory>

#include "games/registry.hpp"
#include "referee/record.hpp"

namespace arena::testing {

// The position after the record's moves; a move that is illegal, out of turn or not in canonical
// form fails the test (and the replay stops there).
inline std::unique_ptr<AnyState> replay(const GameRecord& r, const RuleOptions& rules = {}) {
  const GameInfo* game = find_game(r.game);
  if (game == nullptr) {
    ADD_FAILURE() << "unknown game '" << r.game << "'";
    return nullptr;
  }
  auto state = game->start(rules);
  for (const MoveRecord& m : r.moves) {
    EXPECT_EQ(m.ply, state->ply() + 1) << "move " << m.move;
    EXPECT_EQ(m.side, state->side_to_move()) << "ply " << m.ply;
    const auto played = state->play(m.move);
    if (!played) {
      ADD_FAILURE() << "ply " << m.ply << ": illegal move " << m.move << ": " << played.error;
      break;
    }
    EXPECT_EQ(*played.value, m.move) << "ply " << m.ply << " is not in canonical form";
  }
  return state;
}

}  // namespace arena::testing
