#pragma once
// The built-in players, written once for every game: engine (the shared search), one-ply greedy
// and uniform random.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <memory>

#include "core/memory_limit.hpp"
#include "core/rng.hpp"
#include "search/player.hpp"
#include "search/search.hpp"
#include "search/table_size.hpp"

namespace arena {

template <SearchableGame S>
class RandomPlayer final : public Player {
 public:
  explicit RandomPlayer(std::uint64_t seed) : rng_(seed) {}
  std::string name() const override { return "random"; }
  std::string choose(const AnyState& state) override {
    const S& s = typed_state<S>(state);
    MoveList<typename S::Move, S::kMaxMoves> moves;
    s.legal_moves(moves);
    return s.move_text(moves[rng_.below(moves.size())]);
  }

 private:
  Rng rng_;
};

// Plays the move whose resulting position evaluates best; ties broken at random.
template <SearchableGame S>
class GreedyPlayer final : public Player {
 public:
  explicit GreedyPlayer(std::uint64_t seed) : rng_(seed) {}
  std::string name() const override { return "greedy"; }
  std::string choose(const AnyState& state) override {
    const S& s = typed_state<S>(state);
    MoveList<typename S::Move, S::kMaxMoves> moves;
    s.legal_moves(moves);
    int best = -kInfinity;
    std::vector<typename S::Move> ties;
    for (const auto& m : moves) {
      S child = s;
      child.apply(m);
      const int score = value_for_mover(s.side_to_move(), child);
      if (score > best) {
        best = score;
        ties.clear();
      }
      if (score == best) ties.push_back(m);
    }
    return s.move_text(ties[rng_.below(ties.size())]);
  }

 private:
  Rng rng_;

  static int value_for_mover(Side mover, const S& child) {
    const Result r = child.result();
    if (r.outcome == Outcome::Draw) return 0;
    if (r.over()) return (r.outcome == win_for(mover)) ? kWinScore : -kWinScore;
    return -evaluate(child);
  }
};

template <SearchableGame S>
class EnginePlayer final : public Player {
 public:
  explicit EnginePlayer(const PlayerSpec& spec)
      : spec_(spec),
        level_(engine_level(spec.level)),
        searcher_(engine_table_mb(spec, process_memory_limit()),
                  SearchOptions{.threads = std::max(spec.threads, 1), .contempt = spec.contempt}),
        rng_(spec.seed) {
    if constexpr (HasEndgameLoading<S>) load_endgame_tables(std::type_identity<S>{});
  }
  std::string name() const override {
    std::string name = "engine";
    if (spec_.level > 0) name += fmt::format(" level {}", spec_.level);
    if (spec_.depth > 0) name += fmt::format(" depth {}", spec_.depth);
    if (spec_.nodes > 0) name += fmt::format(" nodes {}", spec_.nodes);
    if (spec_.threads > 1) name += fmt::format(" threads {}", spec_.threads);
    if (spec_.table_mb > 0) name += fmt::format(" table {}", spec_.table_mb);
    return name == "engine" ? name : "engine(" + name.substr(7) + ")";
  }
  std::string choose(const AnyState& state) override {
    const S& s = typed_state<S>(state);
    if (level_.random_percent > 0 &&
        rng_.below(100) < static_cast<std::uint64_t>(level_.random_percent)) {
      MoveList<typename S::Move, S::kMaxMoves> moves;
      s.legal_moves(moves);
      info_ = "random move (level)";
      summary_.reset();
      return s.move_text(moves[rng_.below(moves.size())]);
    }
    if constexpr (HasEngineBook<S>) {
      if (plays_by_book(spec_)) {
        if (const auto book = book_move(s)) {
          info_ =
              fmt::format("book move (searched to depth {}, score {})", book->depth, book->score);
          summary_ = {book->score, book->depth};
          return s.move_text(book->move);
        }
      }
    }
    const auto out = searcher_.search(s, engine_limits(spec_));
    info_ = fmt::format("depth {} score {} nodes {} time {} ms", out.depth, out.score, out.nodes,
                        out.elapsed.count());
    summary_ = {out.score, out.depth};
    return s.move_text(out.best);
  }
  std::string last_info() const override { return info_; }
  std::optional<SearchSummary> last_search() const override { return summary_; }

 private:
  PlayerSpec spec_;
  EngineLevel level_;
  Searcher<S> searcher_;
  Rng rng_;
  std::string info_;
  std::optional<SearchSummary> summary_;
};

template <SearchableGame S>
std::unique_ptr<Player> make_builtin_player(const PlayerSpec& spec) {
  switch (spec.kind) {
    case PlayerKind::Random:
      return std::make_unique<RandomPlayer<S>>(spec.seed);
    case PlayerKind::Greedy:
      return std::make_unique<GreedyPlayer<S>>(spec.seed);
    case PlayerKind::Engine:
      break;
  }
  return std::make_unique<EnginePlayer<S>>(spec);
}

}  // namespace arena
