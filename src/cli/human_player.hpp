#pragma once
// A person at the terminal: sees the board and the legal moves, types a move.
#include <iosfwd>

#include "search/player.hpp"

namespace arena {

class HumanPlayer final : public Player {
 public:
  HumanPlayer(std::istream& in, std::ostream& out) : in_(in), out_(out) {}
  std::string name() const override { return "human"; }
  // Asks until a legal move is typed. Throws std::runtime_error when the input ends.
  std::string choose(const AnyState& state) override;

 private:
  std::istream& in_;
  std::ostream& out_;
};

}  // namespace arena
