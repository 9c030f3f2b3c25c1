// Hand-ins: upload, the caller's list (everyone's for staff), one hand-in, and the leaderboard.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>

#include "course/json_views.hpp"
#include "course/routes.hpp"
#include "web/http_server.hpp"

namespace arena::course {
namespace {

// Only what arena can unpack is taken: a zip or jar, a tar, gzip or xz (by their first bytes).
bool looks_like_an_archive(const std::string& b) {
  const auto starts = [&](std::string_view magic) {
    return b.compare(0, magic.size(), magic) == 0;
  };
  return starts("PK\x03\x04") || starts("PK\x05\x06") || starts("\x1f\x8b") ||
         starts(
             "\xfd"
             "7zXZ") ||
         (b.size() > 262 && b.compare(257, 5, "ustar") == 0);
}

// A file name as people may see it: printable ASCII, no path, at most 200 bytes.
std::string clean_file_name(const std::string& name) {
  std::string base =
      name.substr(name.find_last_of("/\\") == std::string::npos ? 0 : name.find_last_of("/\\") + 1);
  std::string out;
  for (char c : base)
    if (c >= 0x20 && c < 0x7f) out += c;
  if (out.size() > 200) out.resize(200);
  return out.empty() ? "handin" : out;
}

void upload(CourseContext& ctx, const httplib::Request& req, httplib::Response& res,
            const Caller& caller) {
  if (!req.has_file("file"))
    return web::send_error(res, 400, "send the hand-in as the multipart form field 'file'");
  const httplib::MultipartFormData file = req.get_file_value("file");
  if (file.content.empty()) return web::send_error(res, 400, "the file is empty");
  if (file.content.size() > ctx.limits.max_upload_bytes)
    return web::send_error(
        res, 413,
        fmt::format("a hand-in may have at most {} MB", ctx.limits.max_upload_bytes >> 20));
  if (!looks_like_an_archive(file.content))
    return web::send_error(res, 415,
                           "this is not an archive: hand in a zip, tar, tar.gz, tar.xz or jar");
  const std::string deadline = ctx.store.setting("deadline").value_or("");
  const std::string now = utc_now();
  if (!caller.staff() && !deadline.empty() && now > deadline)
    return web::send_error(
        res, 403, fmt::format("the deadline was {}; this hand-in came at {}", deadline, now));
  // The file first (synced), then the row: an answered upload is never lost, and a crash in
  // between leaves at most a file nobody points to.
  const std::string hash = ctx.files.put(file.content);
  const NewSubmission added = ctx.store.add_submission(
      caller.user.id, hash, clean_file_name(file.filename),
      static_cast<std::int64_t>(file.content.size()),
      {ctx.limits.max_waiting_per_student, ctx.limits.max_uploads_per_hour});
  if (!added.id) return web::send_error(res, 429, added.refused);
  const auto id = *added.id;
  ctx.store.log_event(caller.user.login, "hand-in",
                      fmt::format("#{} {} ({} bytes, {})", id, clean_file_name(file.filename),
                                  file.content.size(), hash.substr(0, 12)));
  ctx.checker.wake();
  res.set_header("Location", fmt::format("/api/submissions/{}", id));
  web::send_json(res, nlohmann::json{{"id", id}, {"state", "queued"}}, 201);
}

// Ratings are rounded to whole Elo: the fit's digits beyond that are noise.
std::string leaderboard_json(Ladder& ladder) {
  nlohmann::json rows = nlohmann::json::array();
  int rank = 0;
  for (const LadderRow& r : ladder.standings()) {
    const bool rated = r.standing.games > 0;
    rows.push_back({{"rank", ++rank},
                    {"login", r.version.login},
                    {"name", r.version.name},
                    {"rating", rated ? nlohmann::json(std::lround(r.standing.rating)) : nullptr},
                    {"error", rated ? nlohmann::json(std::lround(r.standing.error95)) : nullptr},
                    {"games", r.standing.games},
                    {"settled", r.standing.settled},
                    {"submission", r.version.id},
                    {"accepted", r.version.checked.value_or("")}});
  }
  return nlohmann::json{{"rows", rows}, {"paused", ladder.paused()}}.dump(
      -1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

void add_submission_routes(httplib::Server& server, CourseContext& ctx) {
  server.Post("/api/submissions",
              guard(ctx, Access::AnyUser, [&ctx](const auto& req, auto& res, const Caller& c) {
                upload(ctx, req, res, c);
              }));

  server.Get("/api/submissions",
             guard(ctx, Access::AnyUser, [&ctx](const auto&, auto& res, const Caller& caller) {
               nlohmann::json list = nlohmann::json::array();
               const auto mine = caller.staff() ? std::nullopt : std::optional(caller.user.id);
               for (const Submission& s : ctx.store.submissions(mine))
                 list.push_back(submission_json(s, false));
               web::send_json(res, nlohmann::json{{"submissions", list}});
             }));

  server.Get(R"(/api/submissions/([^/]+))",
             guard(ctx, Access::AnyUser, [&ctx](const auto& req, auto& res, const Caller& caller) {
               const auto id = parse_id(req.matches[1]);
               if (!id) return web::send_error(res, 404, "no such hand-in");
               const auto s = visible_submission(ctx, caller, *id, res);
               if (!s) return;
               web::send_json(res, submission_json(*s, true));
             }));

  // The hand-in's own file, to its owner and staff (a student's code is never anyone else's).
  server.Get(R"(/api/submissions/([^/]+)/file)",
             guard(ctx, Access::AnyUser, [&ctx](const auto& req, auto& res, const Caller& caller) {
               const auto id = parse_id(req.matches[1]);
               if (!id) return web::send_error(res, 404, "no such hand-in");
               const auto s = visible_submission(ctx, caller, *id, res);
               if (!s) return;
               std::ifstream in(ctx.files.path(s->file_hash), std::ios::binary);
               if (!in)
                 return web::send_error(res, 410, "the hand-in's file is gone from the server");
               std::string bytes((std::istreambuf_iterator<char>(in)),
                                 std::istreambuf_iterator<char>());
               res.set_header("Content-Disposition",
                              fmt::format("attachment; filename=\"{}-{}-{}\"", s->login, s->id,
                                          checked_file_name(s->file_name)));
               res.set_content(std::move(bytes), "application/octet-stream");
             }));

  server.Get("/api/leaderboard",
             guard(ctx, Access::AnyUser, [&ctx](const auto&, auto& res, const Caller&) {
               std::lock_guard lock(ctx.leaderboard.mutex);
               const auto generation = ctx.store.generation();
               if (generation != ctx.leaderboard.generation) {
                 ctx.leaderboard.body = leaderboard_json(ctx.ladder);
                 ctx.leaderboard.generation = generation;
               }
               web::send_json(res, ctx.leaderboard.body);
             }));
}

}  // namespace arena::course
