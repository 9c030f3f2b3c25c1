// `arena web`'s JSON API over a folder, asked over HTTP as the page asks it (a server on a free
// port): records with per-ply views, the listing, tournaments, path traversal attempts, HEAD.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>

#include "referee/record.hpp"
#include "support/process.hpp"
#include "support/served_folder.hpp"
#include "support/temp_dir.hpp"
#include "view/web_app.hpp"

namespace arena::view {
namespace {

namespace fs = std::filesystem;
using testing::ServedFolder;
using testing::TempDir;

GameRecord sample_record(std::vector<std::string> moves) {
  GameRecord r;
  r.game = "fission";
  r.white = {"Alice", "local"};
  r.black = {"Bob", "local"};
  r.started_at = "2026-01-02T03:04:05Z";
  Side side = Side::White;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    r.moves.push_back({static_cast<int>(i + 1), side, moves[i], 10});
    side = opposite(side);
  }
  r.outcome = Outcome::Draw;
  r.reason = "move-limit";
  r.detail = "the move limit was reached";
  return r;
}

void write_text(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

class WebAppTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = dir_.path() / "served";
    fs::create_directories(root_ / "run1");
    fs::create_directories(root_ / "cup");
    write_record(root_ / "run1" / "game.json", sample_record({"B4,N", "C6,NE"}));
    write_text(root_ / "run1" / "game.log", "not a record");
    write_text(root_ / "notes.json", "{\"hello\": 1}");
    write_text(dir_.path() / "secret.json", "{\"secret\": true}");
    write_text(root_ / "cup" / "standings.json",
               "{\"zeta\":1,\"alpha\":[{\"name\":\"b\",\"pts\":2}]}");
    write_record(root_ / "cup" / "r1.json", sample_record({"B4,N"}));
    served_ = std::make_unique<ServedFolder>(root_);
  }

  HttpResponse get(const std::string& target) { return served_->get(target); }
  nlohmann::json get_json(const std::string& target) {
    const HttpResponse r = get(target);
    EXPECT_EQ(r.status, 200) << target << ": " << r.body;
    EXPECT_EQ(r.content_type, "application/json");
    return nlohmann::json::parse(r.body);
  }

  TempDir dir_;
  fs::path root_;
  std::unique_ptr<ServedFolder> served_;
};

TEST_F(WebAppTest, ServesThePageBuiltIntoTheProgram) {
  const HttpResponse index = get("/");
  EXPECT_EQ(index.status, 200);
  EXPECT_EQ(index.content_type, "text/html; charset=utf-8");
  EXPECT_NE(index.body.find("<script src=\"app.js\"></script>"), std::string::npos);
  for (const char* asset : {"/app.js", "/boards.js", "/style.css", "/favicon.svg"})
    EXPECT_EQ(get(asset).status, 200) << asset;
  EXPECT_EQ(get("/app.js").content_type, "text/javascript; charset=utf-8");
  EXPECT_EQ(get("/nope.js").status, 404);
  const HttpResponse nope = get("/api/nope");
  EXPECT_EQ(nope.status, 404);
  EXPECT_EQ(nope.content_type, "application/json");  // every error says why
  EXPECT_EQ(nlohmann::json::parse(nope.body),
            (nlohmann::json{{"error", "no such API: /api/nope"}}));
}

TEST_F(WebAppTest, ARecordComesWithThePositionAfterEveryPly) {
  const auto j = get_json("/api/record?path=run1/game.json");
  EXPECT_EQ(j["path"], "run1/game.json");
  EXPECT_EQ(j["live"], false);
  ASSERT_EQ(j["views"].size(), 3u);  // start, after ply 1, after ply 2
  const auto& start = j["views"][0];
  EXPECT_EQ(start["kind"], "grid");
  EXPECT_EQ(start["cells"][1 * 8 + 3], "W");  // B4
  EXPECT_EQ(start["cells"][0 * 8 + 3], "");   // A4
  const auto& after1 = j["views"][1];         // B4,N: the stone slides to the edge, A4
  EXPECT_EQ(after1["cells"][1 * 8 + 3], "");
  EXPECT_EQ(after1["cells"][0 * 8 + 3], "W");
  EXPECT_EQ(after1["toMove"], "black");
  const auto& after2 = j["views"][2];  // C6,NE: over B7 to the corner A8
  EXPECT_EQ(after2["cells"][2 * 8 + 5], "");
  EXPECT_EQ(after2["cells"][0 * 8 + 7], "B");
  EXPECT_FALSE(j.contains("replay_error"));
}

