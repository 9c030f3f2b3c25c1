#pragma once
// The type-erased face of a game: moves as wire text. Referees, records, players' front ends and
// viewers use this; the search works on the concrete types behind it.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/game.hpp"

namespace arena {

class AnyState {
 public:
  virtual ~AnyState() = default;
  virtual std::string_view game() const = 0;
  virtual std::unique_ptr<AnyState> clone() const = 0;
  virtual Side side_to_move() const = 0;
  virtual int ply() const = 0;
  virtual Result result() const = 0;
  virtual std::uint64_t hash() const = 0;
  virtual std::vector<std::string> legal_moves() const = 0;
  // Plays a move given as wire text. Gives the canonical text of the move played, or the reason
  // the move is not legal here (then the state is unchanged).
  virtual Parsed<std::string> play(std::string_view text) = 0;
  virtual std::string render() const = 0;
};

template <GameState S>
class StateAdapter final : public AnyState {
 public:
  explicit StateAdapter(S s) : s_(std::move(s)) {}
  const S& typed() const { return s_; }

  std::string_view game() const override { return S::kName; }
  std::unique_ptr<AnyState> clone() const override { return std::make_unique<StateAdapter>(s_); }
  Side side_to_move() const override { return s_.side_to_move(); }
  int ply() const override { return s_.ply(); }
  Result result() const override { return s_.result(); }
  std::uint64_t hash() const override { return s_.hash(); }
  std::vector<std::string> legal_moves() const override {
    std::vector<std::string> out;
    if (s_.result().over()) return out;
    MoveList<typename S::Move, S::kMaxMoves> moves;
    s_.legal_moves(moves);
    for (const auto& m : moves) out.push_back(s_.move_text(m));
    return out;
  }
  Parsed<std::string> play(std::string_view text) override {
    if (s_.result().over()) return Parsed<std::string>::fail("the game is over");
    auto parsed = s_.parse_move(text);
    if (!parsed) return Parsed<std::string>::fail(parsed.error);
    std::string canonical = s_.move_text(*parsed.value);
    s_.apply(*parsed.value);
    return Parsed<std::string>::ok(std::move(canonical));
  }
  std::string render() const override { return s_.render(); }

 private:
  S s_;
};

// The concrete state behind a type-erased one (the caller knows the game).
template <GameState S>
const S& typed_state(const AnyState& s) {
  return static_cast<const StateAdapter<S>&>(s).typed();
}

}  // namespace arena
