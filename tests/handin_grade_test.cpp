// `arena handin grade` end to end: a Paper Soccer hand-in graded by the Bucharest scheme (its
// prebuilt bot is arena's own reference bot at difficulty 2, so every game is decided by the
// seeds alone), and a Fission hand-in against engine levels 1 and 2 (a fixed-depth engine: no
// game depends on the clock).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace arena {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using testing::Process;
using testing::TempDir;

struct GradeRun {
  int exit = -1;
  std::string out, err;
};

GradeRun grade(const std::vector<std::string>& args, std::chrono::seconds timeout = 120s) {
  std::vector<std::string> argv = {ARENA_BINARY, "handin", "grade"};
  argv.insert(argv.end(), args.begin(), args.end());
  Process p(argv);
  GradeRun r;
  r.exit = p.wait(timeout).value_or(-1);
  r.out = p.out();
  r.err = p.err();
  return r;
}

std::string last_line(std::string s) {
  while (!s.empty() && s.back() == '\n') s.pop_back();
  const std::size_t nl = s.rfind('\n');
  return nl == std::string::npos ? s : s.substr(nl + 1);
}

// A hand-in folder whose prebuilt `bot` is the course's reference bot at difficulty 2.
fs::path soccer_handin(const fs::path& dir) {
  const fs::path root = dir / "dora";
  fs::create_directories(root);
  std::ofstream(root / "bot") << "#!/bin/sh\nexec '" << ARENA_BINARY
                              << "' soccer-ref silent 2 \"$2\"\n";
  ::chmod((root / "bot").c_str(), 0755);
  return root;
}

TEST(HandinGrade, SoccerBucharestPointsAndJson) {
  TempDir tmp;
  const fs::path out = tmp.path() / "grade";
  const GradeRun r = grade({"soccer", soccer_handin(tmp.path()).string(), "--out", out.string(),
                            "--move-time", "2000", "--levels", "1", "--json"});
  ASSERT_EQ(r.exit, 0) << r.out << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["verdict"], "accepted") << j;
  ASSERT_EQ(j["games"].size(), 2u);  // check's smoke games stay check's
  const auto& g = j["grade"];
  EXPECT_EQ(g["scheme"], "bucharest");
  EXPECT_EQ(g["max_points"], 90);
  ASSERT_EQ(g["games"].size(), 8u);  // six Bucharest games, then level 1 in both colours
  int points = 0;
  const int worth[3] = {10, 15, 20};
  for (int i = 0; i < 6; ++i) {
    const auto& game = g["games"][i];
    EXPECT_EQ(game["opponent"], "reference difficulty " + std::to_string(i / 2)) << game;
    EXPECT_EQ(game["side"], i % 2 == 0 ? "white" : "black") << game;
    EXPECT_EQ(game["points"], game["result"] == "won" ? worth[i / 2] : 0) << game;
    EXPECT_TRUE(fs::exists(game["record"].get<std::string>())) << game;
    points += game["points"].get<int>();
  }
  EXPECT_EQ(g["points"], points);
  EXPECT_EQ(g["points"], 70) << g;  // lost only as player 1 against difficulty 2
  for (int i = 6; i < 8; ++i) {
    EXPECT_EQ(g["games"][i]["opponent"], "engine level=1");
    EXPECT_FALSE(g["games"][i].contains("points"));
  }
  ASSERT_EQ(g["levels"].size(), 1u);
  EXPECT_EQ(g["levels"][0]["level"], 1);
  const std::string summary = g["summary"];
  EXPECT_EQ(summary.rfind("points " + std::to_string(points) + "/90; ", 0), 0u) << summary;
  EXPECT_EQ(j["line"].get<std::string>().find(summary),
            j["line"].get<std::string>().size() - summary.size());
  EXPECT_EQ(nlohmann::json::parse(std::ifstream(out / "verdict.json")), j);
}

// A Fission hand-in: arena's engine at a fixed depth, through arena.json.
TEST(HandinGrade, FissionLevelsTable) {
  TempDir tmp;
  const fs::path dir = tmp.path() / "erin";
  fs::create_directories(dir);
  std::ofstream(dir / "arena.json") << nlohmann::json{
      {"run", std::string(ARENA_BINARY) +
                  " connect fission {host} {port} --player engine --depth 2 "
                  "--move-time {move_ms}"}}.dump();
  const fs::path out = tmp.path() / "grade";
  const GradeRun r = grade(
      {"fission", dir.string(), "--out", out.string(), "--move-time", "1000", "--levels", "1-2"});
  ASSERT_EQ(r.exit, 0) << r.out << r.err;
  // The stage lines, one line per grading game, the table, the verdict.
  EXPECT_NE(r.out.find("game 2:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("grade:   engine level=1, as White:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("grade:   engine level=2, as Black:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("level       as White       as Black\n"), std::string::npos) << r.out;
  EXPECT_EQ(last_line(r.out).rfind("accepted: ", 0), 0u) << r.out;
  const auto j = nlohmann::json::parse(std::ifstream(out / "verdict.json"));
  const auto& g = j["grade"];
  EXPECT_EQ(g["scheme"], "levels");
  EXPECT_FALSE(g.contains("points"));
  ASSERT_EQ(g["levels"].size(), 2u);
  ASSERT_EQ(g["games"].size(), 4u);
  EXPECT_EQ(g["levels"], nlohmann::json::parse(R"([{"level": 1, "white": "won", "black": "won"},
                                                {"level": 2, "white": "draw", "black": "won"}])"))
      << g;
  EXPECT_EQ(g["highest_level"], 2) << g;  // a draw counts
  EXPECT_NE(last_line(r.out).find(g["summary"].get<std::string>()), std::string::npos);
}

TEST(HandinGrade, BadLevelsExitTwo) {
  TempDir tmp;
  const GradeRun r = grade({"fission", tmp.path().string(), "--levels", "0-7"});
  EXPECT_EQ(r.exit, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("--levels"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace arena
