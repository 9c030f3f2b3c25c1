#include "games/soccer/state.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <vector>

#include "core/rng.hpp"
#include "core/text.hpp"
#include "games/soccer/geometry.hpp"

namespace arena::soccer {
namespace {

constexpr int kDx[8] = {0, 1, 1, 1, 0, -1, -1, -1};
constexpr int kDy[8] = {1, 1, 0, -1, -1, -1, 0, 1};

bool exists(int x, int y) {
  return (std::abs(x) <= 4 && std::abs(y) <= 5) || (std::abs(y) == 6 && std::abs(x) <= 1);
}

// Segments along the field's border, used from the start (spec "Field").
bool border_segment(int x1, int y1, int x2, int y2) {
  const bool vertical = x1 == x2, horizontal = y1 == y2;
  if (vertical && std::abs(x1) == 4) return true;  // side lines
  if (horizontal && std::abs(y1) == 5 && !(std::abs(x1) <= 1 && std::abs(x2) <= 1))
    return true;  // end lines, except the goal mouths
  if (vertical && std::abs(x1) == 1 && std::abs(y1) + std::abs(y2) == 11) return true;  // posts
  // The diagonals (+-2, +-5)-(+-1, +-6) closing the goal corners.
  if (!vertical && !horizontal && std::abs(y1) + std::abs(y2) == 11 && y1 * y2 > 0) {
    const int xi = std::abs(y1) == 5 ? x1 : x2, xo = std::abs(y1) == 5 ? x2 : x1;
    if (std::abs(xi) == 2 && std::abs(xo) == 1 && xi * xo > 0) return true;
  }
  return false;
}

Geometry make_geometry() {
  Geometry g;
  g.start_used.fill(0xFF);  // points off the field are never reached
  for (int p = 0; p < kPoints; ++p) {
    const int x = x_of(p), y = y_of(p);
    if (!exists(x, y)) continue;
    g.start_used[p] = 0;
    for (int d = 0; d < 8; ++d) {
      const int nx = x + kDx[d], ny = y + kDy[d];
      if (!exists(nx, ny)) g.off_field[p] |= 1 << d;
      if (!exists(nx, ny) || border_segment(x, y, nx, ny)) g.start_used[p] |= 1 << d;
    }
  }
  std::uint64_t seed = 0x534F43434552ULL;  // "SOCCER"
  for (int p = 0; p < kPoints; ++p) {
    for (int d = 0; d < 4; ++d) {  // one key per segment, seen from both ends
      const std::uint64_t key = splitmix64(seed);
      g.segment[p][d] = key;
      const int q = p + kDirectionDelta[d];
      if (q >= 0 && q < kPoints) g.segment[q][opposite_direction(d)] = key;
    }
    g.ball[p] = splitmix64(seed);
  }
  g.black_to_move = splitmix64(seed);
  return g;
}

}  // namespace

const Geometry& geometry() {
  static const Geometry g = make_geometry();
  return g;
}

State State::start(const RuleOptions&) {
  const Geometry& g = geometry();
  State s;
  s.used_ = g.start_used;
  s.ball_ = kCentre;
  s.hash_ = g.ball[kCentre];
  return s;
}

bool State::touched(int point) const {
  return (used_[point] & ~geometry().off_field[point]) != 0 || point == kCentre;
}

void State::step(int dir) {
  const Geometry& g = geometry();
  const int from = ball_, to = ball_ + kDirectionDelta[dir];
  const bool bounce = bounces_at(to);  // judged before the new segment touches it
  used_[from] |= static_cast<std::uint8_t>(1 << dir);
  used_[to] |= static_cast<std::uint8_t>(1 << opposite_direction(dir));
  hash_ ^= g.segment[from][dir] ^ g.ball[from] ^ g.ball[to];
  ball_ = static_cast<std::uint8_t>(to);
  ++steps_;
  ++turn_steps_;
  const int y = y_of(to);
  if (y == 6 || y == -6) {  // in a goal: the turn and the game end at once
    status_ = y == 6 ? Status::GoalNorth : Status::GoalSouth;
    ++turns_;
  } else if (!bounce) {  // a fresh point: the turn ends
    side_ = opposite(side_);
    hash_ ^= g.black_to_move;
    turn_steps_ = 0;
    ++turns_;
  } else if (used_[to] == 0xFF) {  // must step again and cannot
    status_ = Status::Stuck;
    ++turns_;
  }
}

Result State::result() const {
  // At the end the mover is still the side to move: that tells an own goal from a goal.
  switch (status_) {
    case Status::GoalNorth:
      return side_ == Side::White
                 ? Result{Outcome::WhiteWins, "goal", "player 1 scored in the north goal"}
                 : Result{Outcome::WhiteWins, "own-goal", "player 2 put the ball in its own goal"};
    case Status::GoalSouth:
      return side_ == Side::Black
                 ? Result{Outcome::BlackWins, "goal", "player 2 scored in the south goal"}
                 : Result{Outcome::BlackWins, "own-goal", "player 1 put the ball in its own goal"};
    case Status::Stuck:
      return side_ == Side::White
                 ? Result{Outcome::BlackWins, "stuck", "player 1 had to step again and could not"}
                 : Result{Outcome::WhiteWins, "stuck", "player 2 had to step again and could not"};
    case Status::Ongoing:
      break;
  }
  return {};
}

std::string State::move_text(Move m) const {
  return std::string(1, static_cast<char>('0' + m.dir));
}

Parsed<Move> State::parse_move(std::string_view text) const {
  const std::string_view t = trim(text);
  if (t.size() != 1 || t[0] < '0' || t[0] > '7')
    return Parsed<Move>::fail(fmt::format("'{}' is not a direction 0..7", printable(t)));
  const int d = t[0] - '0';
  if (over()) return Parsed<Move>::fail("the game is over");
  if (!is_legal(d))
    return Parsed<Move>::fail(
        fmt::format("step {} ({}) from ({}, {}) uses a used or border segment", d,
                    kDirectionNames[d], x_of(ball_), y_of(ball_)));
  return Parsed<Move>::ok(Move{static_cast<std::uint8_t>(d), ball_});
}

// The field drawn on a character grid: a point every 4 columns and 2 lines, north at the top.
// Border: '#'; played segments: '-', '|', '/', '\' ('X' where two diagonals cross); points: '.'
// fresh, '+' touched, 'O' the ball.
std::string State::render() const {
  const Geometry& g = geometry();
  constexpr int kWidth = (kColumns - 1) * 4 + 1, kHeight = (kRows - 1) * 2 + 1;
  std::vector<std::string> grid(kHeight, std::string(kWidth, ' '));
  auto put = [&](int col, int line, char c) {
    char& cell = grid[static_cast<std::size_t>(line)][static_cast<std::size_t>(col)];
    cell = (cell == '/' && c == '\\') || (cell == '\\' && c == '/') ? 'X' : c;
  };
  for (int p = 0; p < kPoints; ++p) {
    if (g.start_used[p] == 0xFF) continue;
    const int col = (x_of(p) + 4) * 4, line = (6 - y_of(p)) * 2;
    for (int d = 0; d < 4; ++d) {  // N, NE, E, SE: each segment once
      if (!(used_[p] >> d & 1) || (g.off_field[p] >> d & 1)) continue;
      const bool border = g.start_used[p] >> d & 1;
      switch (d) {
        case N:
          put(col, line - 1, border ? '#' : '|');
          break;
        case NE:
          put(col + 2, line - 1, border ? '#' : '/');
          break;
        case E:
          for (int i = 1; i <= 3; ++i) put(col + i, line, border ? '#' : '-');
          break;
        case SE:
          put(col + 2, line + 1, border ? '#' : '\\');
          break;
        default:
          break;
      }
    }
  }
  for (int p = 0; p < kPoints; ++p) {
    if (g.start_used[p] == 0xFF) continue;
    const int col = (x_of(p) + 4) * 4, line = (6 - y_of(p)) * 2;
    grid[static_cast<std::size_t>(line)][static_cast<std::size_t>(col)] = p == ball_   ? 'O'
                                                                          : touched(p) ? '+'
                                                                                       : '.';
  }
  std::string out;
  for (int line = 0; line < kHeight; ++line) {
    out += line % 2 == 0 ? fmt::format("{:>3} ", 6 - line / 2) : std::string(4, ' ');
    std::string row = grid[static_cast<std::size_t>(line)];
    while (!row.empty() && row.back() == ' ') row.pop_back();
    out += row;
    out += '\n';
  }
  out += "   ";
  for (int x = -4; x <= 4; ++x) out += fmt::format("{:>2}  ", x);
  while (out.back() == ' ') out.pop_back();
  out += '\n';
  return out;
}

}  // namespace arena::soccer
