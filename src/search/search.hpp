#pragma once
// The one search for every game: iterative-deepening negamax alpha-beta with principal variation
// search, aspiration windows, late-move reductions, a transposition table, TT-move / killer /
// history move ordering, a time budget, and lazy SMP (threads sharing the table).
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include "core/game.hpp"
#include "search/hooks.hpp"
#include "search/limits.hpp"
#include "search/transposition_table.hpp"

namespace arena {

inline constexpr int kWinScore = 1'000'000;
inline constexpr int kInfinity = kWinScore + 1;
inline constexpr int kMaxPly = 128;
static_assert(kInfinity + kMaxPly < (1 << 23), "the transposition table stores 24-bit scores");
inline constexpr int kDrawContempt = 50;
// Scores beyond this are won or lost games (kWinScore less the plies to the end): a search's own
// plies plus an endgame database's distance, which is capped to stay above it.
inline constexpr int kWinBound = kWinScore - 1000;
inline constexpr int kMaxDatabasePlies = kWinScore - kWinBound - kMaxPly;

// Which refinements a search uses. Aspiration windows are off, and late-move reductions are on
// only in the games that name their quiet moves (the reducible() hook): in matches at 20,000
// nodes a move the reductions won at Murus Gallicus and lost at Nine Men's Morris, even sparing
// the mills; docs/strength.md. classic() is the search Paper Soccer's course reference levels
// were graded with.
struct SearchOptions {
  int threads = 1;          // lazy SMP: helpers search the same root and share the table
  bool aspiration = false;  // root windows around the last iteration's score
  // Late moves searched one or two plies shallower first. Unset: in the games with the
  // reducible() hook; true: in every game; false: never. A game's hook always spares the moves
  // it does not call reducible.
  std::optional<bool> reductions = std::nullopt;
  bool contempt = true;    // the game's contempt (hooks.hpp); off to judge a position's balance
  bool null_moves = true;  // null-move pruning, in the games with the null_move_allowed() hook
  bool futility = true;    // reverse futility pruning, in the games with the futility_margin() hook
  bool extensions = true;  // a ply more where the game's extends() hook says a reply is forced
  static SearchOptions classic() {
    return {.threads = 1, .aspiration = false, .reductions = false, .contempt = true};
  }
};

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

  explicit Searcher(std::size_t tt_megabytes = 16, SearchOptions options = {})
      : tt_(std::make_shared<TranspositionTable>(tt_megabytes)), options_(options) {}

  // What the transposition table holds for a position: for tests, which check what a search
  // stored.
  std::optional<TtEntry> table_entry(const S& s) const { return tt_->probe(table_key(s)); }

  void clear() {
    tt_->clear();
    history_ = {};
    for (auto& h : helpers_) h->history_ = {};
  }

  Outcome search(const S& root, const SearchLimits& limits,
                 const std::function<void(const IterationInfo&)>& on_iteration = {}) {
    // Stored draw and contempt scores depend on the side the search plays for.
    if (root.side_to_move() != root_side_) tt_->clear();
    tt_->new_search();
    const int helpers = std::max(options_.threads, 1) - 1;
    while (static_cast<int>(helpers_.size()) < helpers)
      helpers_.push_back(std::unique_ptr<Searcher>(new Searcher(tt_, options_, &stop_helpers_)));
    stop_helpers_.store(false, std::memory_order_relaxed);
    std::vector<std::jthread> workers;
    SearchLimits helper_limits = limits;
    helper_limits.max_nodes.reset();  // they stop when this thread does
    for (int i = 0; i < helpers; ++i)
      workers.emplace_back([this, i, &root, &helper_limits] {
        helpers_[i]->iterate(root, helper_limits, 1 + (i + 1) % 2, {});
      });
    Outcome out = iterate(root, limits, 1, on_iteration);
    stop_helpers_.store(true, std::memory_order_relaxed);
    workers.clear();  // joins
    for (int i = 0; i < helpers; ++i) out.nodes += helpers_[i]->nodes_;
    return out;
  }

 private:
  static constexpr int kAspirationWindow = 40;
  static constexpr int kFutilityDepth = 3;  // plies left at most for reverse futility pruning

