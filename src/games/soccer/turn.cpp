#include "games/soccer/turn.hpp"

#include <fmt/format.h>

#include "core/text.hpp"

namespace arena::soccer {
namespace {

// Splits on blanks; strict: exactly one space between tokens and none around them.
Parsed<std::vector<std::string_view>> tokens(std::string_view text, bool strict) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  if (strict && (text.empty() || text.front() == ' ' || text.back() == ' '))
    return Parsed<std::vector<std::string_view>>::fail("spaces before or after the turn");
  while (i < text.size()) {
    if (is_space(text[i])) {
      if (strict && (text[i] != ' ' || text[i + 1] == ' '))
        return Parsed<std::vector<std::string_view>>::fail("not single spaces between numbers");
      ++i;
      continue;
    }
    const std::size_t start = i;
    while (i < text.size() && !is_space(text[i])) ++i;
    out.push_back(text.substr(start, i - start));
    if (out.size() > static_cast<std::size_t>(kMaxTurnSteps) + 1)
      return Parsed<std::vector<std::string_view>>::fail(
          fmt::format("more than {} steps", kMaxTurnSteps));
  }
  return Parsed<std::vector<std::string_view>>::ok(std::move(out));
}

Parsed<Turn> parse(std::string_view text, bool strict) {
  auto toks = tokens(text, strict);
  if (!toks) return Parsed<Turn>::fail(fmt::format("'{}': {}", printable(text), toks.error));
  const auto& t = *toks.value;
  if (t.empty()) return Parsed<Turn>::fail("an empty turn (expected N d1 .. dN)");
  int n = 0;
  for (char c : t[0]) {
    if (c < '0' || c > '9' || n > kMaxTurnSteps)
      return Parsed<Turn>::fail(
          fmt::format("'{}' is not a step count 1..{}", printable(t[0]), kMaxTurnSteps));
    n = n * 10 + (c - '0');
  }
  if (n < 1 || n > kMaxTurnSteps || (strict && t[0].size() > 1 && t[0][0] == '0'))
    return Parsed<Turn>::fail(
        fmt::format("'{}' is not a step count 1..{}", printable(t[0]), kMaxTurnSteps));
  if (t.size() - 1 != static_cast<std::size_t>(n))
    return Parsed<Turn>::fail(
        fmt::format("the count says {} steps but {} directions follow", n, t.size() - 1));
  Turn turn;
  turn.reserve(static_cast<std::size_t>(n));
  for (std::size_t i = 1; i < t.size(); ++i) {
    if (t[i].size() != 1 || t[i][0] < '0' || t[i][0] > '7')
      return Parsed<Turn>::fail(fmt::format("'{}' is not a direction 0..7", printable(t[i])));
    turn.push_back(static_cast<std::uint8_t>(t[i][0] - '0'));
  }
  return Parsed<Turn>::ok(std::move(turn));
}

}  // namespace

std::string turn_text(const Turn& turn) {
  std::string out = std::to_string(turn.size());
  for (std::uint8_t d : turn) {
    out += ' ';
    out += static_cast<char>('0' + d);
  }
  return out;
}

Parsed<Turn> parse_turn(std::string_view text) {
  return parse(text, false);
}
Parsed<Turn> parse_turn_strict(std::string_view text) {
  return parse(text, true);
}

Turn rotated(Turn turn) {
  for (std::uint8_t& d : turn) d = static_cast<std::uint8_t>(opposite_direction(d));
  return turn;
}

std::string rotated_text(const Turn& turn) {
  return turn_text(rotated(turn));
}

TurnCheck play_turn(State& s, const Turn& turn) {
  if (s.over()) return {TurnError::GameOver, 0, "the game is over"};
  if (turn.empty()) return {TurnError::StoppedEarly, 0, "a turn has at least one step"};
  State t = s;
  const Side mover = s.side_to_move();
  for (std::size_t i = 0; i < turn.size(); ++i) {
    const int step = static_cast<int>(i) + 1;
    if (t.over() || t.side_to_move() != mover)
      return {TurnError::TooManySteps, step,
              fmt::format("the turn ended after step {} ({}), yet {} steps were sent", i,
                          t.over() ? "the game is over" : "a fresh point", turn.size())};
    const int d = turn[i];
    if (!t.is_legal(d))
      return {TurnError::IllegalStep, step,
              fmt::format("step {} ({} {}) from ({}, {}) crosses a used or border segment", step, d,
                          d < 8 ? kDirectionNames[static_cast<std::size_t>(d)] : "?",
                          x_of(t.ball()), y_of(t.ball()))};
    t.step(d);
  }
  if (!t.over() && t.side_to_move() == mover)
    return {
        TurnError::StoppedEarly, 0,
        fmt::format("after step {} the ball is on a touched point ({}, {}): the turn must go on",
                    turn.size(), x_of(t.ball()), y_of(t.ball()))};
  s = t;
  return {};
}

// The turns under `at` (inside a turn of its side to move), each followed by depth - 1 more.
// A plain recursion over steps: no step list is kept, which is what makes it fast.
std::uint64_t perft(const State& s, int depth) {
  if (depth == 0) return 1;
  if (s.over()) return 0;
  std::uint64_t nodes = 0;
  for (unsigned free = s.free_directions(); free; free &= free - 1) {
    State child = s;
    child.step(std::countr_zero(free));
    if (child.over() || child.side_to_move() != s.side_to_move())
      nodes += depth == 1 ? 1 : perft(child, depth - 1);
    else
      nodes += perft(child, depth);  // a bounce: the same turn goes on
  }
  return nodes;
}

namespace {
void count_in_turn(const State& s, std::uint64_t cap, std::uint64_t& n) {
  for (unsigned free = s.free_directions(); free && n < cap; free &= free - 1) {
    State child = s;
    child.step(std::countr_zero(free));
    if (child.over() || child.side_to_move() != s.side_to_move())
      ++n;
    else
      count_in_turn(child, cap, n);
  }
}
}  // namespace

std::uint64_t count_turns(const State& s, std::uint64_t cap) {
  std::uint64_t n = 0;
  if (!s.over()) count_in_turn(s, cap, n);
  return n;
}

}  // namespace arena::soccer
