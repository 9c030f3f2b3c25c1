// Nothing lost, nothing half shown: a course server killed with SIGKILL while it checks a hand-in
// starts again with every answered upload and checks the interrupted one again; a second server
// on the same folder is refused; hostile uploads get clear errors and leave the server serving;
// the deadline refuses late hand-ins; a backup taken while serving holds the database and files.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "support/course_fixture.hpp"
#include "support/hostile_archives.hpp"
#include "support/leftovers.hpp"

namespace arena {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using testing::CourseServer;
using testing::Process;
using testing::run_arena;

// Whether any process still runs a check of this course (its folder in the command line).
bool check_running(const fs::path& course) {
  for (const auto& p : testing::processes_with(course.string()))
    if (p.find("handin") != std::string::npos) return true;
  return false;
}

TEST(CourseDurability, KillNineWhileCheckingLosesNothing) {
  CourseServer server;
  // A build that takes a while, so the kill finds it under way.
  auto r = server.upload("alice", testing::soccer_zip(server.tmp(), "sleep 4"));
  ASSERT_EQ(r->status, 201) << r->body;
  const auto slow = nlohmann::json::parse(r->body)["id"].get<std::int64_t>();
  r = server.upload("bob", testing::soccer_zip(server.tmp()));
  ASSERT_EQ(r->status, 201);
  const auto queued = nlohmann::json::parse(r->body)["id"].get<std::int64_t>();
  const auto until = std::chrono::steady_clock::now() + 60s;
  std::string state;
  while (std::chrono::steady_clock::now() < until && state != "building") {
    state = nlohmann::json::parse(
        server.get("alice", "/api/submissions/" + std::to_string(slow))->body)["state"];
    std::this_thread::sleep_for(100ms);
  }
  ASSERT_EQ(state, "building");
  server.stop(SIGKILL);
  // The check dies with the server (it would otherwise write into a folder the next one reuses).
  const auto gone_by = std::chrono::steady_clock::now() + 20s;
  while (check_running(server.dir()) && std::chrono::steady_clock::now() < gone_by)
    std::this_thread::sleep_for(100ms);
  EXPECT_FALSE(check_running(server.dir())) << "a check outlived its server";

  server.start();
  const auto a = server.wait_verdict("alice", slow);
  EXPECT_EQ(a["state"], "accepted") << a.dump(2);
  const auto b = server.wait_verdict("bob", queued);
  EXPECT_EQ(b["state"], "accepted") << b.dump(2);
  // Exactly the two uploads, each with its two smoke games (none doubled by the restart).
  const auto all = nlohmann::json::parse(server.get("prof", "/api/submissions")->body);
  EXPECT_EQ(all["submissions"].size(), 2u);
  const auto games = nlohmann::json::parse(
      server.get("alice", "/api/games?submission=" + std::to_string(slow))->body);
  EXPECT_EQ(games["games"].size(), 2u);
  const auto events = nlohmann::json::parse(server.get("prof", "/api/events")->body);
  bool requeued = false;
  for (const auto& e : events["events"]) requeued |= e["action"] == "requeue";
  EXPECT_TRUE(requeued) << events;
}

TEST(CourseDurability, ChecksRunSideBySideWhenAsked) {
  CourseServer server("--checks=2");
  const std::string slow = testing::soccer_zip(server.tmp(), "sleep 4");
  const auto a =
      nlohmann::json::parse(server.upload("alice", slow)->body)["id"].get<std::int64_t>();
  const auto b = nlohmann::json::parse(server.upload("bob", slow)->body)["id"].get<std::int64_t>();
  bool together = false;
  const auto until = std::chrono::steady_clock::now() + 60s;
  while (!together && std::chrono::steady_clock::now() < until) {
    const auto state = [&](const char* who, std::int64_t id) {
      return nlohmann::json::parse(
          server.get(who, "/api/submissions/" + std::to_string(id))->body)["state"];
    };
    together = state("alice", a) == "building" && state("bob", b) == "building";
    std::this_thread::sleep_for(100ms);
  }
  EXPECT_TRUE(together) << "the two hand-ins were never checked at the same time";
  EXPECT_EQ(server.wait_verdict("alice", a)["state"], "accepted");
  EXPECT_EQ(server.wait_verdict("bob", b)["state"], "accepted");
}

TEST(CourseDurability, ASecondServerOnTheFolderIsRefused) {
  CourseServer server;
  Process second({ARENA_BINARY, "course", "serve", server.dir().string(), "--port", "0"});
  const auto code = second.wait(30s);
  ASSERT_TRUE(code.has_value()) << "the second server is serving";
  EXPECT_EQ(*code, 1);
  EXPECT_NE(second.err().find("another server serves"), std::string::npos) << second.err();
  EXPECT_EQ(server.get("alice", "/api/me")->status, 200);
}

TEST(CourseDurability, HostileUploadsGetClearErrors) {
  CourseServer server("--max-upload=1");
  // Over the size limit.
  auto r = server.upload("alice", "PK\x03\x04" + std::string(2 << 20, 'x'));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 413);
  // Not an archive, empty, and no file field at all.
  EXPECT_EQ(server.upload("alice", "#!/bin/sh\nrm -rf /\n")->status, 415);
  EXPECT_EQ(server.upload("alice", "")->status, 400);
  EXPECT_EQ(server.client().Post("/api/submissions", server.as("alice"), "x", "text/plain")->status,
            400);
  // An archive whose entry leaves its folder is taken, then rejected with the reason.
  const fs::path zip = server.tmp() / "evil.zip";
  {
    testing::TestArchive a(zip, testing::ArchiveFormat::Zip);
    a.file("../../escape.txt", "gotcha");
    a.close();
  }
  std::ifstream in(zip, std::ios::binary);
  r = server.upload("alice", std::string((std::istreambuf_iterator<char>(in)), {}),
                    "../../evil.zip");
  ASSERT_EQ(r->status, 201) << r->body;
  const auto v = server.wait_verdict("alice", nlohmann::json::parse(r->body)["id"]);
  EXPECT_EQ(v["state"], "rejected");
  EXPECT_NE(v["reason"].get<std::string>().find(".."), std::string::npos) << v.dump(2);
  EXPECT_EQ(v["file_name"], "evil.zip") << "the name keeps no path";
  EXPECT_FALSE(fs::exists(server.tmp() / "escape.txt"));
  EXPECT_FALSE(fs::exists(server.dir() / "escape.txt"));
  // At most three waiting at once per student.
  const std::string good = testing::soccer_zip(server.tmp(), "sleep 3");
  int refused = 0;
  for (int i = 0; i < 5; ++i) refused += server.upload("bob", good)->status == 429;
  EXPECT_GE(refused, 1);
  EXPECT_EQ(server.get("alice", "/api/me")->status, 200) << "the server still serves";
}

