#include "games/soccer/forcing_line.hpp"

#include <algorithm>

#include "games/soccer/eval.hpp"
#include "games/soccer/eval_after_turn.hpp"
#include "games/soccer/value_net.hpp"

namespace arena::soccer {
namespace {

bool won_by(const State& over, Side side) {
  return over.result().outcome == win_for(side);
}

}  // namespace

ForcingLines::ForcingLines(ForcingLimits limits) : limits_(limits) {
  limits_.depth = std::clamp(limits_.depth, 1, 16);
  limits_.max_safe_replies = std::clamp(limits_.max_safe_replies, 0, 8);
  limits_.first_from = std::max(limits_.first_from, 0);
  const auto levels = static_cast<std::size_t>(limits_.depth);
  ours_.resize(levels);
  theirs_.resize(levels);
  safe_.resize(levels);
  conceding_.resize(levels);
  order_.resize(levels);
}

bool ForcingLines::forces_win(const State& s, std::int64_t budget) {
  return winning_turn(s, budget).has_value();
}

std::optional<int> ForcingLines::winning_turn(const State& s, std::int64_t budget) {
  budget_ = budget;
  listings_ = 0;
  if (s.over()) return std::nullopt;
  const int turn = forcing_turn(s, limits_.depth, 0);
  if (turn < 0) return std::nullopt;
  return turn;
}

bool ForcingLines::spend() {
  if (budget_ <= 0) return false;
  --budget_;
  ++listings_;
  return true;
}

bool ForcingLines::scores_at_once(const State& s) {
  if (!spend()) return false;
  // A reachable goal is among the first turns listed (the shortest turn to each end point).
  scratch_.list_first(s, limits_.turns, 1);
  const Side mover = s.side_to_move();
  for (int i = 0; i < scratch_.size(); ++i)
    if (scratch_.after(i).over() && won_by(scratch_.after(i), mover)) return true;
  return false;
}

int ForcingLines::forcing_turn(const State& s, int depth, int level) {
  if (!spend()) return -1;
  TurnOptions& ours = ours_[static_cast<std::size_t>(level)];
  ours.list(s, level == 0 && limits_.first_turns ? *limits_.first_turns : limits_.turns);
  const Side us = s.side_to_move();
  for (int i = 0; i < ours.size(); ++i)  // a goal is the only turn listed when there is one
    if (ours.after(i).over() && won_by(ours.after(i), us)) return i;
  if (depth <= 1) return -1;

  // The turns that leave the opponent worst off by the evaluation first: a forcing turn is one
  // after which it has almost nothing.
  std::vector<std::pair<double, int>>& order = order_[static_cast<std::size_t>(level)];
  order.clear();
  const AfterTurnEvaluator before(s);
  for (int i = level == 0 ? limits_.first_from : 0; i < ours.size(); ++i)
    if (!ours.after(i).over())
      order.emplace_back(-turn_eval(ours.after(i), us, before, ours.steps(i)), i);
  std::stable_sort(order.begin(), order.end());
  TurnOptions& theirs = theirs_[static_cast<std::size_t>(level)];
  std::vector<int>& safe = safe_[static_cast<std::size_t>(level)];
  std::vector<int>& conceding = conceding_[static_cast<std::size_t>(level)];
  const std::size_t max_safe = static_cast<std::size_t>(limits_.max_safe_replies);
  for (const auto& entry : order) {
    const int i = entry.second;
    const State& after = ours.after(i);
    if (!spend()) return -1;
    theirs.list(after, limits_.turns);
    if (!theirs.complete()) continue;  // a reply not listed might be safe
    const Side them = after.side_to_move();
    const AfterTurnEvaluator evaluator(after);
    safe.clear();
    conceding.clear();
    bool they_score = false;
    for (int j = 0; j < theirs.size() && safe.size() <= max_safe; ++j) {
      const State& reply = theirs.after(j);
      if (reply.over()) {  // their goal (then the only turn listed), or a turn that loses
        they_score = won_by(reply, them);
        if (they_score) break;
        continue;
      }
      // Our goal in reach after the reply is exactly -kGoalThreat for them.
      if (turn_eval(reply, them, evaluator, theirs.steps(j)) > -kGoalThreat * 3 / 4)
        safe.push_back(j);
      else
        conceding.push_back(j);
    }
    if (they_score || safe.size() > max_safe) continue;
    // The evaluation's flood is optimistic (it ignores the segments a bounce chain uses up): a
    // reply it calls conceding is listed before it counts as one.
    for (std::size_t k = 0; k < conceding.size() && safe.size() <= max_safe; ++k)
      if (!scores_at_once(theirs.after(conceding[k]))) safe.push_back(conceding[k]);
    if (budget_ <= 0) return -1;  // a reply checked without budget counted as safe: unsure
    if (safe.size() > max_safe) continue;
    bool all_forced = true;
    for (int j : safe) {
      if (forcing_turn(theirs.after(j), depth - 1, level + 1) < 0) {
        all_forced = false;
        break;
      }
    }
    if (all_forced) return i;
    if (budget_ <= 0) return -1;
  }
  return -1;
}

}  // namespace arena::soccer
