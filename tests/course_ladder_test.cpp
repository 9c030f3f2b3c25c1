// The ladder on a real course server: hand-ins accepted, the server's own worker plays them, a
// worker on "another machine" joins over HTTP and is killed mid-game (its game is played again,
// once), staff pause the ladder while challenges go on, a challenge's games are its requester's
// alone, staff re-run a version's games, and a server killed with -9 resumes.
#include <gtest/gtest.h>

#include <csignal>
#include <ctime>
#include <map>
#include <set>

#include "support/course_fixture.hpp"

namespace arena::testing {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;

std::string read_file(const std::filesystem::path& file) {
  std::ifstream in(file);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

json get_json(const CourseServer& s, const std::string& login, const std::string& path) {
  const auto r = s.get(login, path);
  if (!r || r->status != 200) return nullptr;
  return json::parse(r->body);
}

// Polls until `done` holds (true) or the time is up (false).
template <typename Done>
bool wait_until(Done done, std::chrono::seconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < until) {
    if (done()) return true;
    std::this_thread::sleep_for(300ms);
  }
  return false;
}

int games_on_board(const CourseServer& s) {
  int games = 0;
  const json board = get_json(s, "alice", "/api/leaderboard");
  if (board.is_null()) return -1;
  for (const auto& row : board["rows"]) games += row["games"].get<int>();
  return games / 2;
}

std::int64_t hand_in(const CourseServer& s, const std::string& login) {
  const auto r = s.upload(login, soccer_zip(s.tmp()));
  if (!r || r->status != 201) throw std::runtime_error("upload failed");
  const auto id = json::parse(r->body)["id"].get<std::int64_t>();
  if (s.wait_verdict(login, id)["state"] != "accepted") throw std::runtime_error("not accepted");
  return id;
}

TEST(CourseLadder, ATermInMinutes) {
  CourseServer s("", {"--local-games=1", "--move-time=100", "--lease=6", "--ladder-queue=2",
                      "--settle-games=3"});
  const auto alice = hand_in(s, "alice");
  const auto bob = hand_in(s, "bob");

  // The server's own worker plays the ladder; both versions get rated games.
  ASSERT_TRUE(wait_until([&] { return games_on_board(s) >= 3; }, 180s))
      << get_json(s, "prof", "/api/ladder").dump();
  json board = get_json(s, "bob", "/api/leaderboard");
  ASSERT_EQ(board["rows"].size(), 2u);
  for (const auto& row : board["rows"]) {
    EXPECT_TRUE(row["rating"].is_number()) << row.dump();
    EXPECT_TRUE(row["error"].is_number()) << row.dump();
    EXPECT_GE(row["games"].get<int>(), 3);
  }
  const json alice_games = get_json(s, "alice", "/api/games?submission=" + std::to_string(alice));
  std::int64_t ladder_game = 0;
  for (const auto& g : alice_games["games"])
    if (g["kind"] == "ladder") ladder_game = g["id"].get<std::int64_t>();
  ASSERT_NE(ladder_game, 0) << alice_games.dump();
  // Both students see their ladder game and its record; each only their own side's log.
  for (const char* login : {"alice", "bob"}) {
    const json g = get_json(s, login, "/api/games/" + std::to_string(ladder_game));
    ASSERT_FALSE(g.is_null()) << login;
    EXPECT_TRUE(g["rated"].get<bool>());
    EXPECT_TRUE(g["record"]["moves"].is_array());
  }
  const bool alice_white =
      get_json(s, "alice", "/api/games/" + std::to_string(ladder_game))["white_submission"] ==
      alice;
  EXPECT_EQ(s.get("bob", "/api/games/" + std::to_string(ladder_game) + "/log/" +
                             (alice_white ? "white" : "black"))
                ->status,
            404);

  // Workers' routes take workers' tokens only; the ladder's page is staff's.
  EXPECT_EQ(s.post_json("alice", "/api/worker/lease", json::object())->status, 401);
  EXPECT_EQ(s.get("alice", "/api/ladder")->status, 403);
  json ladder = get_json(s, "prof", "/api/ladder");
  ASSERT_FALSE(ladder.is_null());
  ASSERT_EQ(ladder["workers"].size(), 1u);
  EXPECT_EQ(ladder["workers"][0]["name"], "local");

  // A worker on another machine joins over HTTP, and is killed while it plays.
  const std::string token = run_arena({"course", "worker-token", s.dir().string(), "lab1"});
  const std::string url = "http://127.0.0.1:" + std::to_string(s.port()) + "/";
  auto worker = std::make_unique<Process>(
      std::vector<std::string>{ARENA_BINARY, "course", "worker", url, "--token", token, "-j", "1",
                               "--cache", (s.tmp() / "lab1-cache").string(), "--poll", "0.3"});
  std::int64_t killed_job = 0;
  ASSERT_TRUE(wait_until(
      [&] {
        worker->read_stdout_line(10ms);  // its output must not fill the pipe
        const json ladder_now = get_json(s, "prof", "/api/ladder");
        for (const auto& j : ladder_now["playing"])
          if (j["worker"] == "lab1") killed_job = j["id"].get<std::int64_t>();
        return killed_job != 0;
      },
      120s))
      << worker->out() << worker->err() << get_json(s, "prof", "/api/ladder").dump();
  worker->kill(SIGKILL);
  worker->wait(10s);
  // Its lease runs out; the game is played again by the server's worker, and counted once.
  json finished;
  ASSERT_TRUE(wait_until(
      [&] {
        const json ladder_later = get_json(s, "prof", "/api/ladder");
        for (const auto& j : ladder_later["finished"])
          if (j["id"] == killed_job) finished = j;
        return !finished.is_null();
      },
      120s));
  EXPECT_EQ(finished["state"], "done");
  EXPECT_GE(finished["attempts"].get<int>(), 2);
  EXPECT_TRUE(finished["game"].is_number());

  // Paused: no ladder game starts; a challenge still plays. Alice challenges the engine, bob
  // challenges alice's version: bob's games are his, alice does not see them.
  ASSERT_EQ(s.post_json("prof", "/api/ladder", {{"paused", true}})->status, 200);
  ASSERT_TRUE(
      wait_until([&] { return get_json(s, "prof", "/api/ladder")["playing"].empty(); }, 60s));
  const int games_when_paused = games_on_board(s);
  auto r = s.post_json("alice", "/api/challenges",
                       {{"submission", alice}, {"opponent", "engine level=1"}, {"games", 2}});
  ASSERT_EQ(r->status, 201) << r->body;
  r = s.post_json("bob", "/api/challenges",
                  {{"submission", bob}, {"opponent", "alice"}, {"games", 1}});
  ASSERT_EQ(r->status, 201) << r->body;
  EXPECT_EQ(
      s.post_json("bob", "/api/challenges", {{"submission", alice}, {"opponent", "bob"}})->status,
      404);  // not bob's hand-in
  EXPECT_EQ(
      s.post_json("bob", "/api/challenges", {{"submission", bob}, {"opponent", "engine level=9"}})
          ->status,
      400);
  const auto challenges_done = [&](const std::string& login) {
    const json c = get_json(s, login, "/api/challenges");
    for (const auto& j : c["challenges"])
      if (j["state"] != "done") return false;
    return !c["challenges"].empty();
  };
  ASSERT_TRUE(wait_until([&] { return challenges_done("alice") && challenges_done("bob"); }, 180s))
      << get_json(s, "alice", "/api/challenges").dump() << "\n"
      << get_json(s, "bob", "/api/challenges").dump() << "\n"
      << read_file(s.dir() / "worker.log");
  EXPECT_EQ(games_on_board(s), games_when_paused);  // challenges are not rated
  const json bobs = get_json(s, "bob", "/api/challenges");
  const auto bob_game = bobs["challenges"][0]["game"].get<std::int64_t>();
  EXPECT_FALSE(get_json(s, "bob", "/api/games/" + std::to_string(bob_game)).is_null());
  EXPECT_EQ(s.get("alice", "/api/games/" + std::to_string(bob_game))->status, 404);
  const json alice_list = get_json(s, "alice", "/api/games?submission=" + std::to_string(alice));
  for (const auto& g : alice_list["games"]) EXPECT_NE(g["id"], bob_game);
  int engine_games = 0;
  const json alice_games_now =
      get_json(s, "alice", "/api/games?submission=" + std::to_string(alice));
  for (const auto& g : alice_games_now["games"])
    if (g["kind"] == "challenge") {
      ++engine_games;
      EXPECT_FALSE(g["rated"].get<bool>());
      EXPECT_TRUE(g["white"] == "engine level=1" || g["black"] == "engine level=1") << g.dump();
    }
  EXPECT_EQ(engine_games, 2);

  // Staff re-run bob's games: they stop counting and are queued again.
  r = s.post_json("prof", "/api/ladder/rerun", {{"submission", bob}});
  ASSERT_EQ(r->status, 200) << r->body;
  EXPECT_EQ(json::parse(r->body)["games"].get<int>(), games_when_paused);
  EXPECT_EQ(games_on_board(s), 0);
  EXPECT_EQ(s.post_json("alice", "/api/ladder/rerun", {{"submission", bob}})->status, 403);

  // kill -9 of the server, in the middle of the ladder: everything resumes.
  ASSERT_EQ(s.post_json("prof", "/api/ladder", {{"paused", false}})->status, 200);
  ASSERT_TRUE(
      wait_until([&] { return !get_json(s, "prof", "/api/ladder")["playing"].empty(); }, 60s));
  s.stop(SIGKILL);
  s.start();
  ASSERT_TRUE(wait_until([&] { return games_on_board(s) >= games_when_paused; }, 180s));
  ladder = get_json(s, "prof", "/api/ladder");
  EXPECT_FALSE(ladder["paused"].get<bool>());
  std::set<std::int64_t> games;
  for (const auto& j : ladder["finished"]) {
    if (j["game"].is_number()) {
      EXPECT_TRUE(games.insert(j["game"].get<std::int64_t>()).second);
    }
  }
}

}  // namespace
}  // namespace arena::testing

