#pragma once
// A slow, obviously-correct Paper Soccer written straight from shared/spec/paper-soccer.md, with
// plain coordinates and a set of used segments: the tests check the fast State against it.
#include <array>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <tuple>
#include <utility>

namespace arena::soccer::reference {

struct Point {
  int x = 0, y = 0;
  auto operator<=>(const Point&) const = default;
};
using Segment = std::pair<Point, Point>;  // ordered: first < second

constexpr std::array<int, 8> kDx = {0, 1, 1, 1, 0, -1, -1, -1};  // N NE E SE S SW W NW
constexpr std::array<int, 8> kDy = {1, 1, 0, -1, -1, -1, 0, 1};

inline Segment segment(Point a, Point b) {
  return a < b ? Segment{a, b} : Segment{b, a};
}

inline bool on_field(Point p) {
  return (std::abs(p.x) <= 4 && std::abs(p.y) <= 5) || (std::abs(p.y) == 6 && std::abs(p.x) <= 1);
}

enum class End { None, NorthGoal, SouthGoal, Stuck };

struct Game {
  std::set<Segment> used;
  std::set<Point> touched;
  Point ball{0, 0};
  int mover = 0;  // 0 = player 1 (attacks north), 1 = player 2
  End end = End::None;

  static Game start() {
    Game g;
    for (int s : {-1, 1}) {
      for (int y = -5; y < 5; ++y) g.used.insert(segment({4 * s, y}, {4 * s, y + 1}));  // sides
      for (int x = -4; x < 4; ++x)  // end lines, except the goal mouths (-1..0 and 0..1)
        if (x != -1 && x != 0) g.used.insert(segment({x, 5 * s}, {x + 1, 5 * s}));
      for (int side : {-1, 1}) {
        g.used.insert(segment({side, 5 * s}, {side, 6 * s}));      // posts
        g.used.insert(segment({2 * side, 5 * s}, {side, 6 * s}));  // goal corner diagonals
      }
    }
    g.touched.insert({0, 0});
    for (int x = -4; x <= 4; ++x)
      for (int y = -5; y <= 5; ++y)
        if (std::abs(x) == 4 || (std::abs(y) == 5 && std::abs(x) >= 1)) g.touched.insert({x, y});
    for (int x : {-1, 1})
      for (int y : {-6, 6}) g.touched.insert({x, y});
    return g;
  }

  bool can_step(int d) const {
    const Point to{ball.x + kDx[d], ball.y + kDy[d]};
    return end == End::None && on_field(to) && !used.count(segment(ball, to));
  }
  bool any_step() const {
    for (int d = 0; d < 8; ++d)
      if (can_step(d)) return true;
    return false;
  }
  // One step (can_step(d)); returns whether the turn ended.
  bool step(int d) {
    const Point to{ball.x + kDx[d], ball.y + kDy[d]};
    used.insert(segment(ball, to));
    const bool bounce = touched.count(to) > 0;
    touched.insert(to);
    ball = to;
    if (to.y == 6 || to.y == -6) {
      end = to.y == 6 ? End::NorthGoal : End::SouthGoal;
      return true;
    }
    if (!bounce) {
      mover = 1 - mover;
      return true;
    }
    if (!any_step()) {
      end = End::Stuck;
      return true;
    }
    return false;
  }
  // 0 or 1 when the game is over, else -1.
  int winner() const {
    switch (end) {
      case End::NorthGoal:
        return 0;
      case End::SouthGoal:
        return 1;
      case End::Stuck:
        return 1 - mover;
      case End::None:
        break;
    }
    return -1;
  }
};

// Whole-turn perft, counting step sequences.
inline std::uint64_t perft(const Game& g, int depth);
inline std::uint64_t perft_in_turn(const Game& g, int depth) {
  std::uint64_t n = 0;
  for (int d = 0; d < 8; ++d) {
    if (!g.can_step(d)) continue;
    Game c = g;
    if (c.step(d))
      n += depth == 1 ? 1 : perft(c, depth - 1);
    else
      n += perft_in_turn(c, depth);
  }
  return n;
}
inline std::uint64_t perft(const Game& g, int depth) {
  if (depth == 0) return 1;
  if (g.end != End::None) return 0;
  return perft_in_turn(g, depth);
}

}  // namespace arena::soccer::reference
