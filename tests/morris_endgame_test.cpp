// The Morris endgame databases: the index, the 3-3 table (exact counts, and every entry checked
// against the rules' own move generator), the file checks, probes of hand-made positions and the
// engine using a database win. Tables are built into a temporary folder: the cache is not needed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "games/morris/endgame_index.hpp"
#include "games/morris/endgame_verify.hpp"
#include "games/morris/endgames.hpp"
#include "games/morris/eval.hpp"
#include "search/search.hpp"
#include "support/positions.hpp"

namespace arena::morris::endgame {
namespace {

namespace fs = std::filesystem;
using Kind = EndgameValue::Kind;

using testing::pts;

// The 3-3 table, solved once for the whole test program.
const Table& table33() {
  static const Table t = [] {
    auto solved = solve_pair(3, 3, [](int, int) { return nullptr; });
    return std::move(solved.at(0));
  }();
  return t;
}

State position(Points white, Points black, Side to_move) {
  return *State::from_position({white, black, 0, 0, to_move, 0}).value;
}

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() / ("arena-egdb-" + std::to_string(::getpid()) + "-" +
                                        std::to_string(std::random_device{}()));
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

TEST(MorrisEndgame, IndexRanksEveryPositionOnce) {
  EXPECT_EQ(table_size(3, 3), 2'691'920u);
  EXPECT_EQ(table_size(4, 4), 51'482'970u);
  std::mt19937_64 rng(7);
  for (int m = 3; m <= 9; ++m)
    for (int o = 3; o <= 9; ++o)
      for (int k = 0; k < 200; ++k) {
        const std::uint64_t i = rng() % table_size(m, o);
        const PointSets p = position_at(i, m, o);
        ASSERT_EQ(std::popcount(p.movers), m);
        ASSERT_EQ(std::popcount(p.others), o);
        ASSERT_EQ(p.movers & p.others, 0u);
        ASSERT_EQ(position_index(p.movers, p.others), i);
      }
}

TEST(MorrisEndgame, ThreeAgainstThreeCounts) {
  const Counts c = count_values(table33());
  EXPECT_EQ(c.wins + c.draws + c.losses, 2'691'920u);
  EXPECT_EQ(c.wins, 2'232'160u);
  EXPECT_EQ(c.draws, 4'112u);
  EXPECT_EQ(c.losses, 455'648u);
  EXPECT_EQ(c.longest, 26);
}

// Every entry of 3-3 against its moves from State::legal_moves, not the solver's generator.
TEST(MorrisEndgame, ThreeAgainstThreeAgreesWithTheRules) {
  TableSet set;
  set.add(table33());
  const auto fault = verify_table(table33(), set);
  EXPECT_FALSE(fault) << *fault;
}

// The check finds a wrong entry.
TEST(MorrisEndgame, TheCheckFindsAWrongEntry) {
  std::vector<std::uint8_t> values(table33().data(), table33().data() + table33().size());
  values[12345] = static_cast<std::uint8_t>(values[12345] == 2 ? 4 : 2);
  TableSet set;
  set.add(Table(3, 3, std::move(values)));
  const auto fault = verify_table(*set.find(3, 3), set);
  ASSERT_TRUE(fault);
  EXPECT_NE(fault->find("entry"), std::string::npos) << *fault;
}

TEST(MorrisEndgame, ProbesHandMadePositions) {
  TableSet set;
  set.add(table33());
  // White flies c5 to d3 and closes d1-d2-d3: Black drops to 2.
  const State win1 = position(pts("d1 d2 c5"), pts("a7 g7 b6"), Side::White);
  auto v = set.probe(win1);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->kind, Kind::Win);
  EXPECT_EQ(v->plies, 1);
  // 4 against 3: not in this set.
  EXPECT_FALSE(set.probe(position(pts("d1 d2 e4 g4"), pts("a7 b6 c5"), Side::Black)));
  const State two_threats = position(pts("d1 d2 d7"), pts("a1 a4 b6"), Side::Black);
  v = set.probe(two_threats);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->kind, Kind::Win) << "Black flies b6 to a7: a1-a4-a7";
  EXPECT_EQ(v->plies, 1);
  // Pieces in hand: not a database position.
  EXPECT_FALSE(set.probe(
      *State::from_position({pts("d1 d2 c5"), pts("a7 g7 b6"), 1, 0, Side::White, 0}).value));
}

TEST(MorrisEndgame, FilesRoundTripAndBadFilesAreRefused) {
  TempDir dir;
  const Table& t = table33();
  std::string error;
  const fs::path file = dir.path / table_file_name(3, 3);
  ASSERT_TRUE(t.save(file, error)) << error;
  auto back = Table::load(file, error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(back->size(), t.size());
  EXPECT_EQ(std::memcmp(back->data(), t.data(), t.size()), 0);

  const auto bytes = fs::file_size(file);
  const auto rewrite = [&](const fs::path& p, auto&& change) {
    std::ifstream in(file, std::ios::binary);
    std::string data((std::istreambuf_iterator<char>(in)), {});
    change(data);
    std::ofstream(p, std::ios::binary) << data;
  };
  const fs::path bad = dir.path / "bad.egdb";
  rewrite(bad, [&](std::string& d) { d.resize(bytes - 100); });
  EXPECT_FALSE(Table::load(bad, error));
  EXPECT_NE(error.find("truncated"), std::string::npos) << error;
  rewrite(bad, [&](std::string& d) { d[1000] = static_cast<char>(d[1000] ^ 0x10); });
  EXPECT_FALSE(Table::load(bad, error));
  EXPECT_NE(error.find("checksum"), std::string::npos) << error;
  rewrite(bad, [&](std::string& d) { d[0] = 'X'; });
  EXPECT_FALSE(Table::load(bad, error));
  EXPECT_NE(error.find("magic"), std::string::npos) << error;
  rewrite(bad, [&](std::string& d) { d.resize(10); });
  EXPECT_FALSE(Table::load(bad, error));
  EXPECT_FALSE(Table::load(dir.path / "missing.egdb", error));

  // A corrupt table in the folder is reported and skipped, the others load.
  rewrite(dir.path / table_file_name(4, 3), [&](std::string& d) { d.resize(bytes / 2); });
  std::vector<std::string> warnings;
  const TableSet set =
      TableSet::load(dir.path, [&](const std::string& m) { warnings.push_back(m); });
  EXPECT_EQ(set.count(), 1u);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("morris-4-3.egdb"), std::string::npos) << warnings[0];
}

TEST(MorrisEndgame, TheEngineUsesADatabaseWin) {
  TableSet set;
  set.add(table33());
  const Table& t = table33();
  // The first position won in 5 plies or more: too deep for a depth-2 search on its own.
  std::uint64_t index = 0;
  while (!(decode(t[index]).kind == Kind::Win && decode(t[index]).plies >= 5)) ++index;
  const PointSets p = position_at(index, 3, 3);
  const State s = position(p.movers, p.others, Side::White);
  const int plies = decode(t[index]).plies;

  use_tables(std::move(set));
  const auto out = testing::search_to_depth(s, 2);
  use_tables(TableSet{});
  ASSERT_TRUE(out.has_move);
  EXPECT_EQ(out.score, kWinScore - plies);
  State child = s;
  child.apply(out.best);
  const EndgameValue after =
      decode(t[position_index(child.points(Side::Black), child.points(Side::White))]);
  EXPECT_EQ(after.kind, Kind::Loss);
  EXPECT_EQ(after.plies, plies - 1);
}

}  // namespace
}  // namespace arena::morris::endgame