  Searcher(std::shared_ptr<TranspositionTable> tt, SearchOptions options,
           const std::atomic<bool>* stop)
      : tt_(std::move(tt)), options_(options), external_stop_(stop) {}

  // Iterative deepening from `first_depth` (helpers start at 1 or 2, so that they are not all
  // on the same iteration as the main thread).
  Outcome iterate(const S& root, const SearchLimits& limits, int first_depth,
                  const std::function<void(const IterationInfo&)>& on_iteration) {
    Deadline deadline(limits.time);
    deadline_ = &deadline;
    max_nodes_ = limits.max_nodes.value_or(std::numeric_limits<std::uint64_t>::max());
    nodes_ = 0;
    stopped_ = false;
    killers_ = {};
    root_side_ = root.side_to_move();

    Outcome out;
    MoveList<Move, S::kMaxMoves> moves;
    root.legal_moves(moves);
    if (root.result().over() || moves.empty()) return out;
    out.has_move = true;
    out.best = moves[0];

    const int max_depth =
        limits.max_depth.value_or(limits.time || limits.max_nodes ? kMaxPly - 1 : 6);
    for (int depth = std::min(first_depth, max_depth); depth <= std::min(max_depth, kMaxPly - 1);
         ++depth) {
      Move best = out.best;
      const int score = search_with_window(root, moves, depth, out.score, best);
      if (root_move_done_) {  // at least the first (previous best) move was searched fully
        out.best = best;
      }
      if (stopped_) break;
      out.score = score;
      out.depth = depth;
      if (on_iteration) on_iteration({depth, score, nodes_, deadline.elapsed()});
      if (std::abs(score) >= kWinBound) break;  // a forced result: deeper adds nothing
      // Another iteration whenever time is left: an unfinished one still counts (the previous
      // best is searched first and replaced only by a fully searched better move), and a move's
      // time cannot be saved for later. (Predicting whether half the next iteration fits left
      // Morris at depth 15 after 568 ms of 900, where depth 18 saw a blockade.)
      if (deadline.expired()) break;
    }
    out.nodes = nodes_;
    out.elapsed = deadline.elapsed();
    deadline_ = nullptr;
    return out;
  }

  // From depth 4 on, the root is first searched in a window around the last score; a score at
  // or outside the window widens it (four times per miss) and searches again.
  int search_with_window(const S& root, MoveList<Move, S::kMaxMoves>& moves, int depth,
                         int last_score, Move& best) {
    if (!options_.aspiration || depth < 4 || std::abs(last_score) >= kWinBound)
      return search_root(root, moves, depth, -kInfinity, kInfinity, best);
    int delta = kAspirationWindow;
    int alpha = std::max(last_score - delta, -kInfinity);
    int beta = std::min(last_score + delta, kInfinity);
    for (;;) {
      const int score = search_root(root, moves, depth, alpha, beta, best);
      if (stopped_) return score;
      delta *= 4;
      if (score <= alpha && alpha > -kInfinity)
        alpha = std::max(score - delta, -kInfinity);
      else if (score >= beta && beta < kInfinity)
        beta = std::min(score + delta, kInfinity);
      else
        return score;
    }
  }

  std::shared_ptr<TranspositionTable> tt_;
  SearchOptions options_;
  const std::atomic<bool>* external_stop_ = nullptr;  // a helper's: the main thread has finished
  std::atomic<bool> stop_helpers_{false};
  std::vector<std::unique_ptr<Searcher>> helpers_;
  const Deadline* deadline_ = nullptr;
  std::uint64_t nodes_ = 0;
  std::uint64_t max_nodes_ = 0;
  bool stopped_ = false;
  bool root_move_done_ = false;
  int root_depth_ = 0;  // the iteration's: extensions stop at twice it from the root
  Side root_side_ = Side::White;
  std::array<std::array<std::uint32_t, 2>, kMaxPly> killers_{};
  std::array<std::array<std::int32_t, 4096>, 2> history_{};
  // Games with a repetition rule: the positions on the path from the root (table keys), and the
  // lowest ply whose position a repetition below the current node repeated.
  std::array<std::uint64_t, kMaxPly + 1> path_keys_{};
  int repeated_ply_ = kMaxPly;

