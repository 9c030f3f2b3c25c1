#include "games/soccer/turn_distance.hpp"

#include <bit>

namespace arena::soccer {

// A 0-1 breadth-first search: stepping on from a bounce point (or the ball) is free, stepping on
// from a fresh point starts a new turn. A ring buffer serves as the deque: each point is expanded
// once, so each of its 8 directions pushes at most once, and the ring never holds more than that.
void turn_distances(const State& s, std::array<std::uint8_t, kPoints>& turns) {
  turns.fill(kFarTurns);
  std::array<bool, kPoints> done{};
  constexpr unsigned kRing = 1024;
  static_assert(kRing > 8 * kPoints);
  std::array<std::uint8_t, kRing> ring;
  unsigned head = 0, tail = 0;  // ring[head % kRing .. tail % kRing)
  turns[s.ball()] = 1;
  ring[tail++ % kRing] = static_cast<std::uint8_t>(s.ball());
  while (head != tail) {
    const int q = ring[head++ % kRing];
    if (done[q]) continue;
    done[q] = true;
    const int y = y_of(q);
    if (q != s.ball() && (y == 6 || y == -6)) continue;  // in a goal: the game is over
    const bool free_step = q == s.ball() || s.bounces_at(q);
    const int next = turns[q] + (free_step ? 0 : 1);
    for (unsigned f = s.free_directions_at(q) & 0xFFu; f; f &= f - 1) {
      const int v = q + kDirectionDelta[std::countr_zero(f)];
      if (done[v] || next >= turns[v]) continue;
      turns[v] = static_cast<std::uint8_t>(next);
      if (free_step)
        ring[--head % kRing] = static_cast<std::uint8_t>(v);
      else
        ring[tail++ % kRing] = static_cast<std::uint8_t>(v);
    }
  }
}

}  // namespace arena::soccer
