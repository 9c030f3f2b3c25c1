#pragma once
// What a game type must provide. Search, players and tools are templates over this concept;
// the type-erased face (any_game.hpp) serves the referee, records and viewers.
#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/move_list.hpp"
#include "core/parse_result.hpp"
#include "core/rules.hpp"
#include "core/side.hpp"

namespace arena {

template <class S>
concept GameState = requires(const S& cs, S& s, typename S::Move m, std::string_view text,
                             MoveList<typename S::Move, S::kMaxMoves>& list) {
  { S::kName } -> std::convertible_to<std::string_view>;
  { S::start(RuleOptions{}) } -> std::same_as<S>;
  { cs.side_to_move() } -> std::same_as<Side>;
  { cs.ply() } -> std::convertible_to<int>;
  { cs.result() } -> std::same_as<Result>;
  { cs.hash() } -> std::same_as<std::uint64_t>;
  cs.legal_moves(list);
  s.apply(m);
  { cs.move_text(m) } -> std::same_as<std::string>;
  { cs.parse_move(text) } -> std::same_as<Parsed<typename S::Move>>;
  { cs.render() } -> std::same_as<std::string>;
  { m.key() } -> std::convertible_to<std::uint32_t>;
  { m == m } -> std::convertible_to<bool>;
};

// A game the shared search can play: it also has an evaluation, from the side to move's view.
template <class S>
concept SearchableGame = GameState<S> && requires(const S& cs) {
  { evaluate(cs) } -> std::convertible_to<int>;
};

}  // namespace arena
