// Logging in to the course server with a browser's cookie: one-time passwords, CSRF tokens and
// the Origin check on every cookie POST, a new session id at every login (no fixation), and
// failed logins slowed down (no brute force). Real HTTP to a real `arena course serve`.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "support/course_fixture.hpp"

namespace arena {
namespace {

using testing::CourseServer;
using testing::run_arena;

// The session cookie's value in a Set-Cookie header, or "".
std::string session_of(const httplib::Result& r) {
  const std::string set = r ? r->get_header_value("Set-Cookie") : "";
  const std::string key = "arena_session=";
  if (set.rfind(key, 0) != 0) return {};
  return set.substr(key.size(), set.find(';') - key.size());
}

httplib::Result login(const CourseServer& s, const std::string& name, const std::string& password,
                      const httplib::Headers& headers = {}) {
  return s.client().Post("/api/login", headers,
                         nlohmann::json{{"login", name}, {"password", password}}.dump(),
                         "application/json");
}

httplib::Headers cookie(const std::string& session, const std::string& csrf = "") {
  httplib::Headers h = {{"Cookie", "arena_session=" + session}};
  if (!csrf.empty()) h.emplace("X-CSRF-Token", csrf);
  return h;
}

TEST(CourseSession, OneTimePasswordThenCsrfOnEveryPost) {
  CourseServer server;
  const std::string one_time = run_arena({"course", "password", server.dir().string(), "alice"});
  ASSERT_GE(one_time.size(), 10u);
  auto r = login(server, "alice", one_time);
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  const std::string set_cookie = r->get_header_value("Set-Cookie");
  EXPECT_NE(set_cookie.find("HttpOnly"), std::string::npos) << set_cookie;
  EXPECT_NE(set_cookie.find("SameSite=Strict"), std::string::npos) << set_cookie;
  std::string session = session_of(r);
  auto me = nlohmann::json::parse(r->body);
  EXPECT_TRUE(me["must_change_password"].get<bool>());
  std::string csrf = me["csrf"];

  // Until she chooses her own password, only her account answers.
  auto c = server.client();
  EXPECT_EQ(c.Get("/api/submissions", cookie(session))->status, 403);
  EXPECT_EQ(c.Get("/api/me", cookie(session))->status, 200);
  const std::string change = nlohmann::json{{"old", one_time}, {"new", "alice-own-pass"}}.dump();
  EXPECT_EQ(c.Post("/api/password", cookie(session), change, "application/json")->status, 403)
      << "no CSRF token";
  EXPECT_EQ(c.Post("/api/password", cookie(session, "forged"), change, "application/json")->status,
            403);
  r = c.Post("/api/password", cookie(session, csrf), change, "application/json");
  ASSERT_EQ(r->status, 200) << r->body;
  EXPECT_EQ(c.Get("/api/me", cookie(session))->status, 401) << "the old session ended";
  session = session_of(r);
  csrf = nlohmann::json::parse(r->body)["csrf"];
  EXPECT_EQ(c.Get("/api/submissions", cookie(session))->status, 200);

  // An upload from her page needs the token, and from another site is refused even with it.
  const std::string zip = testing::soccer_zip(server.tmp());
  httplib::MultipartFormDataItems items = {{"file", zip, "bot.zip", "application/zip"}};
  EXPECT_EQ(c.Post("/api/submissions", cookie(session), items)->status, 403);
  auto evil = cookie(session, csrf);
  evil.emplace("Origin", "http://evil.example");
  EXPECT_EQ(c.Post("/api/submissions", evil, items)->status, 403);
  EXPECT_EQ(c.Post("/api/submissions", cookie(session, csrf), items)->status, 201);
  // The one-time password is spent.
  EXPECT_EQ(login(server, "alice", one_time)->status, 401);
  EXPECT_EQ(login(server, "alice", "alice-own-pass")->status, 200);
  EXPECT_EQ(login(server, "ALICE", "alice-own-pass")->status, 200) << "logins have no case";
  // Logging out ends the session.
  EXPECT_EQ(c.Post("/api/logout", cookie(session, csrf), "", "text/plain")->status, 200);
  EXPECT_EQ(c.Get("/api/me", cookie(session))->status, 401);
}

TEST(CourseSession, APlantedCookieIsNeverTheSession) {
  CourseServer server;
  const std::string password = run_arena({"course", "password", server.dir().string(), "bob"});
  const std::string planted = "planted-by-an-attacker-0123456789abcdef";
  const auto r = login(server, "bob", password, cookie(planted));
  ASSERT_EQ(r->status, 200) << r->body;
  const std::string session = session_of(r);
  EXPECT_FALSE(session.empty());
  EXPECT_NE(session, planted);
  EXPECT_EQ(server.client().Get("/api/me", cookie(planted))->status, 401);
  EXPECT_EQ(server.client().Get("/api/me", cookie(session))->status, 200);
  // A second login gives a second session; a password reset by staff ends both.
  const auto again = login(server, "bob", password);
  EXPECT_NE(session_of(again), session);
  run_arena({"course", "password", server.dir().string(), "bob"});
  EXPECT_EQ(server.client().Get("/api/me", cookie(session))->status, 401);
  EXPECT_EQ(server.client().Get("/api/me", cookie(session_of(again)))->status, 401);
}

TEST(CourseSession, FailedLoginsAreSlowedDown) {
  CourseServer server;
  const std::string password = run_arena({"course", "password", server.dir().string(), "alice"});
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(login(server, "alice", "guess" + std::to_string(i))->status, 401);
  const auto limited = login(server, "alice", "guess-again");
  EXPECT_EQ(limited->status, 429) << limited->body;
  EXPECT_FALSE(limited->get_header_value("Retry-After").empty());
  // While it waits, even the right password is not tried.
  EXPECT_EQ(login(server, "alice", password)->status, 429);
  // A login that does not exist answers like one that does; SQL in a login is only text.
  EXPECT_EQ(login(server, "mallory", "x")->status, 401);
  EXPECT_EQ(login(server, "x' OR '1'='1", "' OR '1'='1")->status, 401);
  // The limit is the login's: bob is not locked out by alice's attacker... up to the address's.
  const std::string bobs = run_arena({"course", "password", server.dir().string(), "bob"});
  EXPECT_EQ(login(server, "bob", bobs)->status, 200);
}

TEST(CourseSession, NobodyCanLockAClassmateOut) {
  CourseServer server("--behind-proxy");
  const std::string password = run_arena({"course", "password", server.dir().string(), "bob"});
  // Someone elsewhere fails on bob's login again and again: they are slowed down...
  const httplib::Headers attacker = {{"X-Forwarded-For", "10.0.0.66"}};
  int limited = 0;
  for (int i = 0; i < 7; ++i) limited += login(server, "bob", "guess", attacker)->status == 429;
  EXPECT_GE(limited, 1);
  // ... bob, from his own address, is not.
  const auto r = login(server, "bob", password, {{"X-Forwarded-For", "10.0.0.7"}});
  EXPECT_EQ(r->status, 200) << r->body;
}

TEST(CourseSession, ALoginComesAsJsonFromThisSiteOnly) {
  CourseServer server;
  const std::string password = run_arena({"course", "password", server.dir().string(), "alice"});
  auto c = server.client();
  const std::string form = "login=alice&password=" + password;
  EXPECT_EQ(c.Post("/api/login", form, "application/x-www-form-urlencoded")->status, 415);
  EXPECT_EQ(
      c.Post(("/api/login?login=alice&password=" + password).c_str(), "", "text/plain")->status,
      415);
  EXPECT_EQ(login(server, "alice", password, {{"Origin", "null"}})->status, 403);
  EXPECT_EQ(login(server, "alice", password, {{"Origin", "http://evil.example"}})->status, 403);
  // Bodies the server will not read: compressed, chunked, or large where no upload is taken.
  const std::string body = nlohmann::json{{"login", "alice"}, {"password", password}}.dump();
  EXPECT_EQ(c.Post("/api/login", {{"Content-Encoding", "gzip"}}, body, "application/json")->status,
            415);
  EXPECT_EQ(c.Post("/api/login", std::string(100'000, ' ') + body, "application/json")->status,
            413);
  EXPECT_EQ(login(server, "alice", password)->status, 200);
}

TEST(CourseSession, DisabledAccountsAreLockedOut) {
  CourseServer server;
  EXPECT_EQ(server.get("alice", "/api/me")->status, 200);
  EXPECT_EQ(server.post_json("prof", "/api/roster/alice/disabled", {{"disabled", true}})->status,
            200);
  EXPECT_EQ(server.get("alice", "/api/me")->status, 401);
  EXPECT_EQ(server.post_json("prof", "/api/roster/prof/disabled", {{"disabled", true}})->status,
            400);
  EXPECT_EQ(server.post_json("prof", "/api/roster/alice/disabled", {{"disabled", false}})->status,
            200);
  EXPECT_EQ(server.get("alice", "/api/me")->status, 200);
  EXPECT_EQ(server.post_json("prof", "/api/roster/alice/disabled", {{"disabled", "yes"}})->status,
            400);
}

}  // namespace
}  // namespace arena
