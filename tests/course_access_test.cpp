// The course server's authorization, walked route by route and object by object as an anonymous
// caller, a student, another student and staff, over real HTTP to a real `arena course serve`.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/course_fixture.hpp"

namespace arena {
namespace {

using testing::CourseServer;

struct Expect {
  int anonymous, alice, bob, prof;
};

class CourseAccess : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server_ = new CourseServer();
    const auto r = server_->upload("alice", testing::soccer_zip(server_->tmp()));
    ASSERT_TRUE(r);
    ASSERT_EQ(r->status, 201) << r->body;
    alice_submission_ = nlohmann::json::parse(r->body)["id"];
    const auto verdict = server_->wait_verdict("alice", alice_submission_);
    ASSERT_EQ(verdict["state"], "accepted") << verdict.dump(2);
    const auto games = nlohmann::json::parse(
        server_->get("alice", "/api/games?submission=" + std::to_string(alice_submission_))->body);
    ASSERT_EQ(games["games"].size(), 2u) << games;
    alice_game_ = games["games"][0]["id"];
    alice_side_ = games["games"][0]["white_submission"].is_null() ? "black" : "white";
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }

  static int status(const httplib::Result& r) { return r ? r->status : -1; }

  static CourseServer* server_;
  static std::int64_t alice_submission_;
  static std::int64_t alice_game_;
  static std::string alice_side_;
};

CourseServer* CourseAccess::server_ = nullptr;
std::int64_t CourseAccess::alice_submission_ = 0;
std::int64_t CourseAccess::alice_game_ = 0;
std::string CourseAccess::alice_side_;

