#pragma once
// The course server's routes (docs/course-api.md), grouped by what they serve. Every route that
// shows or changes something goes through `guard`, which answers 401 without credentials, 403 for
// a student on a staff route, and checks CSRF on a cookie's POST.
#include <httplib.h>

#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>

#include "course/caller.hpp"
#include "course/checker.hpp"
#include "course/file_store.hpp"
#include "course/final_tournament.hpp"
#include "course/ladder.hpp"
#include "course/login_limiter.hpp"
#include "course/store.hpp"

namespace arena::course {

struct CourseLimits {
  std::size_t max_upload_bytes = 32u << 20;
  int max_waiting_per_student = 3;  // hand-ins queued or being checked at once
  int max_uploads_per_hour = 20;    // per student (the disk is shared)
  int session_hours = 12;
  bool secure_cookies = false;  // behind an HTTPS proxy: the cookie is Secure
  bool behind_proxy = false;    // the client's address is the last of X-Forwarded-For
};

// An answer kept while the store's generation stays the same (300 students polling the
// leaderboard cost one query per change, not one per poll).
struct CachedAnswer {
  std::mutex mutex;
  std::uint64_t generation = ~std::uint64_t{0};
  std::string body;
};

struct CourseContext {
  Store& store;
  FileStore& files;
  Checker& checker;
  LoginLimiter& limiter;
  Ladder& ladder;
  FinalTournament& final_tournament;
  CourseLimits limits;
  std::string game;
  int move_time_ms = 0;  // ladder games and challenges (0: the game's course limit)
  CachedAnswer leaderboard = {};
};

// Account: the caller's own account (allowed before a one-time password is replaced).
enum class Access { Account, AnyUser, Staff };
using GuardedHandler =
    std::function<void(const httplib::Request&, httplib::Response&, const Caller&)>;
httplib::Server::Handler guard(CourseContext& ctx, Access access, GuardedHandler handler);

void add_session_routes(httplib::Server& server, CourseContext& ctx);
void add_submission_routes(httplib::Server& server, CourseContext& ctx);
void add_game_routes(httplib::Server& server, CourseContext& ctx);
void add_staff_routes(httplib::Server& server, CourseContext& ctx);
void add_page_routes(httplib::Server& server, CourseContext& ctx);
void add_worker_routes(httplib::Server& server, CourseContext& ctx);
void add_ladder_routes(httplib::Server& server, CourseContext& ctx);
void add_final_routes(httplib::Server& server, CourseContext& ctx);

// The requests whose body may be as large as an upload: the upload, a worker's game record.
bool large_body_route(const std::string& method, const std::string& path);

// Helpers the route files share.
// Who is asking, for the login limits and the event log: the peer, or behind a proxy the address
// the proxy names last (the one it saw; earlier entries are whatever the client sent).
std::string client_address(const CourseContext& ctx, const httplib::Request& req);
std::optional<std::int64_t> parse_id(const std::string& text);
// "2026-12-01T23:59", with seconds and a Z or not, as UTC ("2026-12-01T23:59:00Z"); "" stays "".
// nullopt: not such a time.
std::optional<std::string> parse_utc_time(const std::string& text);
// The request's JSON body (an object), or nullopt after answering 400.
std::optional<nlohmann::json> json_body(const httplib::Request& req, httplib::Response& res);
// A hand-in the caller may see (their own, or any for staff), or nullopt after answering 404.
std::optional<Submission> visible_submission(CourseContext& ctx, const Caller& caller,
                                             std::int64_t id, httplib::Response& res);
// A game the caller may see: staff any; a student one where a side is their hand-in, except a
// challenge's, which only its requester sees.
bool may_see_game(CourseContext& ctx, const Caller& caller, const GameRow& game);

}  // namespace arena::course
