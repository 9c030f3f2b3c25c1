#pragma once
// The one search for every game: iterative-deepening negamax alpha-beta with principal variation
// search, a transposition table, TT-move / killer / history move ordering and a time budget.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <limits>

#include "core/game.hpp"
#include "search/hooks.hpp"
#include "search/limits.hpp"
#include "search/transposition_table.hpp"

namespace arena {

inline constexpr int kWinScore = 1'000'000;
inline constexpr int kInfinity = kWinScore + 1;
inline constexpr int kMaxPly = 128;
inline constexpr int kDrawContempt = 50;
// Scores beyond this are won or lost games (kWinScore less the plies to the end): a search's own
// plies plus an endgame database's distance, which is capped to stay above it.
inline constexpr int kWinBound = kWinScore - 1000;
inline constexpr int kMaxDatabasePlies = kWinScore - kWinBound - kMaxPly;

struct IterationInfo {
  int depth = 0;
  int score = 0;
  std::uint64_t nodes = 0;
  std::chrono::milliseconds elapsed{0};
};

template <SearchableGame S>
class Searcher {
 public:
  using Move = typename S::Move;

  struct Outcome {
    bool has_move = false;
    Move best{};
    int score = 0;
    int depth = 0;  // deepest completed iteration
    std::uint64_t nodes = 0;
    std::chrono::milliseconds elapsed{0};
  };

  explicit Searcher(std::size_t tt_megabytes = 16) : tt_(tt_megabytes) {}

  void clear() {
    tt_.clear();
    history_ = {};
  }

  Outcome search(const S& root, const SearchLimits& limits,
                 const std::function<void(const IterationInfo&)>& on_iteration = {}) {
    Deadline deadline(limits.time);
    deadline_ = &deadline;
    max_nodes_ = limits.max_nodes.value_or(std::numeric_limits<std::uint64_t>::max());
    nodes_ = 0;
    stopped_ = false;
    killers_ = {};
    tt_.new_search();
    if (root.side_to_move() != root_side_) tt_.clear();  // stored draw scores depend on the side
    root_side_ = root.side_to_move();

    Outcome out;
    MoveList<Move, S::kMaxMoves> moves;
    root.legal_moves(moves);
    if (root.result().over() || moves.empty()) return out;
    out.has_move = true;
    out.best = moves[0];

    const int max_depth =
        limits.max_depth.value_or(limits.time || limits.max_nodes ? kMaxPly - 1 : 6);
    Deadline::Clock::duration last_iteration{0}, previous_iteration{0};
    for (int depth = 1; depth <= std::min(max_depth, kMaxPly - 1); ++depth) {
      const auto iteration_start = deadline.since_start();
      Move best = out.best;
      const int score = search_root(root, moves, depth, best);
      if (root_move_done_) {  // at least the first (previous best) move was searched fully
        out.best = best;
      }
      if (stopped_) break;
      out.score = score;
      out.depth = depth;
      if (on_iteration) on_iteration({depth, score, nodes_, deadline.elapsed()});
      if (std::abs(score) >= kWinBound) break;  // a forced result: deeper adds nothing
      previous_iteration = last_iteration;
      last_iteration = deadline.since_start() - iteration_start;
      if (const auto budget = deadline.budget()) {
        using Ms = std::chrono::duration<double, std::milli>;
        if (!start_next_iteration(Ms(deadline.since_start()).count(), Ms(*budget).count(),
                                  Ms(last_iteration).count(), Ms(previous_iteration).count()))
          break;
      }
    }
    out.nodes = nodes_;
    out.elapsed = deadline.elapsed();
    deadline_ = nullptr;
    return out;
  }

 private:
  TranspositionTable tt_;
  const Deadline* deadline_ = nullptr;
  std::uint64_t nodes_ = 0;
  std::uint64_t max_nodes_ = 0;
  bool stopped_ = false;
  bool root_move_done_ = false;
  Side root_side_ = Side::White;
  std::array<std::array<std::uint32_t, 2>, kMaxPly> killers_{};
  std::array<std::array<std::int32_t, 4096>, 2> history_{};