TEST(CourseDurability, HostileArchivesAreRejectedWithTheirReason) {
  CourseServer server;
  const fs::path dir = server.tmp();
  const std::string tag = "arena-course-" + std::to_string(::getpid());
  struct Case {
    std::string file, reason;
  };
  testing::write_absolute_path_archive(dir / "absolute.tar", testing::ArchiveFormat::Tar,
                                       "/tmp/" + tag);
  testing::write_link_to_etc_then_file(dir / "etc.tar", tag);
  testing::write_zip_bomb(dir / "bomb.zip", 300ull << 20);
  testing::write_many_entries(dir / "many.tar.gz", 10'500);
  testing::write_special_file(dir / "device.tar", "null", AE_IFCHR);
  const std::vector<Case> cases = {{"absolute.tar", "absolute"},
                                   {"etc.tar", "link"},
                                   {"bomb.zip", "limit"},
                                   {"many.tar.gz", "entries"},
                                   {"device.tar", "device"}};
  for (const Case& c : cases) {
    std::ifstream in(dir / c.file, std::ios::binary);
    const auto r =
        server.upload("alice", std::string((std::istreambuf_iterator<char>(in)), {}), c.file);
    ASSERT_TRUE(r);
    ASSERT_EQ(r->status, 201) << c.file << ": " << r->body;
    const auto v = server.wait_verdict("alice", nlohmann::json::parse(r->body)["id"]);
    EXPECT_EQ(v["state"], "rejected") << c.file;
    EXPECT_NE(v["reason"].get<std::string>().find(c.reason), std::string::npos)
        << c.file << ": " << v["reason"];
  }
  EXPECT_FALSE(fs::exists("/tmp/" + tag));
  EXPECT_FALSE(fs::exists("/etc/" + tag));
  // A rejected hand-in leaves nothing in the work folder; the course's folders are private.
  EXPECT_TRUE(fs::is_empty(server.dir() / "work"));
  for (const char* sub : {"", "files", "work"})
    EXPECT_EQ(fs::status(server.dir() / sub).permissions() & fs::perms::others_all, fs::perms::none)
        << sub;
  EXPECT_EQ(server.get("alice", "/api/me")->status, 200) << "the server still serves";
}

TEST(CourseDurability, TheDeadlineRefusesLateHandInsWithTheTime) {
  CourseServer server;
  auto r = server.post_json("prof", "/api/deadline", {{"deadline", "2020-01-01T00:00"}});
  ASSERT_EQ(r->status, 200) << r->body;
  EXPECT_EQ(nlohmann::json::parse(r->body)["deadline"], "2020-01-01T00:00:00Z");
  EXPECT_EQ(server.post_json("prof", "/api/deadline", {{"deadline", "tomorrow"}})->status, 400);
  EXPECT_EQ(server.post_json("prof", "/api/deadline", {{"deadline", "2026-13-45 99:99"}})->status,
            400);
  const std::string zip = testing::soccer_zip(server.tmp());
  r = server.upload("alice", zip);
  EXPECT_EQ(r->status, 403);
  EXPECT_NE(r->body.find("the deadline was 2020-01-01T00:00:00Z"), std::string::npos) << r->body;
  EXPECT_EQ(server.upload("prof", zip)->status, 201) << "staff may still test";
  ASSERT_EQ(server.post_json("prof", "/api/deadline", {{"deadline", "2999-01-01T00:00"}})->status,
            200);
  EXPECT_EQ(server.upload("alice", zip)->status, 201);
}

TEST(CourseDurability, ARecheckPlaysNewGamesUnderNewIds) {
  CourseServer server;
  auto r = server.upload("alice", testing::soccer_zip(server.tmp()));
  const auto id = nlohmann::json::parse(r->body)["id"].get<std::int64_t>();
  ASSERT_EQ(server.wait_verdict("alice", id)["state"], "accepted");
  const std::string games_of = "/api/games?submission=" + std::to_string(id);
  const auto before = nlohmann::json::parse(server.get("alice", games_of)->body)["games"];
  ASSERT_EQ(before.size(), 2u);
  EXPECT_EQ(
      server.post_json("alice", "/api/submissions/" + std::to_string(id) + "/recheck", {})->status,
      403);
  ASSERT_EQ(
      server.post_json("prof", "/api/submissions/" + std::to_string(id) + "/recheck", {})->status,
      200);
  EXPECT_EQ(
      server.post_json("prof", "/api/submissions/" + std::to_string(id) + "/recheck", {})->status,
      409)
      << "a second click while it is queued";
  ASSERT_EQ(server.wait_verdict("alice", id)["state"], "accepted");
  const auto after = nlohmann::json::parse(server.get("alice", games_of)->body)["games"];
  ASSERT_EQ(after.size(), 2u);
  // An old link never shows another game: the old ones are gone, the new ones numbered after.
  for (const auto& g : after) EXPECT_GT(g["id"].get<int>(), before[1]["id"].get<int>());
  EXPECT_EQ(server.get("alice", "/api/games/" + before[0]["id"].dump())->status, 404);
  // The file is hers to download, nobody else's.
  const auto file = server.get("alice", "/api/submissions/" + std::to_string(id) + "/file");
  ASSERT_EQ(file->status, 200);
  EXPECT_EQ(file->body.substr(0, 4), "PK\x03\x04");
  EXPECT_EQ(server.get("bob", "/api/submissions/" + std::to_string(id) + "/file")->status, 404);
  EXPECT_EQ(server.get("prof", "/api/submissions/" + std::to_string(id) + "/file")->status, 200);
}

TEST(CourseDurability, ABackupTakenWhileServingRestoresTheCourse) {
  CourseServer server;
  auto r = server.upload("alice", testing::soccer_zip(server.tmp()));
  ASSERT_EQ(r->status, 201);
  const auto id = nlohmann::json::parse(r->body)["id"].get<std::int64_t>();
  const fs::path tar = server.tmp() / "backup.tar";
  int code = 0;
  const auto out = run_arena({"course", "backup", server.dir().string(), tar.string()}, &code);
  ASSERT_EQ(code, 0) << out;
  EXPECT_NE(
      run_arena({"course", "backup", server.dir().string(), tar.string()}, &code).find("exists"),
      std::string::npos);
  EXPECT_EQ(code, 1);
  server.wait_verdict("alice", id);
  server.stop();
  // Restored into a new folder, it serves the same hand-in with its file.
  const fs::path restored = server.tmp() / "restored";
  fs::create_directories(restored);
  Process untar({"/bin/tar", "-xf", tar.string(), "-C", restored.string()});
  ASSERT_EQ(untar.wait(30s), 0) << untar.err();
  EXPECT_TRUE(fs::is_regular_file(restored / "course.db"));
  Process serve({ARENA_BINARY, "course", "serve", restored.string(), "--port", "0", "--no-grade"});
  std::optional<std::string> line;
  while ((line = serve.read_stdout_line(30s)) &&
         line->find("http://127.0.0.1:") == std::string::npos) {
  }
  ASSERT_TRUE(line) << serve.out() << serve.err();
  const int port = std::stoi(line->substr(line->find("127.0.0.1:") + 10));
  httplib::Client c("127.0.0.1", port);
  const auto token = run_arena({"course", "token", restored.string(), "alice"});
  const auto s =
      c.Get("/api/submissions/" + std::to_string(id), {{"Authorization", "Bearer " + token}});
  ASSERT_TRUE(s);
  EXPECT_EQ(s->status, 200) << s->body;
  const auto hash = nlohmann::json::parse(s->body)["hash"].get<std::string>();
  EXPECT_TRUE(fs::is_regular_file(restored / "files" / hash.substr(0, 2) / hash));
  serve.kill(SIGTERM);
  serve.wait(30s);
}

TEST(CourseDurability, TheRosterIsCheckedLineByLine) {
  testing::TempDir tmp;
  // `arena course init` with a roster of this text: its exit status and what it printed.
  const auto init_with = [&](const std::string& name, const std::string& csv) {
    std::ofstream(tmp.path() / name) << csv;
    int code = 0;
    const auto out = run_arena({"course", "init", (tmp.path() / "c").string(), "--game", "soccer",
                                "--roster", (tmp.path() / name).string()},
                               &code);
    return std::pair{code, out};
  };
  auto [code, out] = init_with("bad.csv", "login,name,role\nalice,A,student\nbob,B,teacher\n");
  EXPECT_EQ(code, 1);
  EXPECT_NE(out.find("roster line 3"), std::string::npos) << out;
  std::tie(code, out) = init_with("latin1.csv", "login,name,role\njose,Jos\xE9,student\n");
  EXPECT_EQ(code, 1);
  EXPECT_NE(out.find("roster line 2: not UTF-8"), std::string::npos) << out;
  std::tie(code, out) =
      init_with("dup.csv", "name,login,role\n\"Doe, J\",jd,student\nX,jd,staff\n");
  EXPECT_EQ(code, 1);
  EXPECT_NE(out.find("there twice"), std::string::npos) << out;
  EXPECT_FALSE(fs::exists(tmp.path() / "c" / "course.db"));
}

}  // namespace
}  // namespace arena
