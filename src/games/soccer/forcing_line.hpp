#pragma once
// Wins by forcing turns, what a threat-space search is to gomoku: a turn after which the opponent
// has at most one turn that does not let us score at once, then another such turn, and so on,
// then a goal.
//
// Why beside the tree search: the tree spreads its visits by priors, and a forcing line that
// starts with a quiet turn gets a few hundred of them where its proof needs tens of thousands
// (docs/strength.md: arena's 28-ply losses to jdermont, a five-turn line proven here in a few
// hundred listings). Followed only along its forcing turns, such a line is cheap to find.
//
// Exact: a win it reports holds against every reply (each reply list it relies on is complete,
// and a reply that the evaluation's optimistic flood calls conceding is checked by listing the
// turns after it). Out of budget it reports no win.
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "games/soccer/state.hpp"
#include "games/soccer/turn_options.hpp"

namespace arena::soccer {

struct ForcingLimits {
  int depth = 5;             // our turns in the line, the scoring one included
  int max_safe_replies = 1;  // the opponent's turns after which we cannot score at once
  TurnOptionLimits turns;    // how the turns are listed (the tree search's limits)
  // The first turn of the line, from a longer list when wider: the tree's list of a crowded
  // position is cut short, and the turn it leaves out may be the one that wins.
  std::optional<TurnOptionLimits> first_turns;
  // The first turn from this index of its list on (0: all): the turns before it are the tree's
  // own, which its search reads, so that a check looks only at the ones the tree cannot.
  int first_from = 0;
};

class ForcingLines {
 public:
  explicit ForcingLines(ForcingLimits limits = {});

  // Whether the side to move in `s` forces a win, spending at most `budget` turn listings (none
  // found in the budget: false).
  bool forces_win(const State& s, std::int64_t budget);
  // The index, in TurnOptions::list(s, limits.first_turns or else limits.turns), of a turn that
  // starts such a win.
  std::optional<int> winning_turn(const State& s, std::int64_t budget);

  // A turn of the list the last call's first turn came from (its index, as winning_turn gives it).
  Turn first_list_turn(int index) const { return ours_[0].turn(index); }

  std::int64_t listings() const { return listings_; }  // since the last call began

 private:
  // The first turn of `s`'s list (at `level`) that forces a win within `depth` turns, or -1.
  int forcing_turn(const State& s, int depth, int level);
  // Whether the side to move can score this turn (one listing).
  bool scores_at_once(const State& s);
  bool spend();  // one listing; false when the budget is gone

  ForcingLimits limits_;
  // Per level of the line: our turns, the opponent's replies to the turn being tried, and those
  // replies that do not concede a goal and that do (kept for their memory).
  std::vector<TurnOptions> ours_, theirs_;
  std::vector<std::vector<int>> safe_, conceding_;
  std::vector<std::vector<std::pair<double, int>>> order_;  // our turns in the order tried
  TurnOptions scratch_;
  std::int64_t budget_ = 0;
  std::int64_t listings_ = 0;
};

}  // namespace arena::soccer
