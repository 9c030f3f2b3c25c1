// `arena tournament report DIR --html OUT`: the page's files, the tournament and every game
// embedded as scripts (a page from file:// cannot fetch), the records copied, and clear errors.
#include "view/static_export.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "referee/record.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace arena::view {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using testing::TempDir;

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_text(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

GameRecord game(const std::string& white, const std::string& black,
                std::vector<std::string> moves) {
  GameRecord r;
  r.game = "fission";
  r.settings = {{"move_time_ms", 1000}};
  r.white = {white, "local"};
  r.black = {black, "local"};
  Side side = Side::White;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    MoveRecord m{static_cast<int>(i + 1), side, moves[i], static_cast<std::int64_t>(10 * (i + 1))};
    if (side == Side::White) m.cpu_ms = 5;
    r.moves.push_back(m);
    side = opposite(side);
  }
  r.outcome = Outcome::Draw;
  r.reason = "move-limit";
  return r;
}

// The JSON a script assigns: "... = JSON;\n" (data.js and data/*.js).
nlohmann::json assigned(const std::string& script) {
  const auto eq = script.find(" = ");
  const auto end = script.rfind(";\n");
  EXPECT_NE(eq, std::string::npos);
  EXPECT_NE(end, std::string::npos);
  return nlohmann::json::parse(script.substr(eq + 3, end - eq - 3));
}

class StaticExportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    event_ = dir_.path() / "event";
    out_ = dir_.path() / "site";
    fs::create_directories(event_ / "games");
    write_record(event_ / "games" / "001-alice-vs-bob.json",
                 game("alice", "bob", {"B4,N", "C6,NE"}));
    write_record(event_ / "games" / "002-bob-vs-alice.json", game("bob", "alice", {"B4,N"}));
    write_text(event_ / "journal.jsonl", "{}\n");
    write_text(event_ / "standings.md", "# standings\n");
    write_text(event_ / "results.json", results_.dump(2));
  }

  nlohmann::json data() { return assigned(read_text(out_ / "data.js")); }

  TempDir dir_;
  fs::path event_, out_;
  const nlohmann::json results_ = nlohmann::json::parse(R"({
    "format": "arena-tournament-results", "version": 1, "game": "fission",
    "games_played": 2, "games_total": 2, "complete": true,
    "standings": [{"rank": 1, "name": "bob", "points": 2}, {"rank": 1, "name": "alice", "points": 2}],
    "games": [{"game": 1, "white": "alice", "black": "bob", "record": "games/001-alice-vs-bob.json"},
              {"game": 2, "white": "bob", "black": "alice", "record": "games/002-bob-vs-alice.json"}]
  })");
};