  // Draws count slightly against the side the search plays for ("contempt"): against a weaker
  // opponent a game that goes on is worth more than a draw taken early.
  int draw_score(const S& s) const { return for_root_side(s, -kDrawContempt); }
  // The game's evaluation from the side to move's view, with its contempt for the side the
  // search plays for.
  int static_eval(const S& s) const {
    int score = evaluate(s);
    if constexpr (HasContempt<S>) {
      if (options_.contempt) score += for_root_side(s, contempt(s));
    }
    return score;
  }
  // A value for the side the search plays for, from the side to move's view.
  int for_root_side(const S& s, int value) const {
    return s.side_to_move() == root_side_ ? value : -value;
  }
  // A decided game, from the side to move's view: the sooner a win, the better.
  static int decided_score(bool mover_wins, int plies_to_end) {
    return mover_wins ? kWinScore - plies_to_end : -(kWinScore - plies_to_end);
  }

  int terminal_score(const S& s, const Result& r, int ply) const {
    if (r.outcome == arena::Outcome::Draw) return draw_score(s);
    return decided_score(
        (r.outcome == arena::Outcome::WhiteWins) == (s.side_to_move() == Side::White), ply);
  }

  int database_score(const S& s, const EndgameValue& v, int ply) const {
    if (v.kind == EndgameValue::Kind::Draw) return draw_score(s);
    return decided_score(v.kind == EndgameValue::Kind::Win,
                         ply + std::min(v.plies, kMaxDatabasePlies));
  }

  // Past the nominal depth, only the noisy moves are searched, and the side to move may stand
  // on the evaluation instead ("stand pat"), so a pending capture is never left unseen.
  int quiescence(const S& s, int alpha, int beta, int ply) {
    ++nodes_;
    if (should_stop()) return 0;
    const Result r = s.result();
    if (r.over()) return terminal_score(s, r, ply);
    int best = static_eval(s);
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
    if ((nodes_ & 255) == 0 &&
        (deadline_->expired() ||
         (external_stop_ && external_stop_->load(std::memory_order_relaxed))))
      stopped_ = true;
    if (nodes_ >= max_nodes_) stopped_ = true;
    return stopped_;
  }

