#pragma once
// Hand-made test positions from square and point names or from moves played, and a fixed-depth
// search of them.
#include <gtest/gtest.h>

#include <initializer_list>
#include <sstream>
#include <string>
#include <string_view>

#include "games/fission/state.hpp"
#include "games/morris/board.hpp"
#include "search/search.hpp"

namespace arena::testing {

// Fission squares {"A4", "H8"} -> bitboard.
inline Bitboard cells(std::initializer_list<const char*> names) {
  Bitboard b = 0;
  for (const char* n : names) b |= bit((n[0] - 'A') * 8 + (n[1] - '1'));
  return b;
}

// Morris points "a1 d1 g1" -> point mask; a name that is not a point fails the test.
inline morris::Points pts(std::string_view list) {
  morris::Points b = 0;
  std::istringstream in{std::string(list)};
  std::string name;
  while (in >> name) {
    const auto p = morris::point_index(name);
    EXPECT_TRUE(p) << name;
    if (p) b |= morris::point_bit(*p);
  }
  return b;
}

// `s` after the moves in `moves`, separated by spaces ("a1 b4 d1", "B4,N"). A move that does not
// parse fails the test, and the moves after it are not played.
template <class S>
S after(S s, std::string_view moves) {
  std::istringstream in{std::string(moves)};
  std::string text;
  while (in >> text) {
    const auto parsed = s.parse_move(text);
    EXPECT_TRUE(parsed) << text << ": " << parsed.error;
    if (!parsed) break;
    s.apply(*parsed.value);
  }
  return s;
}

// A fresh search of `s` to `depth`.
template <SearchableGame S>
typename Searcher<S>::Outcome search_to_depth(const S& s, int depth, SearchOptions options = {}) {
  Searcher<S> searcher(16, options);
  SearchLimits limits;
  limits.max_depth = depth;
  return searcher.search(s, limits);
}

}  // namespace arena::testing
