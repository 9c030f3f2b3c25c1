// Replays the games recorded from the Fission course server (shared/fixtures/fission-server,
// copied to tests/data/fission): every move, stone count and board through arena's rules, and
// arena's CourseLog against the server's own log file, byte for byte.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "core/any_game.hpp"
#include "core/text.hpp"
#include "games/fission/course_log.hpp"
#include "games/fission/state.hpp"
#include "games/registry.hpp"
#include "referee/course_log.hpp"
#include "support/files.hpp"

namespace arena::fission {
namespace {

std::string read_fixture(std::string_view scenario) {
  return testing::read_test_data("fission/" + std::string(scenario) + "/server_game_log.txt");
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t begin = 0;
  while (begin < text.size()) {
    const std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) {
      lines.push_back(text.substr(begin));
      break;
    }
    lines.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return lines;
}

// ---------------------------------------------------------------------------------------------
// The course log, parsed.

struct Board {
  Bitboard white = 0;
  Bitboard black = 0;
};

struct Turn {
  long long elapsed_ms = 0;
  std::string line;  // the client's line as logged ("MOVE B4,NE"); empty on a timeout
  // Set when the server accepted the move ("Moves: N | White pawns: a | Black pawns: b").
  int moves = -1;
  int white = -1;
  int black = -1;
  std::optional<Board> board;  // printed after the move ("Board:" or, at the end, "Final Board:")
};

struct CourseGame {
  Board start;
  std::vector<Turn> turns;
  std::vector<std::string> ending;  // the other lines after the last turn, blank lines left out
};

const char* const kHeader = "    1    2    3    4    5    6    7    8  ";
const char* const kRule = "   ──── ──── ──── ──── ──── ──── ──── ────";

// The 8 rows after "Board:" and a header and rule line: "A|  --   MW   MB ...  |A".
Board parse_board(const std::vector<std::string>& lines, std::size_t at) {
  Board b;
  EXPECT_EQ(lines.at(at), kHeader);
  EXPECT_EQ(lines.at(at + 1), kRule);
  for (int r = 0; r < 8; ++r) {
    const std::string& row = lines.at(at + 2 + r);
    const char name = static_cast<char>('A' + r);
    EXPECT_EQ(row.front(), name) << row;
    EXPECT_EQ(row.back(), name) << row;
    std::istringstream cells(row.substr(2, row.size() - 4));  // between the two '|'
    std::string cell;
    for (int c = 0; c < 8; ++c) {
      cells >> cell;
      if (cell == "MW") {
        b.white |= bit(r * 8 + c);
      } else if (cell == "MB") {
        b.black |= bit(r * 8 + c);
      } else {
        EXPECT_EQ(cell, "--") << row;
      }
    }
    EXPECT_FALSE(cells >> cell) << "extra cells in " << row;
  }
  EXPECT_EQ(lines.at(at + 10), kRule);
  EXPECT_EQ(lines.at(at + 11), kHeader);
  return b;
}

CourseGame parse_course_log(const std::string& text) {
  const std::vector<std::string> lines = split_lines(text);
  CourseGame g;
  EXPECT_EQ(lines.at(0), "Group 0 - White");
  EXPECT_EQ(lines.at(1), "Group 1 - Black");
  bool have_start = false;
  for (std::size_t i = 2; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    int moves = 0, white = 0, black = 0;
    long long ms = 0;
    if (line == "Board:" || line == "Final Board:") {
      const Board b = parse_board(lines, i + 1);
      if (!have_start) {
        g.start = b;
        have_start = true;
      } else {
        EXPECT_FALSE(g.turns.empty());
        if (!g.turns.empty()) g.turns.back().board = b;
      }
      i += 12;
    } else if (std::sscanf(line.c_str(), "Elapsed time: %lld", &ms) == 1) {
      g.turns.emplace_back();
      g.turns.back().elapsed_ms = ms;
    } else if (line.starts_with("MOVE") && !g.turns.empty() && g.turns.back().line.empty()) {
      g.turns.back().line = line;
    } else if (std::sscanf(line.c_str(), "Moves: %d | White pawns: %d | Black pawns: %d", &moves,
                           &white, &black) == 3) {
      EXPECT_FALSE(g.turns.empty());
      if (g.turns.empty()) continue;
      g.turns.back().moves = moves;
      g.turns.back().white = white;
      g.turns.back().black = black;
    } else if (!line.empty()) {
      g.ending.push_back(line);
    }
  }
  EXPECT_TRUE(have_start);
  return g;
}

// "MOVE   a5,e" -> "A5,E": what the course server did with a client's line.
std::string move_of(std::string_view line) {
  std::string t = to_upper(trim(line));
  EXPECT_TRUE(t.starts_with("MOVE")) << line;
  return std::string(trim(std::string_view(t).substr(4)));
}

// ---------------------------------------------------------------------------------------------
// Replaying the moves through the rules.

std::string names(Bitboard b) {
  std::string out;
  for (int s = 0; s < 64; ++s) {
    if (!(b & bit(s))) continue;
    if (!out.empty()) out += ' ';
    out += static_cast<char>('A' + s / 8);
    out += static_cast<char>('1' + s % 8);
  }
  return out;
}

void expect_board(const State& s, const Board& b, const std::string& where) {
  EXPECT_EQ(names(s.stones(Side::White)), names(b.white)) << where;
  EXPECT_EQ(names(s.stones(Side::Black)), names(b.black)) << where;
}

// Plays every move the server accepted and checks counts and boards after each one. Moves the
// course accepted but arena's stricter parser rejects (extra comma fields) are played from their
// first two fields and returned, so each test can say which ones it expects.
State replay(const CourseGame& g, const RuleOptions& rules,
             std::vector<std::string>* course_only = nullptr) {
  State s = State::start(rules);
  expect_board(s, g.start, "start");
  for (const Turn& t : g.turns) {
    if (t.moves < 0) break;  // not accepted: the game ended there
    std::string move = move_of(t.line);
    const std::string where = "ply " + std::to_string(s.ply() + 1) + " " + move;
    auto parsed = s.parse_move(move);
    if (!parsed) {
      EXPECT_NE(course_only, nullptr) << where << ": " << parsed.error;
      if (course_only) course_only->push_back(move);
      move = move.substr(0, move.find(',', move.find(',') + 1));
      parsed = s.parse_move(move);
    }
    EXPECT_TRUE(parsed) << where << ": " << parsed.error;
    if (!parsed) break;
    EXPECT_FALSE(s.result().over()) << where;
    s.apply(*parsed.value);
    EXPECT_EQ(s.ply(), t.moves) << where;
    EXPECT_EQ(popcount(s.stones(Side::White)), t.white) << where;
    EXPECT_EQ(popcount(s.stones(Side::Black)), t.black) << where;
    EXPECT_TRUE(t.board.has_value()) << where;
    if (t.board) expect_board(s, *t.board, where);
  }
  return s;
}

TEST(FissionFixture, FullGame) {
  const CourseGame g = parse_course_log(read_fixture("fission_fullgame"));
  ASSERT_EQ(g.turns.size(), 34u);
  EXPECT_EQ(g.turns[0].line, "MOVE B4,NE");
  EXPECT_EQ(g.turns[33].line, "MOVE H4,E");
  const State s = replay(g, {});
  EXPECT_EQ(s.ply(), 34);
  const Result r = s.result();
  EXPECT_EQ(r.outcome, Outcome::BlackWins);
  EXPECT_EQ(r.reason, "no-stones");
  EXPECT_EQ(names(s.stones(Side::White)), "");
  EXPECT_EQ(names(s.stones(Side::Black)), "F1");
  EXPECT_EQ(g.ending, (std::vector<std::string>{"Black wins - White loses",
                                                "MATCH ENDED in 34 total moves"}));
}

TEST(FissionFixture, CrAIzyVsCrAIzy) {
  const CourseGame g = parse_course_log(read_fixture("fission_crAIzy_vs_crAIzy"));
  ASSERT_EQ(g.turns.size(), 26u);
  const State s = replay(g, {});
  EXPECT_EQ(s.ply(), 26);
  const Result r = s.result();
  EXPECT_EQ(r.outcome, Outcome::Draw);
  EXPECT_EQ(r.reason, "one-stone-each");
  EXPECT_EQ(popcount(s.stones(Side::White)), 1);
  EXPECT_EQ(popcount(s.stones(Side::Black)), 1);
  EXPECT_EQ(g.ending, (std::vector<std::string>{"Tie", "MATCH ENDED in 26 total moves"}));
}

TEST(FissionFixture, MoveLimitTieWithThreeMovesEach) {
  const CourseGame g = parse_course_log(read_fixture("fission_movelimit_tm3_tie"));
  ASSERT_EQ(g.turns.size(), 6u);
  const State s = replay(g, {.moves_per_player = 3, .limit_rule = LimitRule::MoreStones});
  EXPECT_EQ(s.ply(), 6);
  const Result r = s.result();
  EXPECT_EQ(r.outcome, Outcome::Draw);
  EXPECT_EQ(r.reason, "move-limit");
  EXPECT_EQ(popcount(s.stones(Side::White)), 11);
  EXPECT_EQ(popcount(s.stones(Side::Black)), 11);
  EXPECT_EQ(g.ending, (std::vector<std::string>{"Tie", "MATCH ENDED in 6 total moves"}));
}

TEST(FissionFixture, MoveLimitWinWithFourMovesEach) {
  const CourseGame g = parse_course_log(read_fixture("fission_movelimit_tm4"));
  ASSERT_EQ(g.turns.size(), 8u);
  const State s = replay(g, {.moves_per_player = 4, .limit_rule = LimitRule::MoreStones});
  EXPECT_EQ(s.ply(), 8);
  const Result r = s.result();
  EXPECT_EQ(r.outcome, Outcome::WhiteWins);  // 9 stones to 8
  EXPECT_EQ(r.reason, "move-limit");
  EXPECT_EQ(g.ending,
            (std::vector<std::string>{"Black loses - White wins", "MATCH ENDED in 8 total moves"}));
  // Arena's default limit rule makes the same game a draw, and without a short limit it goes on.
  const State d = replay(g, {.moves_per_player = 4});
  EXPECT_EQ(d.result().outcome, Outcome::Draw);
  EXPECT_EQ(d.result().reason, "move-limit");
  EXPECT_FALSE(replay(g, {}).result().over());
}

TEST(FissionFixture, IllegalMovesAreRejected) {
  // A move from an empty cell and a blocked direction, both White's first move.
  const CourseGame empty = parse_course_log(read_fixture("fission_illegal_empty_cell"));
  ASSERT_EQ(empty.turns.size(), 1u);
  EXPECT_EQ(empty.turns[0].line, "MOVE A1,N");
  EXPECT_EQ(empty.turns[0].moves, -1);
  EXPECT_FALSE(State::start().parse_move(move_of(empty.turns[0].line)));
  EXPECT_EQ(empty.ending, (std::vector<std::string>{"INVALID MOVE", "White LOSE - Black WIN"}));

  const CourseGame blocked = parse_course_log(read_fixture("fission_forbidden_direction"));
  ASSERT_EQ(blocked.turns.size(), 1u);
  EXPECT_EQ(blocked.turns[0].line, "MOVE C3,E");
  EXPECT_FALSE(State::start().parse_move(move_of(blocked.turns[0].line)));
  EXPECT_EQ(blocked.ending, (std::vector<std::string>{"INVALID MOVE", "White LOSE - Black WIN"}));
}

TEST(FissionFixture, LowerCaseCrlfAndExtraFields) {
  const CourseGame g = parse_course_log(read_fixture("fission_lowercase_crlf_extra"));
  ASSERT_EQ(g.turns.size(), 4u);
  EXPECT_EQ(g.turns[0].line, "MOVE B4,NE,XYZ");
  EXPECT_EQ(g.turns[2].line, "MOVE   A5,E");  // the server kept the inner spaces in its log
  EXPECT_EQ(g.turns[3].line, "MOVE B1, S");
  // The course accepted "b4,ne,xyz" as B4,NE; the spec makes extra fields invalid in arena.
  std::vector<std::string> course_only;
  const State s = replay(g, {}, &course_only);
  EXPECT_EQ(course_only, (std::vector<std::string>{"B4,NE,XYZ"}));
  EXPECT_EQ(s.ply(), 3);
  // Both agree that "B1, S" is invalid, although B1,S is a legal move here.
  EXPECT_FALSE(s.parse_move(move_of(g.turns[3].line)));
  EXPECT_TRUE(s.parse_move("B1,S"));
  EXPECT_EQ(g.ending, (std::vector<std::string>{"INVALID MOVE", "Black LOSE - White WIN"}));
}

TEST(FissionFixture, CourseBoardAndCountsFormat) {
  // The first board block of every log is the start position, in the course's layout.
  const std::string log = read_fixture("fission_fullgame");
  const std::string start =
      "Group 0 - White\nGroup 1 - Black\nBoard:\n" + course_board(State::start());
  EXPECT_EQ(log.substr(0, start.size()), start);
  EXPECT_EQ(course_counts(State::start()), "White pawns: 12 | Black pawns: 12");
}

// ---------------------------------------------------------------------------------------------
// arena's CourseLog against the course's log file.

// Where two texts first differ, with some context, for a readable failure.
std::string first_difference(const std::string& ours, const std::string& theirs) {
  std::size_t i = 0;
  while (i < ours.size() && i < theirs.size() && ours[i] == theirs[i]) ++i;
  const std::size_t from = i < 80 ? 0 : i - 80;
  return "first difference at byte " + std::to_string(i) + "\n--- ours:\n" +
         ours.substr(from, 160) + "\n--- course:\n" + theirs.substr(from, 160);
}

void expect_same_text(const std::string& ours, const std::string& theirs) {
  EXPECT_EQ(ours.size(), theirs.size());
  EXPECT_TRUE(ours == theirs) << first_difference(ours, theirs);
}

// Drives CourseLog the way the course server does: the elapsed time and the line for each turn,
// then the position after a legal move, INVALID MOVE, or a timeout (a turn without a line).
// `lines` are the client lines as the server read them (default: the logged ones).
std::string rebuild_log(const CourseGame& g, const RuleOptions& rules,
                        const std::vector<std::string>& lines = {}) {
  const GameInfo* info = find_game("fission");
  EXPECT_NE(info, nullptr);
  EXPECT_NE(info->course_log, nullptr);
  if (!info) return {};
  std::unique_ptr<AnyState> state = info->start(rules);
  CourseLog log(info->course_log, 0, 1);
  log.start(*state);
  for (std::size_t i = 0; i < g.turns.size(); ++i) {
    const Turn& t = g.turns[i];
    log.elapsed(t.elapsed_ms);
    if (t.line.empty()) {
      log.timeout(state->side_to_move());
      break;
    }
    const std::string line = lines.empty() ? t.line : lines.at(i);
    log.received(line);
    std::string move = move_of(line);
    if (t.moves < 0) {
      EXPECT_FALSE(state->clone()->play(move)) << move;
      log.invalid(state->side_to_move());
      break;
    }
    if (!state->clone()->play(move)) move = move.substr(0, move.find(',', move.find(',') + 1));
    const auto played = state->play(move);
    EXPECT_TRUE(played) << move << ": " << played.error;
    log.played(*state);
  }
  return log.text();
}

struct LogCase {
  const char* scenario;
  RuleOptions rules;
};

TEST(FissionCourseLog, ReproducesFinishedGames) {
  const LogCase cases[] = {
      {"fission_fullgame", {}},
      {"fission_crAIzy_vs_crAIzy", {}},
      {"fission_movelimit_tm3_tie", {.moves_per_player = 3, .limit_rule = LimitRule::MoreStones}},
      {"fission_movelimit_tm4", {.moves_per_player = 4, .limit_rule = LimitRule::MoreStones}},
  };
  for (const LogCase& c : cases) {
    SCOPED_TRACE(c.scenario);
    const std::string expected = read_fixture(c.scenario);
    expect_same_text(rebuild_log(parse_course_log(expected), c.rules), expected);
  }
}

TEST(FissionCourseLog, ReproducesInvalidMoves) {
  for (const char* scenario : {"fission_illegal_empty_cell", "fission_forbidden_direction"}) {
    SCOPED_TRACE(scenario);
    const std::string expected = read_fixture(scenario);
    expect_same_text(rebuild_log(parse_course_log(expected), {}), expected);
  }
}

TEST(FissionCourseLog, ReproducesLowerCaseCrlfAndExtraFields) {
  // The lines as the clients sent them (white.txt, black.txt), line ends removed: the log
  // shows them in upper case, inner spaces kept.
  const std::string expected = read_fixture("fission_lowercase_crlf_extra");
  const std::vector<std::string> sent = {"move b4,ne,xyz", "MOVE B5,W", "MOVE   a5,e",
                                         "MOVE B1, S"};
  expect_same_text(rebuild_log(parse_course_log(expected), {}, sent), expected);
}

TEST(FissionCourseLog, ReproducesTimeout) {
  const std::string expected = read_fixture("fission_timeout");
  const CourseGame g = parse_course_log(expected);
  ASSERT_EQ(g.turns.size(), 1u);
  EXPECT_EQ(g.turns[0].elapsed_ms, 1021);
  EXPECT_EQ(g.turns[0].line, "");
  EXPECT_EQ(g.ending, (std::vector<std::string>{"Player White Time out",
                                                "Player Black wins  - Player White loses"}));
  expect_same_text(rebuild_log(g, {}), expected);
}

TEST(FissionCourseLog, FileName) {
  EXPECT_EQ(CourseLog::file_name(0, 1), "Group0_WhiteGroup1_Black.log");
  EXPECT_EQ(CourseLog::file_name(12, 3), "Group12_WhiteGroup3_Black.log");
}

}  // namespace
}  // namespace arena::fission