TEST_F(CourseAccess, EveryRouteAndObjectAsEveryRole) {
  const std::string a = std::to_string(alice_submission_), g = std::to_string(alice_game_);
  struct Route {
    std::string method, path;
    nlohmann::json body;
    Expect expect;
  };
  const std::vector<Route> routes = {
      {"GET", "/api/me", nullptr, {401, 200, 200, 200}},
      {"GET", "/api/submissions", nullptr, {401, 200, 200, 200}},
      {"GET", "/api/submissions/" + a, nullptr, {401, 200, 404, 200}},
      {"GET", "/api/submissions/999999", nullptr, {401, 404, 404, 404}},
      {"GET", "/api/submissions/x'or'1", nullptr, {401, 404, 404, 404}},
      {"GET", "/api/submissions/" + a + "/file", nullptr, {401, 200, 404, 200}},
      {"GET", "/api/games?submission=" + a, nullptr, {401, 200, 404, 200}},
      {"GET", "/api/games/" + g, nullptr, {401, 200, 404, 200}},
      {"GET", "/api/games/999999", nullptr, {401, 404, 404, 404}},
      {"GET", "/api/games/" + g + "/log/" + alice_side_, nullptr, {401, 200, 404, 200}},
      {"GET", "/view/api/record?path=" + g, nullptr, {401, 200, 404, 200}},
      {"GET", "/view/api/list", nullptr, {401, 200, 200, 200}},
      {"GET", "/api/leaderboard", nullptr, {401, 200, 200, 200}},
      {"GET", "/api/roster", nullptr, {401, 403, 403, 200}},
      {"GET", "/api/events", nullptr, {401, 403, 403, 200}},
      {"POST", "/api/roster/nobody/disabled", {{"disabled", true}}, {401, 403, 403, 404}},
      {"POST", "/api/roster/bob/password", nlohmann::json::object(), {401, 403, 403, 200}},
      {"POST", "/api/deadline", {{"deadline", ""}}, {401, 403, 403, 200}},
      {"POST", "/api/submissions/999999/recheck", nlohmann::json::object(), {401, 403, 403, 404}},
      {"POST", "/api/submissions/" + a + "/excluded", {{"excluded", false}}, {401, 403, 403, 200}},
      {"POST", "/api/password", {{"old", "wrong"}, {"new", "0123456789ab"}}, {401, 403, 403, 403}},
      // The ladder: staff's; challenges: anyone's own version (staff: any).
      {"GET", "/api/ladder", nullptr, {401, 403, 403, 200}},
      {"POST", "/api/ladder", {{"paused", false}}, {401, 403, 403, 200}},
      {"POST", "/api/ladder/rerun", {{"submission", 999999}}, {401, 403, 403, 404}},
      {"GET", "/api/challenges", nullptr, {401, 200, 200, 200}},
      {"POST",
       "/api/challenges",
       {{"submission", alice_submission_}, {"opponent", "engine level=1"}, {"games", 1}},
       {401, 201, 404, 201}},
      {"POST",
       "/api/challenges",
       {{"submission", 999999}, {"opponent", "engine level=1"}},
       {401, 404, 404, 404}},
      // The final: everyone follows it, staff start it; nothing to read before it is done.
      {"GET", "/api/final", nullptr, {401, 200, 200, 200}},
      {"POST", "/api/final", {{"cutoff", "2000-01-01T00:00Z"}}, {401, 403, 403, 400}},
      {"POST", "/api/final/cancel", nlohmann::json::object(), {401, 403, 403, 409}},
      {"GET", "/api/final/download", nullptr, {401, 404, 404, 404}},
      {"GET", "/final/", nullptr, {401, 404, 404, 404}},
      {"GET", "/final/index.html", nullptr, {401, 404, 404, 404}},
      // Workers' routes open to workers' tokens only: no student's or staff's.
      {"POST", "/api/worker/lease", nlohmann::json::object(), {401, 401, 401, 401}},
      {"POST", "/api/worker/jobs/1/renew", {{"lease", "x"}}, {401, 401, 401, 401}},
      {"POST", "/api/worker/jobs/1/release", {{"lease", "x"}}, {401, 401, 401, 401}},
      {"POST", "/api/worker/jobs/1/result", {{"lease", "x"}}, {401, 401, 401, 401}},
      {"GET", "/api/worker/files/" + std::string(64, 'a'), nullptr, {401, 401, 401, 401}},
  };
  const std::vector<std::string> roles = {"", "alice", "bob", "prof"};
  for (const Route& route : routes) {
    const std::vector<int> expected = {route.expect.anonymous, route.expect.alice, route.expect.bob,
                                       route.expect.prof};
    for (std::size_t i = 0; i < roles.size(); ++i) {
      const auto r = route.method == "GET" ? server_->get(roles[i], route.path)
                                           : server_->post_json(roles[i], route.path, route.body);
      EXPECT_EQ(status(r), expected[i])
          << route.method << " " << route.path << " as " << (roles[i].empty() ? "nobody" : roles[i])
          << ": " << (r ? r->body : "no answer");
    }
  }
  // Adding to the roster: staff only.
  for (const std::string role : {"", "alice", "bob"})
    EXPECT_EQ(status(server_->post_json(role, "/api/roster", {{"login", "carol"}})),
              role.empty() ? 401 : 403);
  EXPECT_EQ(status(server_->post_json("prof", "/api/roster", {{"login", "carol"}})), 201);
  EXPECT_EQ(status(server_->post_json("prof", "/api/roster", {{"login", "carol"}})), 409);
  EXPECT_EQ(status(server_->post_json("prof", "/api/roster", {{"login", "../x"}})), 400);
  // Uploading needs someone; a non-archive is refused whoever sends it.
  EXPECT_EQ(status(server_->upload("", "PK\x03\x04 whatever")), 401);
  for (const std::string role : {"alice", "bob", "prof"})
    EXPECT_EQ(status(server_->upload(role, "just text, not an archive")), 415) << role;
  // A bad token is refused as such.
  EXPECT_EQ(status(server_->client().Get("/api/me", {{"Authorization", "Bearer nope"}})), 401);
  EXPECT_EQ(status(server_->client().Get("/api/me", {{"Authorization", "Basic YTpi"}})), 401);
}

// A worker's token opens the workers' routes and nothing else; a worker sees the files of the
// job it holds only, and a lease not its own is refused.
TEST_F(CourseAccess, AWorkersTokenOpensOnlyTheJobItHolds) {
  const std::string token =
      testing::run_arena({"course", "worker-token", server_->dir().string(), "walker"});
  const httplib::Headers worker = {{"Authorization", "Bearer " + token}};
  auto c = server_->client();
  for (const char* path : {"/api/me", "/api/submissions", "/api/ladder", "/api/leaderboard"})
    EXPECT_EQ(status(c.Get(path, worker)), 401) << path;
  const auto hand_in = nlohmann::json::parse(
      server_->get("alice", "/api/submissions/" + std::to_string(alice_submission_))->body);
  const std::string hash = hand_in["hash"];
  ASSERT_EQ(hash.size(), 64u);
  EXPECT_EQ(status(c.Get("/api/worker/files/" + hash, worker)), 404);  // no job held

  // A challenge gives it a job: alice's version against the engine.
  ASSERT_EQ(status(server_->post_json(
                "alice", "/api/challenges",
                {{"submission", alice_submission_}, {"opponent", "engine level=1"}, {"games", 1}})),
            201);
  const auto leased = c.Post("/api/worker/lease", worker, "{}", "application/json");
  ASSERT_EQ(status(leased), 200);
  const auto job = nlohmann::json::parse(leased->body);
  const std::string id = std::to_string(job["job"].get<std::int64_t>());
  EXPECT_EQ(status(c.Get("/api/worker/files/" + hash, worker)), 200);
  EXPECT_EQ(status(c.Get("/api/worker/files/" + std::string(64, 'b'), worker)), 404);
  EXPECT_EQ(status(c.Get("/api/worker/files/../course.db", worker)), 404);
  for (const char* action : {"renew", "result", "release"})
    EXPECT_EQ(status(c.Post("/api/worker/jobs/" + id + "/" + action, worker,
                            R"({"lease": "not the lease"})", "application/json")),
              409)
        << action;
  const nlohmann::json lease = {{"lease", job["lease"]}};
  EXPECT_EQ(
      status(c.Post("/api/worker/jobs/" + id + "/renew", worker, lease.dump(), "application/json")),
      200);
  EXPECT_EQ(
      status(c.Post("/api/worker/jobs/" + id + "/result", worker,
                    nlohmann::json{{"lease", job["lease"]}, {"record", "not a record"}}.dump(),
                    "application/json")),
      400);
  EXPECT_EQ(status(c.Post("/api/worker/jobs/" + id + "/release", worker, lease.dump(),
                          "application/json")),
            200);
  // Given back, the job is not its any more: its file neither.
  EXPECT_EQ(status(c.Get("/api/worker/files/" + hash, worker)), 404);
  EXPECT_EQ(
      status(c.Post("/api/worker/jobs/" + id + "/renew", worker, lease.dump(), "application/json")),
      409);
}