namespace arena::testing {
namespace {

std::string utc_now_text() {
  const std::time_t now = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return text;
}

// Staff start the final with a cut-off: the versions handed in before it play the double
// round-robin (a later one does not), through a kill -9 of the server; the report is served at
// /final/ to everyone logged in and downloadable; nothing outside the report is reachable.
TEST(CourseFinal, PlaysTheVersionsBeforeTheCutoffAndServesTheReport) {
  CourseServer s("", {"--local-games=0", "--move-time=100"});
  const auto alice = hand_in(s, "alice");
  const auto bob = hand_in(s, "bob");
  std::this_thread::sleep_for(1100ms);
  const std::string cutoff = utc_now_text();
  std::this_thread::sleep_for(1100ms);
  hand_in(s, "alice");  // after the cut-off: not in the final

  EXPECT_EQ(get_json(s, "alice", "/api/final")["state"], "none");
  EXPECT_EQ(s.post_json("alice", "/api/final", {{"cutoff", cutoff}})->status, 403);
  EXPECT_EQ(s.post_json("prof", "/api/final", {{"cutoff", "yesterday"}})->status, 400);
  EXPECT_EQ(s.post_json("prof", "/api/final", {{"cutoff", "2000-01-01T00:00Z"}})->status, 400);
  auto r = s.post_json("prof", "/api/final", {{"cutoff", cutoff}, {"ladder", "pause"}});
  ASSERT_EQ(r->status, 202) << r->body;
  json started = json::parse(r->body);
  EXPECT_EQ(started["state"], "running");
  EXPECT_EQ(started["total"], 2);
  ASSERT_EQ(started["participants"].size(), 2u);
  EXPECT_EQ(started["participants"][0]["submission"], alice);
  EXPECT_EQ(started["participants"][1]["submission"], bob);
  EXPECT_TRUE(get_json(s, "prof", "/api/ladder")["paused"].get<bool>());
  EXPECT_EQ(s.get("alice", "/final/")->status, 404);  // not done yet

  s.stop(SIGKILL);  // in the middle: the next start takes it up again
  s.start();
  ASSERT_TRUE(
      wait_until([&] { return get_json(s, "bob", "/api/final")["state"] != "running"; }, 180s));
  const json done = get_json(s, "bob", "/api/final");
  ASSERT_EQ(done["state"], "done") << done.dump();
  EXPECT_EQ(done["played"], 2);

  const auto page = s.get("bob", "/final/");
  ASSERT_EQ(page->status, 200);
  EXPECT_NE(page->body.find("<html"), std::string::npos);
  EXPECT_EQ(s.get("bob", "/final/data.js")->status, 200);
  EXPECT_EQ(s.get("", "/final/")->status, 401);
  for (const char* bad : {"/final/../course.db", "/final/%2e%2e/course.db", "/final/.hidden",
                          "/final//etc/passwd", "/final/files/../../course.db"})
    EXPECT_EQ(s.get("bob", bad)->status, 404) << bad;
  const auto download = s.get("alice", "/api/final/download");
  ASSERT_EQ(download->status, 200);
  ASSERT_GE(download->body.size(), 2u);
  EXPECT_EQ(download->body.substr(0, 2), "\x1f\x8b");
  // Sent in pieces, whole.
  EXPECT_EQ(download->body.size(),
            std::filesystem::file_size(s.dir() / "final" / "final-report.tar.gz"));
}

}  // namespace
}  // namespace arena::testing

