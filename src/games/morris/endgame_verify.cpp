#include "games/morris/endgame_verify.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "games/morris/endgame_index.hpp"

namespace arena::morris::endgame {

std::optional<std::string> verify_table(const Table& t, const TableSet& others) {
  const int m = t.movers(), o = t.others();
  const Table* quiet = others.find(o, m);
  const Table* captured = o > 3 ? others.find(o - 1, m) : nullptr;
  if (!quiet || (o > 3 && !captured))
    return fmt::format("table {}-{} needs tables {}-{} and {}-{}", m, o, o, m, o - 1, m);
  MoveList<Move, State::kMaxMoves> moves;
  constexpr int kNone = 1 << 20;
  for (std::uint64_t i = 0; i < t.size(); ++i) {
    const PointSets p = position_at(i, m, o);
    const State s = *State::from_position({p.movers, p.others, 0, 0, Side::White, 0}).value;
    s.legal_moves(moves);
    int best_win = kNone, longest_loss = -1;
    bool draw = false;
    for (const Move& mv : moves) {
      const Points after = (p.movers & ~point_bit(mv.from)) | point_bit(mv.to);
      EndgameValue v{EndgameValue::Kind::Loss, 0};  // the other side dropped to 2 pieces
      if (mv.remove == kNoPoint) {
        v = decode((*quiet)[position_index(p.others, after)]);
      } else if (o > 3) {
        v = decode((*captured)[position_index(p.others & ~point_bit(mv.remove), after)]);
      }
      if (v.kind == EndgameValue::Kind::Loss) best_win = std::min(best_win, v.plies + 1);
      if (v.kind == EndgameValue::Kind::Draw) draw = true;
      if (v.kind == EndgameValue::Kind::Win) longest_loss = std::max(longest_loss, v.plies + 1);
    }
    EndgameValue want{EndgameValue::Kind::Draw, 0};
    if (best_win != kNone) {
      want = {EndgameValue::Kind::Win, best_win};
    } else if (!draw) {
      want = {EndgameValue::Kind::Loss, std::max(longest_loss, 0)};
    }
    const EndgameValue got = decode(t[i]);
    if (got.kind != want.kind || got.plies != want.plies)
      return fmt::format("table {}-{} entry {}: holds {} {}, its moves give {} {}", m, o, i,
                         static_cast<int>(got.kind), got.plies, static_cast<int>(want.kind),
                         want.plies);
  }
  return std::nullopt;
}

}  // namespace arena::morris::endgame