  // Draws count slightly against the side the search plays for ("contempt"): against a weaker
  // opponent a game that goes on is worth more than a draw taken early.
  int terminal_score(const S& s, const Result& r, int ply) const {
    if (r.outcome == arena::Outcome::Draw)
      return s.side_to_move() == root_side_ ? -kDrawContempt : kDrawContempt;
    const bool mover_wins =
        (r.outcome == arena::Outcome::WhiteWins) == (s.side_to_move() == Side::White);
    return mover_wins ? kWinScore - ply : -(kWinScore - ply);
  }

  int database_score(const S& s, const EndgameValue& v, int ply) const {
    if (v.kind == EndgameValue::Kind::Draw)
      return s.side_to_move() == root_side_ ? -kDrawContempt : kDrawContempt;
    const int to_end = ply + std::min(v.plies, kMaxDatabasePlies);
    return v.kind == EndgameValue::Kind::Win ? kWinScore - to_end : -(kWinScore - to_end);
  }

  // Past the nominal depth, only the noisy moves are searched, and the side to move may stand
  // on the evaluation instead ("stand pat"), so a pending capture is never left unseen.
  int quiescence(const S& s, int alpha, int beta, int ply) {
    ++nodes_;
    if (should_stop()) return 0;
    const Result r = s.result();
    if (r.over()) return terminal_score(s, r, ply);
    int best = evaluate(s);
    if (best >= beta || ply >= kMaxPly - 1) return best;
    if (best > alpha) alpha = best;
    MoveList<Move, S::kMaxMoves> moves;
    s.noisy_moves(moves);
    for (std::size_t i = 0; i < moves.size(); ++i) {
      S child = s;
      child.apply(moves[i]);
      const int score = -quiescence(child, -beta, -alpha, ply + 1);
      if (stopped_) return 0;
      if (score > best) best = score;
      if (score > alpha) alpha = score;
      if (alpha >= beta) break;
    }
    return best;
  }

  bool should_stop() {
    if ((nodes_ & 255) == 0 && deadline_->expired()) stopped_ = true;
    if (nodes_ >= max_nodes_) stopped_ = true;
    return stopped_;
  }

  // Orders moves in place: TT move, then killers, then by history score.
  void order(MoveList<Move, S::kMaxMoves>& moves, std::uint32_t tt_move, int ply, Side side) {
    std::array<std::int64_t, S::kMaxMoves> score{};
    for (std::size_t i = 0; i < moves.size(); ++i) {
      const std::uint32_t k = moves[i].key();
      if (k == tt_move)
        score[i] = std::int64_t{1} << 40;
      else if (k == killers_[ply][0])
        score[i] = std::int64_t{1} << 38;
      else if (k == killers_[ply][1])
        score[i] = std::int64_t{1} << 37;
      else
        score[i] = history_[index(side)][k & 4095];
    }
    // Insertion sort, stable: equal scores keep the generator's order (deterministic).
    for (std::size_t i = 1; i < moves.size(); ++i) {
      const Move m = moves[i];
      const std::int64_t sc = score[i];
      std::size_t j = i;
      for (; j > 0 && score[j - 1] < sc; --j) {
        moves[j] = moves[j - 1];
        score[j] = score[j - 1];
      }
      moves[j] = m;
      score[j] = sc;
    }
  }

  int search_root(const S& root, MoveList<Move, S::kMaxMoves>& moves, int depth, Move& best) {
    root_move_done_ = false;
    const TtEntry* e = tt_.probe(root.hash());
    order(moves, e ? e->move_key : best.key(), 0, root.side_to_move());
    int alpha = -kInfinity;
    const int beta = kInfinity;
    for (std::size_t i = 0; i < moves.size(); ++i) {
      S child = root;
      child.apply(moves[i]);
      int score;
      if (i == 0) {
        score = search_child(root, child, depth, alpha, beta, 0);
      } else {
        score = search_child(root, child, depth, alpha, alpha + 1, 0);
        if (!stopped_ && score > alpha) score = search_child(root, child, depth, alpha, beta, 0);
      }
      if (stopped_) break;
      root_move_done_ = true;
      if (score > alpha) {
        alpha = score;
        best = moves[i];
      }
    }
    if (!stopped_) tt_.store(root.hash(), depth, alpha, Bound::Exact, best.key());
    return alpha;
  }