TEST_F(WebAppTest, AnUnchangedRecordCostsNothing) {
  const auto j = get_json("/api/record?path=run1/game.json");
  const std::string version = j["version"];
  const auto again = get_json("/api/record?path=run1/game.json&known=" + version);
  EXPECT_EQ(again, (nlohmann::json{{"unchanged", true}, {"version", version}}));
  auto r = sample_record({"B4,N", "C6,NE", "D6,NE"});
  write_record(root_ / "run1" / "game.json", r);
  const auto changed = get_json("/api/record?path=run1/game.json&known=" + version);
  EXPECT_EQ(changed["views"].size(), 4u);
}

TEST_F(WebAppTest, ALiveRecordIsMarkedLive) {
  write_live_record(root_ / "run1" / "live.json", sample_record({"B4,N"}));
  const auto j = get_json("/api/record?path=run1/live.json");
  EXPECT_EQ(j["live"], true);
  EXPECT_EQ(j["result"]["winner"], "ongoing");
  EXPECT_EQ(j["result"]["reason"], "in-progress");
  const auto list = get_json("/api/list");
  ASSERT_GE(list["games"].size(), 1u);
  EXPECT_EQ(list["games"][0]["path"], "run1/live.json");  // live games first
  EXPECT_EQ(list["games"][0]["live"], true);
}

TEST_F(WebAppTest, AMoveThatCannotBeReplayedStopsTheViewsWithAReason) {
  write_record(root_ / "bad.json", sample_record({"B4,N", "A1,N"}));
  const auto j = get_json("/api/record?path=bad.json");
  EXPECT_EQ(j["views"].size(), 2u);
  EXPECT_EQ(j["replay_error"].get<std::string>().rfind("ply 2: 'A1,N' cannot be replayed: ", 0),
            0u);
}

TEST_F(WebAppTest, ListsRecordsAndTournamentsOnly) {
  const auto j = get_json("/api/list");
  std::vector<std::string> games;
  for (const auto& g : j["games"]) games.push_back(g["path"]);
  std::sort(games.begin(), games.end());
  EXPECT_EQ(games, (std::vector<std::string>{"cup/r1.json", "run1/game.json"}));
  EXPECT_EQ(j["tournaments"], nlohmann::json::parse(R"([{"path":"cup"}])"));
  EXPECT_EQ(j["root"], "served");
  const auto& g = *std::find_if(j["games"].begin(), j["games"].end(),
                                [](const auto& x) { return x["path"] == "run1/game.json"; });
  EXPECT_EQ(g["white"], "Alice");
  EXPECT_EQ(g["black"], "Bob");
  EXPECT_EQ(g["plies"], 2);
  EXPECT_EQ(g["winner"], "draw");
  EXPECT_EQ(g["game"], "fission");
}

TEST_F(WebAppTest, TournamentStandingsKeepTheirOrder) {
  const HttpResponse r = get("/api/tournament?path=cup");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_NE(r.body.find("\"standings\":{\"zeta\":1,\"alpha\":[{\"name\":\"b\",\"pts\":2}]}"),
            std::string::npos)
      << r.body;
  const auto j = nlohmann::json::parse(r.body);
  ASSERT_EQ(j["games"].size(), 1u);
  EXPECT_EQ(j["games"][0]["path"], "cup/r1.json");
  EXPECT_EQ(get("/api/tournament?path=run1").status, 200);  // a folder without standings
  EXPECT_TRUE(get_json("/api/tournament?path=run1")["standings"].is_null());
  EXPECT_TRUE(get_json("/api/tournament?path=run1")["results"].is_null());
}

TEST_F(WebAppTest, AHalfWrittenResultsFileIsReportedNotShown) {
  write_text(root_ / "cup" / "results.json", "{\"standings\": [");
  const auto j = get_json("/api/tournament?path=cup");
  EXPECT_TRUE(j["results"].is_null());
  EXPECT_EQ(j["standings_error"], "results.json is not valid JSON (being rewritten?)");
  EXPECT_EQ(j["standings"]["zeta"], 1);  // standings.json is still shown
}