  // Orders moves in place: TT move, then captures (where the game names them), then killers,
  // then by history score.
  void order(const S& s, MoveList<Move, S::kMaxMoves>& moves, std::uint32_t tt_move, int ply) {
    const Side side = s.side_to_move();
    std::array<std::int64_t, S::kMaxMoves> score{};
    for (std::size_t i = 0; i < moves.size(); ++i) {
      const std::uint32_t k = moves[i].key();
      bool capture = false;
      if constexpr (HasCaptures<S>) capture = captures(s, moves[i]);
      if (k == tt_move)
        score[i] = std::int64_t{1} << 40;
      else if (capture)
        score[i] = (std::int64_t{1} << 39) + history_[index(side)][k & 4095];
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

  int search_root(const S& root, MoveList<Move, S::kMaxMoves>& moves, int depth, int alpha,
                  const int beta, Move& best) {
    root_move_done_ = false;
    root_depth_ = depth;
    const int alpha_in = alpha;
    const std::uint64_t key = table_key(root);
    repeated_ply_ = kMaxPly;
    path_keys_[0] = key;
    const auto e = tt_->probe(key);
    order(root, moves, e ? e->move_key : best.key(), 0);
    int best_score = -kInfinity;
    for (std::size_t i = 0; i < moves.size(); ++i) {
      S child = root;
      child.apply(moves[i]);
      int score;
      if (i == 0) {
        score = search_child(root, child, depth, alpha, beta, 0);
      } else {
        score = search_child(root, child, depth, alpha, alpha + 1, 0);
        if (!stopped_ && score > alpha && score < beta)
          score = search_child(root, child, depth, alpha, beta, 0);
      }
      if (stopped_) break;
      root_move_done_ = true;
      if (score > best_score) best_score = score;
      if (score > alpha) {
        alpha = score;
        best = moves[i];
      }
      if (alpha >= beta) break;
    }
    if (!stopped_)
      tt_->store(key, depth, best_score, stored_bound(best_score, alpha_in, beta, 0), best.key());
    return best_score;
  }

  static Bound bound_of(int score, int alpha_in, int beta) {
    return score >= beta ? Bound::Lower : score > alpha_in ? Bound::Exact : Bound::Upper;
  }
  // What the table may say of a node's score: its bound, or nothing (only its move) where a
  // repetition of a position above the node decided it: by another path it is no draw.
  Bound stored_bound(int score, int alpha_in, int beta, int ply) const {
    if constexpr (HasRepetitionRule<S>) {
      if (repeated_ply_ < ply) return Bound::None;
    }
    return bound_of(score, alpha_in, beta);
  }

  static std::uint64_t table_key(const S& s) {
    if constexpr (HasRepetitionRule<S>)
      return s.position_hash();
    else
      return s.hash();
  }
  // Whether a stored score may stand for this node. In a game with a repetition rule, a score
  // from an earlier search did not know the positions the game has seen since; where those may
  // still repeat below this node (no irreversible move since the root, and the game has seen
  // positions before the root), only its move is used.
  static bool may_reuse(const S& s, const TtEntry& e, int ply) {
    if constexpr (HasRepetitionRule<S>) {
      if (!e.current && s.history_size() > static_cast<std::size_t>(ply) + 1) return false;
    }
    return true;
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

  // A node; in a game with a repetition rule, it also tracks how far up the path a repetition
  // below the node reached (repeated_ply_), for stored_bound().
  int negamax(const S& s, int depth, int alpha, int beta, int ply, bool allow_null = true) {
    if constexpr (HasRepetitionRule<S>) {
      const int outer = repeated_ply_;
      repeated_ply_ = kMaxPly;
      path_keys_[ply] = s.position_hash();
      const int score = node(s, depth, alpha, beta, ply, allow_null);
      repeated_ply_ = std::min(outer, repeated_ply_);
      return score;
    } else {
      return node(s, depth, alpha, beta, ply, allow_null);
    }
  }

  // The ply of the path where the position at `ply` occurred last before (-1: before the root).
  int earlier_occurrence(int ply) const {
    for (int q = ply - 1; q >= 0; --q)
      if (path_keys_[q] == path_keys_[ply]) return q;
    return -1;
  }

  int node(const S& s, int depth, int alpha, int beta, int ply, bool allow_null) {
    ++nodes_;
    if (should_stop()) return 0;
    const Result r = s.result();
    if (r.over()) {
      if constexpr (HasRepetitionRule<S>) {
        if (s.repeated()) repeated_ply_ = std::min(repeated_ply_, earlier_occurrence(ply));
      }
      return terminal_score(s, r, ply);
    }
    if constexpr (HasEndgameTables<S>) {
      if (ply > 0) {
        if (const auto known = probe_endgame(s)) return database_score(s, *known, ply);
      }
    }
    if (depth <= 0 || ply >= kMaxPly - 1) {
      if constexpr (HasNoisyMoves<S>) return quiescence(s, alpha, beta, ply);
      return static_eval(s);
    }

    const int alpha_in = alpha;
    const std::uint64_t key = table_key(s);
    std::uint32_t tt_move = std::numeric_limits<std::uint32_t>::max();
    if (const auto e = tt_->probe(key)) {
      tt_move = e->move_key;
      if (e->depth >= depth && may_reuse(s, *e, ply)) {
        const int score = from_tt(e->score, ply);
        if (e->bound == Bound::Exact) return score;
        if (e->bound == Bound::Lower && score >= beta) return score;
        if (e->bound == Bound::Upper && score <= alpha) return score;
      }
    }

    if constexpr (HasFutilityMargin<S>) {
      if (const auto score = futility_cut(s, depth, alpha, beta, ply)) return *score;
    }

    if constexpr (HasNullMove<S>) {
      if (allow_null && beta - alpha == 1) {
        if (const auto score = null_move_cut(s, depth, beta, ply)) return *score;
      }
    }

    MoveList<Move, S::kMaxMoves> moves;
    s.legal_moves(moves);
    order(s, moves, tt_move, ply);
    int best_score = -kInfinity;
    std::uint32_t best_key = moves.empty() ? 0 : moves[0].key();
    for (std::size_t i = 0; i < moves.size(); ++i) {
      S child = s;
      child.apply(moves[i]);
      const int child_depth = depth + extension(s, moves[i], ply);
      int score;
      if (i == 0) {
        score = search_child(s, child, child_depth, alpha, beta, ply);
      } else {
        const int r = reduction(s, child, child_depth, i, moves[i], ply);
        score =
            r > 0 ? -negamax(child, child_depth - 1 - r, -alpha - 1, -alpha, ply + 1) : alpha + 1;
        if (!stopped_ && score > alpha)
          score = search_child(s, child, child_depth, alpha, alpha + 1, ply);
        if (!stopped_ && score > alpha && score < beta)
          score = search_child(s, child, child_depth, alpha, beta, ply);
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
        // The cut-off move gains in the history; the moves tried before it, which did not
        // cut off, lose as much.
        auto& history = history_[index(s.side_to_move())];
        const int bonus = depth * depth;
        auto& h = history[k & 4095];
        h = std::min(h + bonus, 1 << 30);
        for (std::size_t j = 0; j < i; ++j) {
          auto& miss = history[moves[j].key() & 4095];
          miss = std::max(miss - bonus, -(1 << 30));
        }
        break;
      }
    }
    tt_->store(key, depth, to_tt(best_score, ply), stored_bound(best_score, alpha_in, beta, ply),
               best_key);
    return best_score;
  }

  // Reverse futility pruning: near the leaves, away from the principal variation, a side to move
  // whose static evaluation stands above beta by more than the game's margin for each ply left
  // is cut off unsearched: no reply in those plies is likely to bring it down. Never on decided
  // scores, never where the game gives no margin.
  std::optional<int> futility_cut(const S& s, int depth, int alpha, int beta, int ply) {
    if (!options_.futility || depth > kFutilityDepth || ply == 0 || beta - alpha != 1 ||
        std::abs(beta) >= kWinBound)
      return std::nullopt;
    const int margin = futility_margin(s);
    if (margin <= 0) return std::nullopt;
    const int eval = static_eval(s);
    if (eval - margin * depth < beta) return std::nullopt;
    return eval;
  }

  // Null-move pruning, away from the principal variation: when the side to move, standing at or
  // above beta, would still be there after passing (searched R + 1 plies shallower), a move can
  // only do better, so the node fails high. Never on decided scores, never twice in a row.
  std::optional<int> null_move_cut(const S& s, int depth, int beta, int ply) {
    if (!options_.null_moves || depth < 3 || ply == 0 || std::abs(beta) >= kWinBound ||
        !null_move_allowed(s))
      return std::nullopt;
    if (static_eval(s) < beta) return std::nullopt;
    S passed = s;
    passed.pass();
    const int r = depth >= 7 ? 3 : 2;
    const int score = -negamax(passed, depth - 1 - r, -beta, -beta + 1, ply + 1, false);
    if (stopped_ || score < beta) return std::nullopt;
    return score >= kWinBound ? beta : score;
  }

  // A ply more for a move the game calls forced (hooks.hpp), within twice the iteration's depth.
  int extension(const S& s, const Move& move, int ply) const {
    if constexpr (HasExtensions<S>) {
      if (options_.extensions && ply < 2 * root_depth_ && extends(s, move)) return 1;
    }
    return 0;
  }

  // Late-move reductions: after the TT move and the killers, moves the ordering puts late are
  // probably worse; they are tried one ply shallower (two when very late and deep) with a null
  // window, and searched at full depth only if they beat alpha. Not within a multi-step turn.
  int reduction(const S& s, const S& child, int depth, std::size_t i, const Move& move,
                int ply) const {
    if (!options_.reductions.value_or(HasReducibleMoves<S>) || depth < 3 || i < 3) return 0;
    if constexpr (HasReducibleMoves<S>) {
      if (!reducible(s, move)) return 0;
    }
    if (child.side_to_move() == s.side_to_move()) return 0;
    const std::uint32_t key = move.key();
    if (key == killers_[ply][0] || key == killers_[ply][1]) return 0;
    return depth >= 6 && i >= 8 ? 2 : 1;
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
