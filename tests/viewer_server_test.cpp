// `arena web`'s server on a real socket (port 0): answers over HTTP, refuses what it should
// without stopping, cuts silent clients, and `arena web` itself starts and stops on a signal.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

#include "referee/record.hpp"
#include "support/process.hpp"
#include "support/served_folder.hpp"
#include "support/temp_dir.hpp"
#include "support/test_client.hpp"

namespace arena::view {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using testing::ServedFolder;
using testing::TempDir;
using testing::TestClient;

GameRecord one_move_record() {
  GameRecord r;
  r.game = "fission";
  r.white = {"Alice", "local"};
  r.black = {"Bob", "local"};
  r.moves.push_back({1, Side::White, "B4,N", 10});
  r.outcome = Outcome::Draw;
  r.reason = "move-limit";
  return r;
}

class WebServerTest : public ::testing::Test {
 protected:
  void SetUp() override { write_record(dir_.path() / "g.json", one_move_record()); }

  TempDir dir_;
};

TEST_F(WebServerTest, AnswersOverARealSocket) {
  ServedFolder served(dir_.path());
  auto client = served.client();
  for (int i = 0; i < 2; ++i) {  // twice on one kept-alive connection
    const auto res = client.Get("/api/record?path=g.json");
    ASSERT_TRUE(res) << httplib::to_string(res.error());
    EXPECT_EQ(res->status, 200);
    EXPECT_EQ(res->get_header_value("Content-Type"), "application/json");
    EXPECT_EQ(res->get_header_value("Cache-Control"), "no-store");
    EXPECT_EQ(res->get_header_value("X-Content-Type-Options"), "nosniff");
    EXPECT_EQ(res->get_header_value("Content-Security-Policy").rfind("default-src 'self'", 0), 0u);
    EXPECT_EQ(nlohmann::json::parse(res->body)["views"].size(), 2u);
  }
  // Percent-decoded before the API sees it.
  fs::create_directories(dir_.path() / "a b");
  write_record(dir_.path() / "a b" / "g+h.json", one_move_record());
  EXPECT_EQ(served.get("/api/record?path=a%20b/g%2Bh.json").status, 200);
}

TEST_F(WebServerTest, RefusesTargetsOutsideTheFolder) {
  ServedFolder served(dir_.path());
  for (const char* target :
       {"/api/record?path=../g.json", "/api/record?path=..%2Fg.json",
        "/api/record?path=/etc/passwd", "/api/record?path=%2Fetc%2Fpasswd", "/api/list?path=.."}) {
    const HttpResponse r = served.get(target);
    EXPECT_EQ(r.status, 400) << target;
    EXPECT_EQ(nlohmann::json::parse(r.body)["error"],
              "path must be relative to the served folder, without '..'")
        << target;
  }
  // Targets that are not a path of the site: no page, whatever they name.
  for (const char* target : {"/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "../../etc/passwd",
                             "/etc/passwd", "http://127.0.0.1/etc/passwd"}) {
    const HttpResponse r = served.get(target);
    EXPECT_EQ(r.status, 404) << target;
    EXPECT_EQ(r.body.find("root:"), std::string::npos) << target;
  }
}

TEST_F(WebServerTest, OversizedRequestsAreRefusedAndTheServerGoesOn) {
  ServedFolder served(dir_.path());
  const auto huge_header = served.client().Get("/", {{"X-Big", std::string(100 * 1024, 'a')}});
  ASSERT_TRUE(huge_header) << httplib::to_string(huge_header.error());
  EXPECT_GE(huge_header->status, 400);
  EXPECT_LT(huge_header->status, 500);
  EXPECT_EQ(served.get("/" + std::string(3000, 'a')).status, 414);
  EXPECT_EQ(served.get("/api/list?path=" + std::string(9000, 'a')).status, 414);
  const auto body = served.client().Post("/api/list", std::string(1 << 20, 'x'), "text/plain");
  if (body) {  // else the server closed before reading it all
    EXPECT_EQ(body->status, 413);
  }
  EXPECT_EQ(served.get("/api/record?path=g.json").status, 200);
}

TEST_F(WebServerTest, ASilentClientIsCutWithinTheReadTimeout) {
  ServedFolder served(dir_.path(), 1);
  for (const std::string sent : {"", "GET / HT"}) {
    const auto start = std::chrono::steady_clock::now();
    TestClient silent(served.port());
    if (!sent.empty()) {
      ASSERT_TRUE(silent.send(sent));
    }
    // Meanwhile the server answers others.
    EXPECT_EQ(served.get("/").status, 200);
    EXPECT_EQ(silent.read_to_eof(5s), "") << "sent: " << sent;
    const auto took = std::chrono::steady_clock::now() - start;
    EXPECT_GE(took, 900ms) << "sent: " << sent;  // cut by the timeout, not at once
    EXPECT_LT(took, 3s) << "sent: " << sent;
  }
}

TEST_F(WebServerTest, OtherMethodsAreRefused) {
  ServedFolder served(dir_.path());
  auto client = served.client();
  const auto post = client.Post("/api/list", "{}", "application/json");
  ASSERT_TRUE(post);
  EXPECT_EQ(post->status, 404);
  const auto del = client.Delete("/api/record?path=g.json");
  ASSERT_TRUE(del);
  EXPECT_EQ(del->status, 404);
  TestClient brew(served.port());
  ASSERT_TRUE(brew.send("BREW /pot HTTP/1.1\r\nConnection: close\r\n\r\n"));
  EXPECT_EQ(brew.read_line(5s), "HTTP/1.1 400 Bad Request\r\n");
  EXPECT_TRUE(fs::is_regular_file(dir_.path() / "g.json"));
  EXPECT_EQ(served.get("/api/record?path=g.json").status, 200);
}

// `arena web` as users run it: the address on the first line, then serving until a signal.
TEST(WebServerCommand, ServesUntilSigintOrSigterm) {
  TempDir dir;
  for (const int signo : {SIGINT, SIGTERM}) {
    testing::Process p({ARENA_BINARY, "web", dir.path().string(), "--port", "0"});
    const auto line = p.read_stdout_line(10s);
    ASSERT_TRUE(line) << p.err();
    std::smatch m;
    ASSERT_TRUE(std::regex_match(
        *line, m, std::regex(R"(arena web viewer on http://127\.0\.0\.1:(\d+)/ showing (.*))")))
        << *line;
    EXPECT_EQ(m[2], dir.path().string());
    httplib::Client client("127.0.0.1", std::stoi(m[1]));
    client.set_read_timeout(5, 0);
    const auto res = client.Get("/api/list");
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 200);
    p.kill(signo);
    EXPECT_EQ(p.wait(10s), 0) << p.err();
    EXPECT_NE(p.out().find("Stopping on signal " + std::to_string(signo)), std::string::npos)
        << p.out();
  }
}

TEST(WebServerCommand, SaysWhyItCannotServe) {
  TempDir dir;
  testing::Process missing({ARENA_BINARY, "web", (dir.path() / "missing").string(), "--port", "0"});
  EXPECT_EQ(missing.wait(10s), 1);
  EXPECT_NE(missing.err().find("is not a folder"), std::string::npos) << missing.err();

  ServedFolder taken(dir.path());
  testing::Process busy(
      {ARENA_BINARY, "web", dir.path().string(), "--port", std::to_string(taken.port())});
  EXPECT_EQ(busy.wait(10s), 1);
  EXPECT_NE(busy.err().find("cannot listen on 127.0.0.1:"), std::string::npos) << busy.err();
}

}  // namespace
}  // namespace arena::view