TEST_F(WebAppTest, ARecordComesWithItsTimeLimit) {
  auto r = sample_record({"B4,N"});
  r.settings = {{"move_time_ms", 1500}};
  write_record(root_ / "timed.json", r);
  EXPECT_EQ(get_json("/api/record?path=timed.json")["limit"],
            (nlohmann::json{{"ms", 1500}, {"clock", "wall"}}));
  r.settings = {{"cpu_per_turn_ms", 3000}};  // Paper Soccer's referee
  write_record(root_ / "timed.json", r);
  EXPECT_EQ(get_json("/api/record?path=timed.json")["limit"],
            (nlohmann::json{{"ms", 3000}, {"clock", "cpu"}}));
  EXPECT_TRUE(get_json("/api/record?path=run1/game.json")["limit"].is_null());  // none given
}

TEST_F(WebAppTest, AParticipantsMovesComeGameByGame) {
  auto r = sample_record({"B4,N", "C6,NE", "D6,NE"});
  r.moves[1].cpu_ms = 7;
  write_record(root_ / "cup" / "r2.json", r);
  const auto j = get_json("/api/participant?path=cup&name=Bob");
  EXPECT_EQ(j["name"], "Bob");
  EXPECT_EQ(j["path"], "cup");
  ASSERT_EQ(j["games"].size(), 2u);
  std::map<std::string, nlohmann::json> by_path;
  for (const auto& g : j["games"]) by_path[g["path"]] = g;
  const auto& r1 = by_path["cup/r1.json"];  // Bob (Black) made no move there
  EXPECT_EQ(r1["side"], "black");
  EXPECT_EQ(r1["opponent"], "Alice");
  EXPECT_EQ(r1["time_ms"], nlohmann::json::array());
  EXPECT_FALSE(r1.contains("cpu_ms"));
  const auto& r2 = by_path["cup/r2.json"];
  EXPECT_EQ(r2["time_ms"], nlohmann::json::parse("[10]"));
  EXPECT_EQ(r2["cpu_ms"], nlohmann::json::parse("[7]"));
  EXPECT_EQ(get_json("/api/participant?path=cup&name=Carol")["games"], nlohmann::json::array());
  EXPECT_EQ(get("/api/participant?path=cup").status, 400);
  EXPECT_EQ(get("/api/participant?path=cup&name=" + std::string(200, 'x')).status, 400);
  EXPECT_EQ(get("/api/participant?path=../cup&name=Bob").status, 400);
  EXPECT_EQ(get("/api/participant?path=nope&name=Bob").status, 404);
}

// A folder written by `arena tournament` (journal.jsonl, results.json, standings.md, games/):
// the viewer lists it as a tournament and shows the standings of its results.json.
TEST_F(WebAppTest, ARealTournamentFolderShowsItsStandings) {
  using namespace std::chrono_literals;
  const fs::path event = root_ / "event";
  testing::Process p({ARENA_BINARY, "tournament", "fission", "-a", "rnd: random", "-a", "greedy",
                      "--seed", "5", "--warmup", "0", "--moves-per-player", "8", "-j", "1", "-o",
                      event.string()});
  ASSERT_EQ(p.wait(60s), 0) << p.out() << p.err();
  ASSERT_TRUE(fs::is_regular_file(event / "journal.jsonl"));
  ASSERT_FALSE(fs::exists(event / "standings.json"));
  nlohmann::json results;
  std::ifstream(event / "results.json") >> results;

  const auto list = get_json("/api/list");
  EXPECT_NE(std::find(list["tournaments"].begin(), list["tournaments"].end(),
                      nlohmann::json{{"path", "event"}}),
            list["tournaments"].end())
      << list.dump();
  const auto j = get_json("/api/tournament?path=event");
  EXPECT_FALSE(j.contains("standings_error")) << j.dump();
  EXPECT_EQ(j["games"].size(), 2u);  // a double round robin of two: the records, not results.json
  for (const auto& g : j["games"])
    EXPECT_EQ(g["path"].get<std::string>().rfind("event/games/", 0), 0u) << g.dump();
  // results.json as it is, keys in the order written: the page draws the standings from it.
  EXPECT_EQ(j["results"], results);
  std::ifstream file(event / "results.json");
  const auto as_written = nlohmann::ordered_json::parse(file);
  EXPECT_NE(get("/api/tournament?path=event").body.find("\"results\":" + as_written.dump()),
            std::string::npos);
  EXPECT_TRUE(j["standings"].is_null());

  // Each participant's moves: as many as it made in its records.
  for (const auto& row : results["standings"]) {
    const std::string name = row["name"];
    const auto moves = get_json("/api/participant?path=event&name=" + name);
    ASSERT_EQ(moves["games"].size(), 2u) << moves.dump();
    for (const auto& g : moves["games"]) {
      GameRecord rec = read_record(root_ / g["path"].get<std::string>());
      const Side side = g["side"] == "white" ? Side::White : Side::Black;
      EXPECT_EQ(rec.player(side).name, name);
      std::vector<std::int64_t> times;
      for (const auto& m : rec.moves)
        if (m.side == side) times.push_back(m.time_ms);
      EXPECT_EQ(g["time_ms"], nlohmann::json(times));
      EXPECT_EQ(g["limit"]["clock"], "wall");
    }
  }
}