namespace arena::testing {
namespace {

// A hand-in that is one of arena's own Paper Soccer players (`soccer-bot ARGS`), as a program
// named bot (the course's convention).
std::string builtin_bot_zip(const std::filesystem::path& dir, const std::string& args) {
  const auto path = dir / ("builtin" + std::to_string(std::rand()) + ".zip");
  {
    TestArchive a(path, ArchiveFormat::Zip);
    a.folder("student/");
    a.file("student/bot",
           std::string("#!/bin/sh\nexec ") + ARENA_BINARY + " soccer-bot --silent " + args + "\n",
           0755);
    a.close();
  }
  return read_file(path);
}

std::int64_t hand_in_bytes(const CourseServer& s, const std::string& login,
                           const std::string& bytes) {
  const auto r = s.upload(login, bytes);
  if (!r || r->status != 201) throw std::runtime_error("upload failed for " + login);
  return json::parse(r->body)["id"].get<std::int64_t>();
}

// Checks on workers: hand-ins wait for one as "check" jobs; a worker on another machine builds
// and checks them (verdict, smoke games, build log, stages on the way, none of its own paths);
// a worker killed mid-check loses the job after its lease and another finishes it.
TEST(CourseLadder, WorkersCheckTheHandIns) {
  CourseServer s("--checks-on-workers", {"--local-games=0", "--lease=6"});
  const auto good = hand_in_bytes(s, "alice", soccer_zip(s.tmp(), "sleep 5"));
  const auto bad = hand_in_bytes(s, "bob", soccer_zip(s.tmp(), "echo no compiler here; false"));
  const auto submission = [&](const std::string& login, std::int64_t id) {
    return get_json(s, login, "/api/submissions/" + std::to_string(id));
  };
  ASSERT_TRUE(
      wait_until([&] { return submission("alice", good)["stage"] == "waiting for a worker"; }, 30s))
      << submission("alice", good).dump();
  const auto check_jobs = [&](const char* list) {
    std::vector<json> found;
    const json ladder = get_json(s, "prof", "/api/ladder");
    for (const auto& j : ladder[list])
      if (j["kind"] == "check") found.push_back(j);
    return found;
  };
  ASSERT_EQ(check_jobs("queued").size(), 2u) << get_json(s, "prof", "/api/ladder").dump();
  // Check options go to workers as words: none a worker decides for itself.
  int refused = 0;
  EXPECT_NE(run_arena({"course", "serve", s.dir().string(), "--port", "0", "--checks-on-workers",
                       "--check-options", "--sandbox off"},
                      &refused)
                .find("--worker-options"),
            std::string::npos);
  EXPECT_EQ(refused, 1);
  // A worker that does not say it checks (an older one) gets no check.
  const std::string old_token =
      run_arena({"course", "worker-token", s.dir().string(), "old-worker"});
  httplib::Client raw("127.0.0.1", s.port());
  const auto old_lease = raw.Post("/api/worker/lease", {{"Authorization", "Bearer " + old_token}},
                                  "{}", "application/json");
  ASSERT_TRUE(old_lease);
  EXPECT_EQ(old_lease->status, 204);
  // Nobody but a worker holding the job gets the file.
  const std::string url = "http://127.0.0.1:" + std::to_string(s.port()) + "/";
  const auto start_worker = [&](const std::string& name) {
    const std::string token = run_arena({"course", "worker-token", s.dir().string(), name});
    return std::make_unique<Process>(std::vector<std::string>{
        ARENA_BINARY, "course", "worker", url, "--token", token, "-j", "1", "--cache",
        (s.tmp() / (name + "-cache")).string(), "--poll", "0.3"});
  };
  auto lab1 = start_worker("lab1");
  std::set<std::string> stages;
  ASSERT_TRUE(wait_until(
      [&] {
        lab1->read_stdout_line(10ms);
        const json now = submission("alice", good);
        stages.insert(now["stage"].get<std::string>());
        return now["state"] == "accepted" || now["state"] == "rejected";
      },
      180s))
      << lab1->out() << lab1->err();
  // The student followed the worker's stages ("recipe: ...", "build: ...", "game 1: ...").
  const auto a_stage = [](const std::string& st) { return st.find(": ") != std::string::npos; };
  EXPECT_TRUE(std::any_of(stages.begin(), stages.end(), a_stage)) << json(stages).dump();
  const json a = submission("alice", good);
  ASSERT_EQ(a["state"], "accepted") << a.dump() << lab1->out();
  int smoke = 0;
  const json games = get_json(s, "alice", "/api/games?submission=" + std::to_string(good));
  for (const auto& g : games["games"]) smoke += g["kind"] == "smoke";
  EXPECT_GE(smoke, 1);
  const json b = s.wait_verdict("bob", bad, 120s);
  ASSERT_EQ(b["state"], "rejected") << b.dump();
  EXPECT_NE(b["build_log"].get<std::string>().find("no compiler here"), std::string::npos)
      << b.dump();
  // The worker's folders are its own business.
  const std::string cache = (s.tmp() / "lab1-cache").string();
  for (const json& v : {a, b}) EXPECT_EQ(v.dump().find(cache), std::string::npos) << v.dump();
  for (const std::string& st : stages) EXPECT_EQ(st.find(cache), std::string::npos) << st;
  const auto finished = check_jobs("finished");
  ASSERT_EQ(finished.size(), 2u);
  for (const auto& j : finished) EXPECT_EQ(j["worker"], "lab1");
  lab1->kill(SIGTERM);
  lab1->wait(10s);

  // Re-checked, held by lab2, which is killed in its check: after its lease, lab3 checks it.
  ASSERT_EQ(
      s.post_json("prof", "/api/submissions/" + std::to_string(good) + "/recheck", json::object())
          ->status,
      200);
  auto lab2 = start_worker("lab2");
  ASSERT_TRUE(wait_until(
      [&] {
        lab2->read_stdout_line(10ms);
        const auto held = check_jobs("playing");
        return !held.empty() && held[0]["worker"] == "lab2" &&
               a_stage(submission("alice", good)["stage"].get<std::string>());
      },
      60s))
      << lab2->out() << get_json(s, "prof", "/api/ladder").dump();
  lab2->kill(SIGKILL);
  lab2->wait(10s);
  auto lab3 = start_worker("lab3");
  const json again = s.wait_verdict("alice", good, 180s);
  EXPECT_EQ(again["state"], "accepted") << again.dump() << lab3->out();
  const auto redone = check_jobs("finished");
  ASSERT_FALSE(redone.empty());
  EXPECT_EQ(redone[0]["worker"], "lab3");
  EXPECT_GE(redone[0]["attempts"].get<int>(), 2);

  // The final plays builds on the server: versions a worker checked are built there first.
  const auto bob_good = hand_in_bytes(s, "bob", soccer_zip(s.tmp()));
  ASSERT_EQ(s.wait_verdict("bob", bob_good, 120s)["state"], "accepted") << lab3->out();
  std::this_thread::sleep_for(1100ms);
  const auto r = s.post_json("prof", "/api/final", {{"cutoff", utc_now_text()}});
  ASSERT_EQ(r->status, 202) << r->body;
  ASSERT_TRUE(
      wait_until([&] { return get_json(s, "bob", "/api/final")["state"] != "running"; }, 120s));
  const json final_state = get_json(s, "bob", "/api/final");
  EXPECT_EQ(final_state["state"], "done") << final_state.dump();
  EXPECT_EQ(final_state["played"], 2);
  EXPECT_TRUE(
      std::filesystem::exists(s.dir() / "final" / ("build-" + std::to_string(good) + ".log")));
}

// Twelve hand-ins (arena's five levels, its random and greedy players, five small C++ bots):
// every version plays; a new version enters and gets its games first.
TEST(CourseLadder, TwelveHandInsAndANewVersion) {
  // Twelve checks, two at once, start four bots at a time: built with the sanitizers each uses
  // about 0.75 s of CPU before its first answer, so on a busy two-core machine the smoke games'
  // first turn needs more than the 2 s of wall clock that a 1 s move time gives.
  CourseServer s(
      "--checks=2",
      {"--local-games=1", "--move-time=100", "--lease=10", "--ladder-queue=3", "--settle-games=4"},
      10, "--move-time 3000");
  std::map<std::string, std::int64_t> ids;
  for (int level = 1; level <= 5; ++level) {
    const std::string login = "s0" + std::to_string(level);
    ids[login] = hand_in_bytes(s, login,
                               builtin_bot_zip(s.tmp(), "--player engine --move-time 30 --level " +
                                                            std::to_string(level)));
  }
  ids["s06"] = hand_in_bytes(s, "s06", builtin_bot_zip(s.tmp(), "--player random --seed 6"));
  ids["s07"] = hand_in_bytes(s, "s07", builtin_bot_zip(s.tmp(), "--player greedy --seed 7"));
  for (const char* login : {"s08", "s09", "s10", "alice", "bob"})
    ids[login] = hand_in_bytes(s, login, soccer_zip(s.tmp()));
  for (const auto& [login, id] : ids)
    ASSERT_EQ(s.wait_verdict(login, id, std::chrono::seconds(300))["state"], "accepted") << login;

  // Every version plays, at least five games each. The ladder seeds the version with the fewest
  // games among the current versions, so a new version of s01 plays until it has caught up with
  // the fewest; and when it enters, the games against the old s01 no longer count. Five games
  // each (pairs met less often are preferred, so hardly ever three against one version) leave
  // every other version at least three that count: the newcomer's first three games come first.
  // With three each, a version that had met the old s01 twice was left with one, and had its
  // games before the newcomer's third.
  const auto fewest_games = [&] {
    const json board = get_json(s, "alice", "/api/leaderboard");
    int fewest = 1 << 30;
    for (const auto& row : board["rows"]) fewest = std::min(fewest, row["games"].get<int>());
    return board["rows"].size() == 12 ? fewest : -1;
  };
  ASSERT_TRUE(wait_until([&] { return fewest_games() >= 5; }, 400s))
      << get_json(s, "alice", "/api/leaderboard").dump();

  // A new version of s01 (now full strength): the old one stops playing, the new one gets the
  // next games.
  const auto v2 =
      hand_in_bytes(s, "s01", builtin_bot_zip(s.tmp(), "--player engine --move-time 30 --level 5"));
  ASSERT_EQ(s.wait_verdict("s01", v2)["state"], "accepted");
  const std::string entered = utc_now_text();
  std::vector<json> after;
  ASSERT_TRUE(wait_until(
      [&] {
        after.clear();
        const json ladder = get_json(s, "prof", "/api/ladder");
        for (const auto& j : ladder["finished"])
          // Strictly later: a game that ended in the same second may have ended before.
          if (j["kind"] == "ladder" && j["state"] == "done" && j["finished"] > entered)
            after.push_back(j);
        return after.size() >= 4;
      },
      240s));
  std::sort(after.begin(), after.end(),
            [](const json& a, const json& b) { return a["id"] < b["id"]; });
  int with_v2 = 0;
  for (std::size_t i = 0; i < 4; ++i)
    with_v2 += after[i]["white_submission"] == v2 || after[i]["black_submission"] == v2;
  // One game may have been under way when it entered: the old version plays no other.
  EXPECT_GE(with_v2, 3) << json(after).dump();
  int with_old = 0;
  for (const auto& j : after)
    with_old += j["white_submission"] == ids["s01"] || j["black_submission"] == ids["s01"];
  EXPECT_LE(with_old, 1) << json(after).dump();
  const json board = get_json(s, "bob", "/api/leaderboard");
  ASSERT_EQ(board["rows"].size(), 12u);
  bool v2_listed = false;
  for (const auto& row : board["rows"]) v2_listed |= row["submission"] == v2;
  EXPECT_TRUE(v2_listed);
}

}  // namespace
}  // namespace arena::testing
