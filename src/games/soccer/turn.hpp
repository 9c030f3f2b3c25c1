#pragma once
// Whole turns: what one `M N d1 .. dN` message carries. Text "N d1 .. dN" (no "M"), directions in
// the frame of the state they are played in (the referee's frame = player 1's).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/parse_result.hpp"
#include "games/soccer/state.hpp"

namespace arena::soccer {

using Turn = std::vector<std::uint8_t>;  // directions 0..7

// No turn is longer than the number of segments on the field (under 500); text claiming more
// steps than this is refused before anything is allocated.
inline constexpr int kMaxTurnSteps = 512;

std::string turn_text(const Turn& turn);  // "3 0 1 7"
// "N d1 .. dN": N >= 1 and exactly N directions 0..7. The lenient form accepts any runs of
// blanks (people typing); the strict one is the wire's: single spaces, nothing before or after.
Parsed<Turn> parse_turn(std::string_view text);
Parsed<Turn> parse_turn_strict(std::string_view text);
// The same turn seen from the other end of the field (player 2's frame <-> the referee's): d+4.
Turn rotated(Turn turn);
std::string rotated_text(const Turn& turn);

enum class TurnError {
  None,
  GameOver,      // nothing may be played
  IllegalStep,   // a used segment, a border, or off the field
  StoppedEarly,  // the last step bounced: the same player had to step again
  TooManySteps,  // the turn had ended (fresh point or goal) before the last step
};
struct TurnCheck {
  TurnError error = TurnError::None;
  int step = 0;  // 1-based step the error is about (0: the turn as a whole)
  std::string detail;
  explicit operator bool() const { return error == TurnError::None; }
};

// Plays a whole turn for the side to move. On an error `s` is left unchanged.
TurnCheck play_turn(State& s, const Turn& turn);

// Calls visit(after, steps) for every legal turn, depth-first over steps, without building a
// list (a position can have hundreds of thousands of turns).
template <class Visit>
void for_each_turn(const State& s, Visit&& visit) {
  if (s.over()) return;
  Turn steps;
  auto rec = [&](auto&& self, const State& at) -> void {
    for (unsigned free = at.free_directions(); free; free &= free - 1) {
      const int d = std::countr_zero(free);
      State child = at;
      child.step(d);
      steps.push_back(static_cast<std::uint8_t>(d));
      if (child.over() || child.side_to_move() != at.side_to_move())
        visit(static_cast<const State&>(child), static_cast<const Turn&>(steps));
      else
        self(self, child);
      steps.pop_back();
    }
  };
  rec(rec, s);
}

// Leaves of the tree of whole turns (different step sequences count separately; a finished game
// has no children). depth 1 from the start = 8.
std::uint64_t perft(const State& s, int depth);
// The number of legal turns, counted up to `cap` (the count stops there: in a crowded field the
// number of bounce chains grows beyond anything countable).
std::uint64_t count_turns(const State& s, std::uint64_t cap = ~std::uint64_t{0});

}  // namespace arena::soccer
