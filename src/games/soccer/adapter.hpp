#pragma once
// Paper Soccer behind the type-erased face: moves are WHOLE TURNS as text "N d1 .. dN" in the
// referee's frame (player 1 = White attacks north), while the State underneath moves by steps.
#include <memory>
#include <vector>

#include "core/any_game.hpp"
#include "games/soccer/turn.hpp"

namespace arena::soccer {

inline constexpr std::uint64_t kMaxListedTurns = 2'000'000;

// A turn played through the adapter: who played it, where the ball was, the steps. The step
// state keeps only which segments are used, not their order, so the viewers' drawing of the
// ball's whole path (docs/viewer.md, kind "soccer") needs this history.
struct PlayedTurn {
  Side side = Side::White;
  std::uint8_t from = kCentre;
  Turn steps;
};

class Adapter final : public AnyState {
 public:
  explicit Adapter(State s) : s_(s) {}
  const State& typed() const { return s_; }
  // The turns played through this adapter, in order (a copy keeps them).
  const std::vector<PlayedTurn>& turns() const { return turns_; }

  std::string_view game() const override { return State::kName; }
  std::unique_ptr<AnyState> clone() const override { return std::make_unique<Adapter>(*this); }
  Side side_to_move() const override { return s_.side_to_move(); }
  int ply() const override { return s_.ply(); }
  Result result() const override { return s_.result(); }
  std::uint64_t hash() const override { return s_.hash(); }
  // Every legal turn, for tools (perft --divide), never the search. Throws std::length_error
  // when there are more than kMaxListedTurns (counting them is cheap, listing them is not).
  std::vector<std::string> legal_moves() const override;
  Parsed<std::string> play(std::string_view text) override;
  std::string render() const override { return s_.render(); }

 private:
  State s_;
  std::vector<PlayedTurn> turns_;
};

// The step-level state behind a type-erased soccer state.
inline const State& state_of(const AnyState& s) {
  return static_cast<const Adapter&>(s).typed();
}
inline const Adapter& adapter_of(const AnyState& s) {
  return static_cast<const Adapter&>(s);
}

}  // namespace arena::soccer