  // The child's score from the parent's side, in the window (alpha, beta). Usually the other side
  // moves next: negate, swap the window, one ply less. In games where a turn is several moves
  // (Paper Soccer's bounces) the same side may move again: then the score, the window and the
  // depth stay (depth counts turns; every turn ends, so the recursion does too).
  int search_child(const S& parent, const S& child, int depth, int alpha, int beta, int ply) {
    if (child.side_to_move() == parent.side_to_move())
      return negamax(child, depth, alpha, beta, ply + 1);
    return -negamax(child, depth - 1, -beta, -alpha, ply + 1);
  }

  int negamax(const S& s, int depth, int alpha, int beta, int ply) {
    ++nodes_;
    if (should_stop()) return 0;
    const Result r = s.result();
    if (r.over()) return terminal_score(s, r, ply);
    if constexpr (HasEndgameTables<S>) {
      if (ply > 0) {
        if (const auto known = probe_endgame(s)) return database_score(s, *known, ply);
      }
    }
    if (depth <= 0 || ply >= kMaxPly - 1) {
      if constexpr (HasNoisyMoves<S>) return quiescence(s, alpha, beta, ply);
      return evaluate(s);
    }

    const int alpha_in = alpha;
    std::uint32_t tt_move = std::numeric_limits<std::uint32_t>::max();
    if (const TtEntry* e = tt_.probe(s.hash())) {
      tt_move = e->move_key;
      if (e->depth >= depth) {
        const int score = from_tt(e->score, ply);
        if (e->bound == Bound::Exact) return score;
        if (e->bound == Bound::Lower && score >= beta) return score;
        if (e->bound == Bound::Upper && score <= alpha) return score;
      }
    }

    MoveList<Move, S::kMaxMoves> moves;
    s.legal_moves(moves);
    order(moves, tt_move, ply, s.side_to_move());
    int best_score = -kInfinity;
    std::uint32_t best_key = moves.empty() ? 0 : moves[0].key();
    for (std::size_t i = 0; i < moves.size(); ++i) {
      S child = s;
      child.apply(moves[i]);
      int score;
      if (i == 0) {
        score = search_child(s, child, depth, alpha, beta, ply);
      } else {
        score = search_child(s, child, depth, alpha, alpha + 1, ply);
        if (!stopped_ && score > alpha && score < beta)
          score = search_child(s, child, depth, alpha, beta, ply);
      }
      if (stopped_) return 0;
      if (score > best_score) {
        best_score = score;
        best_key = moves[i].key();
      }
      if (score > alpha) alpha = score;
      if (alpha >= beta) {
        const std::uint32_t k = moves[i].key();
        if (k != killers_[ply][0]) {
          killers_[ply][1] = killers_[ply][0];
          killers_[ply][0] = k;
        }
        auto& h = history_[index(s.side_to_move())][k & 4095];
        h = std::min(h + depth * depth, 1 << 30);
        break;
      }
    }
    const Bound bound = best_score >= beta      ? Bound::Lower
                        : best_score > alpha_in ? Bound::Exact
                                                : Bound::Upper;
    tt_.store(s.hash(), depth, to_tt(best_score, ply), bound, best_key);
    return best_score;
  }

  // Win scores are stored relative to the node, so they stay right when reached by another path.
  static int to_tt(int score, int ply) {
    if (score >= kWinBound) return score + ply;
    if (score <= -kWinBound) return score - ply;
    return score;
  }
  static int from_tt(int score, int ply) {
    if (score >= kWinBound) return score - ply;
    if (score <= -kWinBound) return score + ply;
    return score;
  }
};

}  // namespace arena
