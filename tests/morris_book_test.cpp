// The Morris engine book: the board's symmetries, reading and finding book lines in any of a
// position's 16 images, and the engine playing the built-in book only at full strength on the
// clock.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "games/morris/engine_book.hpp"
#include "games/morris/symmetry.hpp"
#include "games/registry.hpp"
#include "support/positions.hpp"

namespace arena::morris {
namespace {

using testing::after;

std::set<Points> mills_under(int symmetry) {
  std::set<Points> out;
  for (const Points m : kMills) out.insert(transform(m, symmetry));
  return out;
}

TEST(MorrisSymmetry, SixteenDistinctMapsKeepLinesAndMills) {
  std::set<PointMap> distinct;
  const std::set<Points> mills(kMills.begin(), kMills.end());
  for (int t = 0; t < kSymmetries; ++t) {
    distinct.insert(kSymmetryMaps[t]);
    EXPECT_EQ(transform(kAllPoints, t), kAllPoints) << t << " is not a permutation";
    EXPECT_EQ(mills_under(t), mills) << "symmetry " << t;
    for (int p = 0; p < kPoints; ++p)
      EXPECT_EQ(transform(kAdjacent[p], t), kAdjacent[kSymmetryMaps[t][p]])
          << "symmetry " << t << " at " << kPointNames[p];
    const int u = inverse_symmetry(t);
    ASSERT_GE(u, 0);
    EXPECT_EQ(transform(transform(Points{0xA5F00F}, t), u), Points{0xA5F00F});
  }
  EXPECT_EQ(distinct.size(), 16u);
  // The ring swap takes the outer ring to the inner one, the middle ring to itself.
  EXPECT_EQ(kPointNames[kSymmetryMaps[8][*point_index("a1")]], "c3");
  EXPECT_EQ(kPointNames[kSymmetryMaps[8][*point_index("b4")]], "b4");
}

TEST(MorrisEngineBook, FindsALineInEveryImageOfItsPosition) {
  // White a1 d1, Black b4: White to close a1-d1-g1 is the book's move.
  const State s = after(State::start(), "a1 b4 d1 f4");
  EngineBook book;
  book.add(s, {*s.parse_move("g1b4").value, 17, 1200});
  ASSERT_EQ(book.size(), 1u);
  for (int t = 0; t < kSymmetries; ++t) {
    Position p = s.position();
    p.white = transform(p.white, t);
    p.black = transform(p.black, t);
    const State image = *State::from_position(p).value;
    const auto found = book.find(image);
    ASSERT_TRUE(found) << "symmetry " << t;
    EXPECT_EQ(found->move, transform(*s.parse_move("g1b4").value, t)) << "symmetry " << t;
    EXPECT_TRUE(image.parse_move(image.move_text(found->move))) << "symmetry " << t;
    EXPECT_EQ(found->depth, 17);
    EXPECT_EQ(found->score, 1200);
  }
  // The same points with the other side to move, or other pieces in hand, are not in it.
  Position other_side = s.position();
  other_side.to_move = Side::Black;
  EXPECT_FALSE(book.find(*State::from_position(other_side).value));
  Position other_hands = s.position();
  other_hands.white_in_hand = 6;
  EXPECT_FALSE(book.find(*State::from_position(other_hands).value));
  EXPECT_FALSE(book.find(after(State::start(), "a1 b4 d1 f4 g7 a7")));
}

TEST(MorrisEngineBook, ReadsBackTheLinesItWrites) {
  const State s = after(State::start(), "d2 f4 b4");
  const BookMove<Move> entry{*s.parse_move("d6").value, 15, -33};
  const std::string line = EngineBook::line(s, entry);
  const auto read = EngineBook::parse("# a comment\n\n" + line + "  # the search's words\n");
  ASSERT_TRUE(read) << read.error;
  const auto found = read.value->find(s);
  ASSERT_TRUE(found) << line;
  EXPECT_EQ(s.move_text(found->move), "d6");
  EXPECT_EQ(found->depth, 15);
  EXPECT_EQ(found->score, -33);
}

TEST(MorrisEngineBook, RefusesLinesThatCannotBePlayed) {
  const auto error = [](std::string_view text) {
    const auto read = EngineBook::parse(text);
    EXPECT_FALSE(read) << text;
    return read.error;
  };
  EXPECT_EQ(error("- - 9 9 w b4 15 0\na1 a1 8 8 w b4 15 0\n").substr(0, 7), "line 2:");
  EXPECT_NE(error("a1 - 8 9 b a1 15 0").find("a1"), std::string::npos);          // occupied
  EXPECT_NE(error("a1,d1 b4 7 8 w g1 15 0").find("remove"), std::string::npos);  // closes a mill
  EXPECT_NE(error("a1,a4,a7 b4,b2,b6 0 0 w a1d1 15 0").find("placing"), std::string::npos);
  EXPECT_NE(error("- - 9 9 x b4 15 0").find("w or b"), std::string::npos);
  EXPECT_NE(error("- - 10 9 w b4 15 0").find("in hand"), std::string::npos);
  EXPECT_NE(error("- - 9 9 w b4 15").find("8 fields"), std::string::npos);
  EXPECT_NE(error("z9 - 8 9 b b4 15 0").find("names"), std::string::npos);
}

TEST(MorrisEngineBook, TheBuiltInBookCoversTheStart) {
  const EngineBook& book = builtin_engine_book();
  ASSERT_GT(book.size(), 100u);
  const State start = State::start();
  const auto opening = book.find(start);
  ASSERT_TRUE(opening);
  // Every reply to the book's first move is answered.
  const State first = after(start, start.move_text(opening->move));
  MoveList<Move, State::kMaxMoves> replies;
  first.legal_moves(replies);
  for (const Move reply : replies) {
    State s = first;
    s.apply(reply);
    EXPECT_TRUE(book.find(s)) << "after the reply " << first.move_text(reply);
  }
}

TEST(MorrisEngineBook, TheEnginePlaysItOnlyAtFullStrengthOnTheClock) {
  const GameInfo& g = *find_game("morris");
  const auto start = g.start({});
  const auto opening = builtin_engine_book().find(State::start());
  ASSERT_TRUE(opening);
  const std::string book = State::start().move_text(opening->move);

  // Full strength: no level, or the top one.
  for (const int level : {0, kEngineLevels}) {
    auto clocked =
        g.make_player({.kind = PlayerKind::Engine, .move_time_ms = 1000, .level = level});
    EXPECT_EQ(clocked->choose(*start), book) << "level " << level;
    EXPECT_EQ(clocked->last_info().substr(0, 9), "book move") << clocked->last_info();
    ASSERT_TRUE(clocked->last_search());
    EXPECT_EQ(clocked->last_search()->depth, opening->depth);
  }
  for (const PlayerSpec spec : {PlayerSpec{.kind = PlayerKind::Engine, .depth = 3},
                                PlayerSpec{.kind = PlayerKind::Engine, .nodes = 5'000},
                                PlayerSpec{.kind = PlayerKind::Engine, .level = 4}}) {
    auto searching = g.make_player(spec);
    searching->choose(*start);
    EXPECT_EQ(searching->last_info().substr(0, 6), "depth ") << searching->last_info();
  }
  // On a clock long enough to search as deep as the book, the engine searches.
  EXPECT_TRUE(plays_by_book({.kind = PlayerKind::Engine, .move_time_ms = kBookMoveTimeMs}));
  EXPECT_FALSE(plays_by_book({.kind = PlayerKind::Engine, .move_time_ms = 60'000}));
}

}  // namespace
}  // namespace arena::morris
