#pragma once
// What a game may add to the shared search, each optional and found by argument-dependent lookup
// or as a member. A hook must be declared in the header that declares the game's evaluate(), so
// that every use of Searcher<S> sees the same set (otherwise two translation units would
// instantiate two different searches).
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <type_traits>

#include "core/move_list.hpp"

namespace arena {

// The exact value of a position from a database, from the side to move's view: a win or a loss
// in `plies` (0 when the game is already over), or a draw.
struct EndgameValue {
  enum class Kind { Win, Draw, Loss };
  Kind kind = Kind::Draw;
  int plies = 0;
};

// `std::optional<EndgameValue> probe_endgame(const S&)`: nullopt when the position is not in
// the databases (or they are not loaded).
template <class S>
concept HasEndgameTables = requires(const S& s) {
  { probe_endgame(s) } -> std::same_as<std::optional<EndgameValue>>;
};

// `void load_endgame_tables(std::type_identity<S>)`: loads those databases now rather than at the
// first probe. An engine player does it when it is made, so that no move's clock pays for it (a
// few tenths of a second for Morris's tables, seconds on a slow or loaded machine).
template <class S>
concept HasEndgameLoading = requires {
  load_endgame_tables(std::type_identity<S>{});
};

// A move a game's engine book holds for a position: searched to `depth` (far deeper than a
// move's time allows), scoring `score` for the side to move.
template <class Move>
struct BookMove {
  Move move;
  int depth = 0;
  int score = 0;
};

// `std::optional<BookMove<S::Move>> book_move(const S&)`: the book's move, or nullopt. The
// engine player plays it instead of searching when it plays at full strength on the clock.
template <class S>
concept HasEngineBook = requires(const S& s) {
  { book_move(s) } -> std::same_as<std::optional<BookMove<typename S::Move>>>;
};

// `s.noisy_moves(list)`: the moves that change the evaluation sharply (captures, explosions).
// With it, the search ends in a quiescence search over them instead of evaluating a position
// where a capture is pending. The side to move must alternate in those moves.
template <class S>
concept HasNoisyMoves = requires(const S& s, MoveList<typename S::Move, S::kMaxMoves>& list) {
  s.noisy_moves(list);
};

// `int contempt(const S&)`: what the side the search plays for gains by keeping the game alive in
// this position (the search adds it for that side, subtracts it for the other). A level game
// that still has much to play for is worth more, against a weaker opponent, than one traded down
// into a dead draw.
template <class S>
concept HasContempt = requires(const S& s) {
  { contempt(s) } -> std::same_as<int>;
};

// `bool reducible(const S&, const S::Move&)`: whether a late move may be searched shallower
// first (late-move reductions, search.hpp). A game that has it gets the reductions by default,
// for the moves it calls reducible only: the quiet ones, not those that decide material.
template <class S>
concept HasReducibleMoves = requires(const S& s, const typename S::Move& m) {
  { reducible(s, m) } -> std::same_as<bool>;
};

// `bool captures(const S&, const S::Move&)`: whether a move takes material. Such moves are
// tried right after the TT move, before the killers and the history's order.
template <class S>
concept HasCaptures = requires(const S& s, const typename S::Move& m) {
  { captures(s, m) } -> std::same_as<bool>;
};

// `int futility_margin(const S&)`: how far the evaluation of this position may move in one ply,
// where the game can bound it (0 where it cannot). Near the leaves, away from the principal
// variation, a side to move whose evaluation stands that far above beta for each ply left is cut
// off without a search ("reverse futility pruning", search.hpp).
template <class S>
concept HasFutilityMargin = requires(const S& s) {
  { futility_margin(s) } -> std::same_as<int>;
};

// `bool extends(const S&, const S::Move&)`: whether a move answers a threat the side to move
// must answer now (a mill about to close), so that the search looks a ply further down it: the
// forced reply then costs no depth, as a chess search extends checks. Within twice the
// iteration's depth from the root.
template <class S>
concept HasExtensions = requires(const S& s, const typename S::Move& m) {
  { extends(s, m) } -> std::same_as<bool>;
};

// `bool null_move_allowed(const S&)` and `S::pass()`: where passing is hardly ever better than
// moving (no zugzwang), the search may let the side to move pass and, when even that holds the
// opponent below beta at a reduced depth, cut off without searching the moves ("null-move
// pruning"). `pass()` gives the move to the other side and nothing else.
template <class S>
concept HasNullMove = requires(const S& s, S& m) {
  { null_move_allowed(s) } -> std::same_as<bool>;
  m.pass();
};

// `s.position_hash()`, `s.repeated()` and `s.history_size()`: a game where a position that
// occurs again ends the game (a draw), so that hash() must also identify the positions seen
// since the last irreversible move. `position_hash()` identifies the position alone; `repeated()`
// says this position occurred before; `history_size()` counts the positions seen since the last
// irreversible move, this one included. With them the search keys its table on the position
// alone, so that the same position reached by another order of moves meets its entry. A score
// that a repetition of a position above the node decided is not stored, and a score from an
// earlier search is not reused where the game's positions before the root may still repeat
// (search.hpp): repetitions of the game's positions are exact. Within one search, a score stored
// by one path may still be reused on another whose own positions could repeat below the node.
template <class S>
concept HasRepetitionRule = requires(const S& s) {
  { s.position_hash() } -> std::same_as<std::uint64_t>;
  { s.repeated() } -> std::same_as<bool>;
  { s.history_size() } -> std::same_as<std::size_t>;
};

}  // namespace arena
