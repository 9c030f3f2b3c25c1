#include "games/morris/engine_book.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

#include "core/text.hpp"
#include "games/morris/engine_book_file.hpp"
#include "games/morris/eval.hpp"
#include "games/morris/symmetry.hpp"
#include "search/search.hpp"

namespace arena::morris {
namespace {

State transformed(const State& s, int symmetry) {
  Position p = s.position();
  p.white = transform(p.white, symmetry);
  p.black = transform(p.black, symmetry);
  p.ply = 0;
  return *State::from_position(p).value;
}

// The symmetry that takes `s` to its canonical image: the one with the smallest key.
int canonical_symmetry(const State& s) {
  int best = 0;
  const std::uint64_t key_0 = s.key();
  const std::uint64_t hands_and_side = key_0 & ~((std::uint64_t{1} << 48) - 1);
  const Points white = s.points(Side::White), black = s.points(Side::Black);
  std::uint64_t best_key = key_0;
  for (int t = 1; t < kSymmetries; ++t) {
    const std::uint64_t key =
        hands_and_side | transform(white, t) | (std::uint64_t{transform(black, t)} << 24);
    if (key < best_key) {
      best = t;
      best_key = key;
    }
  }
  return best;
}

std::string point_list(Points points) {
  if (!points) return "-";
  std::string out;
  for (; points; points &= points - 1) {
    if (!out.empty()) out += ',';
    out += kPointNames[std::countr_zero(points)];
  }
  return out;
}

bool read_points(std::string_view text, Points& out) {
  out = 0;
  if (text == "-") return true;
  for (std::size_t at = 0; at <= text.size();) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    const auto p = point_index(text.substr(at, comma - at));
    if (!p || (out & point_bit(*p))) return false;
    out |= point_bit(*p);
    at = comma + 1;
  }
  return true;
}

Parsed<std::pair<State, BookMove<Move>>> read_line(std::string_view line) {
  using Result = Parsed<std::pair<State, BookMove<Move>>>;
  const auto w = words(line);
  if (w.size() != 8)
    return Result::fail("needs 8 fields: WHITE BLACK HAND_W HAND_B SIDE MOVE DEPTH SCORE");
  Position p;
  if (!read_points(w[0], p.white) || !read_points(w[1], p.black))
    return Result::fail("the points must be names (a1..g7) separated by commas, or -");
  if (!parse_number(w[2], 0, kPiecesPerSide, p.white_in_hand) ||
      !parse_number(w[3], 0, kPiecesPerSide, p.black_in_hand))
    return Result::fail("the pieces in hand must be 0 to 9");
  if (w[4] != "w" && w[4] != "b") return Result::fail("the side to move must be w or b");
  p.to_move = w[4] == "w" ? Side::White : Side::Black;
  auto state = State::from_position(p);
  if (!state) return Result::fail(state.error);
  if (state.value->stage(p.to_move) != Stage::Placing)
    return Result::fail("the side to move has no piece in hand (the book is for placing)");
  auto move = state.value->parse_move(w[5]);
  if (!move) return Result::fail(move.error);
  BookMove<Move> entry{*move.value};
  if (!parse_number(w[6], 1, 99, entry.depth)) return Result::fail("the depth must be 1 to 99");
  if (!parse_number(w[7], -kInfinity, kInfinity, entry.score))
    return Result::fail("the score must be a number");
  return Result::ok({std::move(*state.value), entry});
}

}  // namespace

Parsed<EngineBook> EngineBook::parse(std::string_view text) {
  EngineBook book;
  int number = 0;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    std::string_view line = text.substr(at, end - at);
    at = end + 1;
    ++number;
    line = trim(line.substr(0, line.find('#')));
    if (line.empty()) continue;
    auto read = read_line(line);
    if (!read) return Parsed<EngineBook>::fail(fmt::format("line {}: {}", number, read.error));
    book.add(read.value->first, read.value->second);
  }
  return Parsed<EngineBook>::ok(std::move(book));
}

std::uint64_t EngineBook::key(const State& s) {
  return transformed(s, canonical_symmetry(s)).key();
}

std::optional<BookMove<Move>> EngineBook::find(const State& s) const {
  if (entries_.empty() || s.stage(s.side_to_move()) != Stage::Placing) return std::nullopt;
  const int t = canonical_symmetry(s);
  const auto it = entries_.find(transformed(s, t).key());
  if (it == entries_.end()) return std::nullopt;
  BookMove<Move> out = it->second;
  out.move = transform(out.move, inverse_symmetry(t));
  return out;
}

void EngineBook::add(const State& s, const BookMove<Move>& entry) {
  const int t = canonical_symmetry(s);
  BookMove<Move> stored = entry;
  stored.move = transform(entry.move, t);
  entries_[transformed(s, t).key()] = stored;
}

std::string EngineBook::line(const State& s, const BookMove<Move>& entry) {
  const int t = canonical_symmetry(s);
  const State c = transformed(s, t);
  return fmt::format("{} {} {} {} {} {} {} {}", point_list(c.points(Side::White)),
                     point_list(c.points(Side::Black)), c.in_hand(Side::White),
                     c.in_hand(Side::Black), c.side_to_move() == Side::White ? 'w' : 'b',
                     c.move_text(transform(entry.move, t)), entry.depth, entry.score);
}

const EngineBook& builtin_engine_book() {
  static const EngineBook book = [] {
    const auto files = builtin_engine_book_files();
    auto parsed = EngineBook::parse(files.empty() ? std::string_view{} : files.front().body);
    if (parsed) return std::move(*parsed.value);
    // Only a broken build can get here (the file is checked by the tests): play without it.
    fmt::print(stderr, "arena: the built-in Morris engine book is unreadable ({}); not used\n",
               parsed.error);
    return EngineBook{};
  }();
  return book;
}

std::optional<BookMove<Move>> book_move(const State& s) {
  return builtin_engine_book().find(s);
}

}  // namespace arena::morris