TEST_F(StaticExportTest, WritesThePageWithEveryAnswerEmbedded) {
  const StaticExport done = export_static_site(event_, out_);
  EXPECT_EQ(done.games, 2);
  EXPECT_EQ(done.participants, 2);
  for (const char* file : {"index.html", "app.js", "source.js", "boards.js", "charts.js",
                           "tournament_page.js", "game_charts.js", "dom.js", "style.css"})
    EXPECT_TRUE(fs::is_regular_file(out_ / file)) << file;
  EXPECT_NE(read_text(out_ / "index.html").find("<script src=\"data.js\"></script>"),
            std::string::npos);

  const std::string text = read_text(out_ / "data.js");
  EXPECT_EQ(text.rfind("// arena tournament report", 0), 0u);
  EXPECT_NE(text.find("\nwindow.ARENA_EXPORT = {"), std::string::npos);
  const nlohmann::json d = data();
  EXPECT_EQ(d["title"], "event");
  EXPECT_EQ(d["files"], "files/");
  // The tournament as `arena web` gives it: results.json as written, its games.
  const auto& t = d["answers"]["tournament\n\n"];
  EXPECT_EQ(t["results"], results_);
  EXPECT_EQ(t["path"], "");
  EXPECT_EQ(t["games"].size(), 2u);
  EXPECT_EQ(d["answers"]["list\n\n"]["games"].size(), 2u);

  // Each game is a script of its own, with the positions to step through.
  const std::string key = "record\ngames/001-alice-vs-bob.json\n";
  ASSERT_TRUE(d["scripts"].contains(key)) << d["scripts"].dump();
  const std::string script = read_text(out_ / d["scripts"][key].get<std::string>());
  EXPECT_EQ(
      script.rfind("ARENA_EXPORT.answers[\"record\\ngames/001-alice-vs-bob.json\\n\"] = {", 0), 0u);
  const nlohmann::json rec = assigned(script);
  EXPECT_EQ(rec["moves"].size(), 2u);
  EXPECT_EQ(rec["views"].size(), 3u);  // the start and after each ply
  EXPECT_EQ(rec["limit"], (nlohmann::json{{"ms", 1000}, {"clock", "wall"}}));
  EXPECT_EQ(rec["moves"][0]["cpu_ms"], 5);

  // Each participant's moves, for its time chart.
  const std::string alice = "participant\n\nalice";
  ASSERT_TRUE(d["scripts"].contains(alice));
  const nlohmann::json moves = assigned(read_text(out_ / d["scripts"][alice].get<std::string>()));
  ASSERT_EQ(moves["games"].size(), 2u);
  for (const auto& g : moves["games"]) {
    if (g["path"] == "games/001-alice-vs-bob.json") {
      EXPECT_EQ(g["side"], "white");
      EXPECT_EQ(g["opponent"], "bob");
      EXPECT_EQ(g["time_ms"], nlohmann::json::parse("[10]"));
      EXPECT_EQ(g["cpu_ms"], nlohmann::json::parse("[5]"));
    } else {
      EXPECT_EQ(g["side"], "black");
      EXPECT_EQ(g["time_ms"], nlohmann::json::array());
      EXPECT_FALSE(g.contains("cpu_ms"));
    }
  }

  // The records and the event's files beside the page, as they are.
  EXPECT_EQ(read_text(out_ / "files" / "games" / "001-alice-vs-bob.json"),
            read_text(event_ / "games" / "001-alice-vs-bob.json"));
  EXPECT_EQ(read_text(out_ / "files" / "results.json"), read_text(event_ / "results.json"));
  EXPECT_EQ(read_text(out_ / "files" / "standings.md"), "# standings\n");
  EXPECT_FALSE(fs::exists(out_ / "files" / "journal.jsonl"));
}

TEST_F(StaticExportTest, EmbeddedTextIsAsciiJavaScriptWhateverTheRecordsHold) {
  const std::string hostile = "</script><img src=x onerror=alert(1)>\xc3\xa9\xe2\x80\xa8";
  write_record(event_ / "games" / "003.json", game(hostile, "bob", {"B4,N"}));
  export_static_site(event_, out_);
  const nlohmann::json d = data();
  bool found = false;
  for (const auto& [key, file] : d["scripts"].items()) {
    const std::string script = read_text(out_ / file.get<std::string>());
    for (unsigned char c : script) ASSERT_LT(c, 0x80) << file;
    const nlohmann::json answer = assigned(script);
    if (key == "record\ngames/003.json\n") {
      EXPECT_EQ(answer["players"]["white"]["name"], hostile);  // escaped, not altered
      EXPECT_NE(script.find("\\u00e9\\u2028"), std::string::npos);
      found = true;
    }
  }
  EXPECT_TRUE(found);
}