TEST_F(CourseAccess, AStudentSeesOnlyTheirOwnHandInsAndGames) {
  const auto bobs = nlohmann::json::parse(server_->get("bob", "/api/submissions")->body);
  for (const auto& s : bobs["submissions"]) EXPECT_EQ(s["login"], "bob") << s;
  const auto alices = nlohmann::json::parse(server_->get("alice", "/api/submissions")->body);
  ASSERT_FALSE(alices["submissions"].empty());
  for (const auto& s : alices["submissions"]) {
    EXPECT_EQ(s["login"], "alice");
    EXPECT_FALSE(s.contains("build_log")) << "the list carries no logs";
  }
  const auto staff = nlohmann::json::parse(server_->get("prof", "/api/submissions")->body);
  EXPECT_GE(staff["submissions"].size(), alices["submissions"].size());
  const auto bob_list = nlohmann::json::parse(server_->get("bob", "/view/api/list")->body);
  for (const auto& game : bob_list["games"])
    EXPECT_NE(game["path"], std::to_string(alice_game_)) << "bob's viewer lists alice's game";
  const auto alice_list = nlohmann::json::parse(server_->get("alice", "/view/api/list")->body);
  bool listed = false;
  for (const auto& game : alice_list["games"])
    listed |= game["path"] == std::to_string(alice_game_);
  EXPECT_TRUE(listed) << alice_list;
  // Her own verdict has its stages and no path of the server's.
  const auto mine = nlohmann::json::parse(
      server_->get("alice", "/api/submissions/" + std::to_string(alice_submission_))->body);
  ASSERT_TRUE(mine["verdict"].is_object());
  EXPECT_FALSE(mine["verdict"].contains("out"));
  EXPECT_FALSE(mine["verdict"]["stages"].empty());
  // The viewer's answer for her game: positions after every ply.
  const auto record = nlohmann::json::parse(
      server_->get("alice", "/view/api/record?path=" + std::to_string(alice_game_))->body);
  EXPECT_EQ(record["game"], "soccer");
  EXPECT_FALSE(record["moves"].empty());
}

TEST_F(CourseAccess, TheLeaderboardListsAcceptedVersions) {
  const auto board = nlohmann::json::parse(server_->get("bob", "/api/leaderboard")->body);
  bool alice = false;
  for (const auto& row : board["rows"]) {
    for (const char* key : {"rank", "login", "name", "rating", "error", "games", "submission"})
      EXPECT_TRUE(row.contains(key)) << key << " missing in " << row;
    if (row["login"] == "alice") alice = row["submission"] == alice_submission_;
  }
  EXPECT_TRUE(alice) << board;
}

TEST_F(CourseAccess, PagesAreServedWithStrictHeaders) {
  for (const char* path : {"/", "/course.js", "/course.css", "/view/", "/view/app.js"}) {
    const auto r = server_->get("", path);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200) << path;
    EXPECT_NE(r->get_header_value("Content-Security-Policy").find("default-src 'self'"),
              std::string::npos);
    EXPECT_EQ(r->get_header_value("X-Frame-Options"), "DENY");
  }
  EXPECT_EQ(status(server_->get("", "/view/../course.db")), 404);
  EXPECT_EQ(status(server_->get("", "/" + std::string(5000, 'a'))), 414);
}

}  // namespace
}  // namespace arena
