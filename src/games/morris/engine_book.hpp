#pragma once
// The engine's book for the placement stage: positions searched far deeper than a move's time
// allows, each with the move that search chose. At 1 s a move the search reaches depth 10 to 12
// in the early placement, and that is where the losses to Sanmill came from (docs/morris.md).
// A position is stored once for its 16 symmetric images (symmetry.hpp).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "core/parse_result.hpp"
#include "games/morris/state.hpp"
#include "search/hooks.hpp"

namespace arena::morris {

class EngineBook {
 public:
  // Lines "WHITE BLACK IN_HAND_W IN_HAND_B SIDE MOVE DEPTH SCORE": the points as comma-separated
  // names or "-", the side "w" or "b", the move in the course's notation; '#' starts a comment.
  // Fails, naming the line, on anything else: points taken twice or more than nine pieces a side,
  // a move not legal in the position, a side to move without pieces in hand (the book is for
  // the placement stage).
  static Parsed<EngineBook> parse(std::string_view text);

  // The book's move for `s` in s's own orientation, or nothing.
  std::optional<BookMove<Move>> find(const State& s) const;
  // Keeps `entry`, a move in `s`, for s and its images (replacing what was there).
  void add(const State& s, const BookMove<Move>& entry);
  std::size_t size() const { return entries_.size(); }
  // What the book knows `s` by: the same for its 16 images (symmetry.hpp).
  static std::uint64_t key(const State& s);

  // The line parse() reads back for `s` and `entry`, in the position's canonical orientation.
  static std::string line(const State& s, const BookMove<Move>& entry);

 private:
  std::unordered_map<std::uint64_t, BookMove<Move>> entries_;  // by canonical key
};

// The book built into the program (data/engine/morris-book.txt), read once.
const EngineBook& builtin_engine_book();

}  // namespace arena::morris