TEST_F(StaticExportTest, AnEarlierReportIsReplacedAnythingElseIsLeftAlone) {
  export_static_site(event_, out_);
  write_text(out_ / "data" / "game-99.js", "stale");
  fs::remove(event_ / "games" / "002-bob-vs-alice.json");
  EXPECT_EQ(export_static_site(event_, out_).games, 1);
  EXPECT_FALSE(fs::exists(out_ / "data" / "game-99.js"));
  EXPECT_FALSE(fs::exists(out_ / "files" / "games" / "002-bob-vs-alice.json"));

  const fs::path foreign = dir_.path() / "foreign";
  write_text(foreign / "notes.txt", "mine");
  EXPECT_THROW(export_static_site(event_, foreign), std::runtime_error);
  EXPECT_EQ(read_text(foreign / "notes.txt"), "mine");
  EXPECT_FALSE(fs::exists(foreign / "index.html"));
}

TEST_F(StaticExportTest, RefusesWhatIsNotATournamentOrWouldWriteIntoIt) {
  const auto message = [&](const fs::path& dir, const fs::path& out) -> std::string {
    try {
      export_static_site(dir, out);
    } catch (const std::runtime_error& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_EQ(message(dir_.path() / "missing", out_),
            (dir_.path() / "missing").string() + " is not a folder");
  write_text(dir_.path() / "plain" / "x.json", "{}");
  EXPECT_NE(message(dir_.path() / "plain", out_).find("is not a tournament folder"),
            std::string::npos);
  EXPECT_NE(message(event_, event_ / "site").find("is inside the tournament folder"),
            std::string::npos);
  EXPECT_NE(message(event_, event_).find("is inside the tournament folder"), std::string::npos);
  EXPECT_FALSE(fs::exists(out_));
}

// ---- the command -----------------------------------------------------------------------------

TEST_F(StaticExportTest, TheCommandWritesTheFolderAndSaysWhere) {
  testing::Process p(
      {ARENA_BINARY, "tournament", "report", event_.string(), "--html", out_.string()});
  ASSERT_EQ(p.wait(30s), 0) << p.out() << p.err();
  EXPECT_NE(p.out().find("Wrote 2 games and 2 participants' pages to " + out_.string()),
            std::string::npos)
      << p.out();
  EXPECT_TRUE(fs::is_regular_file(out_ / "index.html"));
  EXPECT_EQ(data()["answers"]["tournament\n\n"]["results"], results_);
}

TEST_F(StaticExportTest, TheCommandGivesAClearErrorAndExitCode) {
  testing::Process missing({ARENA_BINARY, "tournament", "report", (dir_.path() / "nope").string(),
                            "--html", out_.string()});
  EXPECT_EQ(missing.wait(30s), 1);
  EXPECT_EQ(missing.err(), "error: " + (dir_.path() / "nope").string() + " is not a folder\n");
  EXPECT_FALSE(fs::exists(out_));

  testing::Process inside(
      {ARENA_BINARY, "tournament", "report", event_.string(), "--html", (event_ / "x").string()});
  EXPECT_EQ(inside.wait(30s), 1);
  EXPECT_NE(inside.err().find("is inside the tournament folder"), std::string::npos);

  testing::Process no_out({ARENA_BINARY, "tournament", "report", event_.string()});
  EXPECT_NE(no_out.wait(30s), 0);
  // Without --html it is the standings step, which needs the event's real journal.
  EXPECT_NE(no_out.err().find("not an arena tournament journal"), std::string::npos)
      << no_out.err();
}

TEST(TournamentCommand, ReportIsASubcommandBesideTheGameArgument) {
  testing::Process help({ARENA_BINARY, "tournament", "--help"});
  ASSERT_EQ(help.wait(30s), 0);
  EXPECT_NE(help.out().find("report"), std::string::npos) << help.out();
  // A game is still the positional argument: an unknown one is refused by name.
  testing::Process bad({ARENA_BINARY, "tournament", "chess", "-a", "random", "-a", "greedy"});
  EXPECT_NE(bad.wait(30s), 0);
  EXPECT_NE(bad.err().find("chess"), std::string::npos) << bad.err();
}

}  // namespace
}  // namespace arena::view