TEST_F(WebAppTest, NothingOutsideTheFolderCanBeReached) {
  fs::create_symlink(dir_.path() / "secret.json", root_ / "link.json");
  fs::create_directory_symlink(dir_.path(), root_ / "up");
  struct Case {
    std::string target;
    int status;
  };
  const Case cases[] = {
      {"/api/record?path=../secret.json", 400},
      {"/api/record?path=..%2Fsecret.json", 400},
      {"/api/record?path=run1/../../secret.json", 400},
      {"/api/record?path=%2E%2E/secret.json", 400},
      {"/api/record?path=/etc/passwd", 400},
      {"/api/record?path=./run1/game.json", 400},
      {"/api/record?path=run1//game.json", 400},
      {"/api/record?path=", 400},
      {"/api/record", 400},
      {"/api/record?path=link.json", 404},       // a symlink out of the folder
      {"/api/record?path=up/secret.json", 404},  // a folder symlink out of it
      {"/api/record?path=missing.json", 404},
      {"/api/record?path=run1", 404},           // a folder is not a record
      {"/api/record?path=run1/game.log", 422},  // not JSON
      {"/api/record?path=notes.json", 422},     // JSON, not a record
      {"/api/list?path=..", 400},
      {"/api/list?path=up", 404},
      {"/api/list?path=run1/game.json", 404},
      {"/api/tournament?path=../", 400},
      {"/../secret.json", 404},  // static files come only from the program
      {"/%2e%2e/secret.json", 404},
  };
  for (const Case& c : cases) {
    const HttpResponse r = get(c.target);
    EXPECT_EQ(r.status, c.status) << c.target << ": " << r.body;
    EXPECT_EQ(r.body.find("secret\": true"), std::string::npos) << c.target;
  }
  // The listing does not follow symlinks either.
  EXPECT_EQ(get("/api/list").body.find("secret"), std::string::npos);
}

TEST_F(WebAppTest, OversizedRecordsAreRefusedNotRead) {
  write_text(root_ / "huge.json", std::string(kMaxRecordBytes + 1, ' '));
  const HttpResponse r = get("/api/record?path=huge.json");
  EXPECT_EQ(r.status, 422);
  EXPECT_NE(r.body.find("larger than"), std::string::npos);
}

TEST_F(WebAppTest, HeadGivesHeadersOnly) {
  for (const char* target : {"/", "/api/record?path=run1/game.json", "/api/nope"}) {
    auto client = served_->client();
    const auto head = client.Head(target);
    ASSERT_TRUE(head) << target;
    const HttpResponse full = get(target);
    EXPECT_EQ(head->status, full.status) << target;
    EXPECT_EQ(head->get_header_value("Content-Type"), full.content_type) << target;
    EXPECT_EQ(head->get_header_value("Content-Length"), std::to_string(full.body.size())) << target;
    EXPECT_TRUE(head->body.empty()) << target;
  }
}

TEST(WebAppRoot, MustBeAFolder) {
  TempDir dir;
  EXPECT_THROW(WebApp(dir.path() / "missing"), std::runtime_error);
  std::ofstream(dir.path() / "file") << "x";
  EXPECT_THROW(WebApp(dir.path() / "file"), std::runtime_error);
}

TEST(WebAppRoot, AnswersGetAndHeadOnly) {
  TempDir dir;
  WebApp app(dir.path());
  EXPECT_EQ(app.handle({"GET", "/api/list", {}}).status, 200);
  EXPECT_EQ(app.handle({"HEAD", "/api/list", {}}).status, 200);
  EXPECT_EQ(app.handle({"POST", "/api/list", {}}).status, 405);
}

}  // namespace
}  // namespace arena::view
