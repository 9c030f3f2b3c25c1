#include "games/soccer/adapter.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace arena::soccer {

std::vector<std::string> Adapter::legal_moves() const {
  // A crowded field can have more bounce chains than memory holds: refuse clearly instead.
  if (count_turns(s_, kMaxListedTurns + 1) > kMaxListedTurns)
    throw std::length_error(fmt::format(
        "this position has more than {} legal turns: too many to list", kMaxListedTurns));
  std::vector<std::string> out;
  for_each_turn(s_, [&](const State&, const Turn& t) { out.push_back(turn_text(t)); });
  return out;
}

Parsed<std::string> Adapter::play(std::string_view text) {
  if (s_.over()) return Parsed<std::string>::fail("the game is over");
  auto turn = parse_turn(text);
  if (!turn) return Parsed<std::string>::fail(turn.error);
  const Side mover = s_.side_to_move();
  const auto from = static_cast<std::uint8_t>(s_.ball());
  const TurnCheck check = play_turn(s_, *turn.value);
  if (!check) return Parsed<std::string>::fail(check.detail);
  turns_.push_back({mover, from, *turn.value});
  return Parsed<std::string>::ok(turn_text(*turn.value));
}

}  // namespace arena::soccer
