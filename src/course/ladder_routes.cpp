// The ladder's routes: for staff, its state (paused or not, workers, the games being played and
// queued), pausing it, and playing again the games of a version or a time span; for students,
// challenges (unrated games of their version against one of their own, a classmate's current
// version or a built-in engine level), whose games and records are theirs alone.
#include <fmt/format.h>

#include <regex>

#include "course/course_dir.hpp"
#include "course/routes.hpp"
#include "web/http_server.hpp"

namespace arena::course {
namespace {

constexpr int kMaxChallengeGames = 10;
constexpr int kMaxOpenChallengeGames = 20;  // a student's challenge games waiting at once

nlohmann::json optional_id(std::optional<std::int64_t> id) {
  return id ? nlohmann::json(*id) : nlohmann::json(nullptr);
}

// A job as the pages show it: its sides named ("alice #12" or "engine level=3"), its game's
// result once played.
nlohmann::json job_json(CourseContext& ctx, const Job& j) {
  const auto name = [&](std::optional<std::int64_t> submission, const std::string& agent) {
    if (!submission) return agent;
    const auto s = ctx.store.submission(*submission);
    return fmt::format("{} #{}", s ? s->login : "?", *submission);
  };
  std::string result, reason;
  if (j.game_id)
    if (const auto g = ctx.store.game(*j.game_id)) {
      result = g->result;
      reason = g->reason;
    }
  return {{"id", j.id},
          {"white_name", name(j.white_submission, j.white_agent)},
          {"black_name", j.kind == "check" ? std::string("(its check)")
                                           : name(j.black_submission, j.black_agent)},
          {"result", result},
          {"reason", reason},
          {"kind", j.kind},
          {"white_submission", optional_id(j.white_submission)},
          {"black_submission", optional_id(j.black_submission)},
          {"white_agent", j.white_agent},
          {"black_agent", j.black_agent},
          {"state", j.state},
          {"worker", j.worker},
          {"lease_expires", j.lease_expires},
          {"attempts", j.attempts},
          {"game", optional_id(j.game_id)},
          {"created", j.created},
          {"finished", j.finished}};
}

// An engine opponent: "engine level=K", K from 1 to 5 (docs/levels.md).
std::optional<std::string> engine_opponent(const std::string& text) {
  static const std::regex form(R"(engine level=([1-5]))");
  std::smatch m;
  if (!std::regex_match(text, m, form)) return std::nullopt;
  return "engine level=" + m[1].str();
}

void ladder_state(CourseContext& ctx, httplib::Response& res) {
  nlohmann::json workers = nlohmann::json::array();
  for (const WorkerRow& w : ctx.store.workers())
    workers.push_back({{"name", w.name},
                       {"created", w.created},
                       {"last_seen", w.last_seen},
                       {"address", w.address},
                       {"games", w.games}});
  nlohmann::json playing = nlohmann::json::array(), queued = nlohmann::json::array();
  for (const Job& j : ctx.store.jobs({"leased", "queued"}, 500))
    (j.state == "leased" ? playing : queued).push_back(job_json(ctx, j));
  nlohmann::json finished = nlohmann::json::array();
  for (const Job& j : ctx.store.finished_jobs(50)) finished.push_back(job_json(ctx, j));
  web::send_json(res, nlohmann::json{{"paused", ctx.ladder.paused()},
                                     {"workers", workers},
                                     {"playing", playing},
                                     {"queued", queued},
                                     {"finished", finished}});
}

void rerun(CourseContext& ctx, const httplib::Request& req, httplib::Response& res,
           const Caller& caller) {
  const auto body = json_body(req, res);
  if (!body) return;
  std::optional<std::int64_t> submission;
  if (body->contains("submission")) {
    submission = (*body)["submission"].get<std::int64_t>();
    if (!ctx.store.submission(*submission)) return web::send_error(res, 404, "no such hand-in");
  }
  auto from = parse_utc_time(body->value("from", std::string()));
  auto to = parse_utc_time(body->value("to", std::string()));
  if (from && from->empty()) from = "0000";  // from the start
  if (to && to->empty()) to = "9999";        // to the end
  if (!from || !to)
    return web::send_error(res, 400, "give 'from' and 'to' as UTC times: 2026-12-01T10:00Z");
  if (!submission && body->value("from", std::string()).empty() &&
      body->value("to", std::string()).empty())
    return web::send_error(res, 400, "give a hand-in ('submission') or a time span (from, to)");
  const int queued = ctx.store.rerun_ladder_games(submission, *from, *to);
  ctx.store.log_event(
      caller.user.login, "rerun",
      fmt::format("{} ladder game(s) of {} from {} to {} played again", queued,
                  submission ? "hand-in " + std::to_string(*submission) : "all", *from, *to));
  ctx.ladder.wake();
  web::send_json(res, nlohmann::json{{"games", queued}});
}

void challenge(CourseContext& ctx, const httplib::Request& req, httplib::Response& res,
               const Caller& caller) {
  const auto body = json_body(req, res);
  if (!body) return;
  const auto mine =
      visible_submission(ctx, caller, body->value("submission", std::int64_t{0}), res);
  if (!mine) return;
  if (mine->state != "accepted" || mine->excluded)
    return web::send_error(res, 409,
                           "only an accepted hand-in that staff have not excluded can play");
  const int games = body->value("games", 2);
  if (games < 1 || games > kMaxChallengeGames)
    return web::send_error(res, 400,
                           fmt::format("a challenge has 1 to {} games", kMaxChallengeGames));

  // The opponent: "engine level=K", a login (their current version) or a hand-in of one's own.
  Job proto;
  proto.kind = "challenge";
  proto.requester = caller.user.id;
  std::optional<std::int64_t> opponent;
  std::string agent, described;
  const auto& o = (*body)["opponent"];
  if (o.is_number_integer()) {
    const auto theirs = visible_submission(ctx, caller, o.get<std::int64_t>(), res);
    if (!theirs) return;
    if (theirs->state != "accepted" || theirs->excluded)
      return web::send_error(res, 409,
                             "only an accepted hand-in that staff have not excluded can play");
    opponent = theirs->id;
    described = fmt::format("hand-in {}", theirs->id);
  } else if (o.is_string() && o.get<std::string>().starts_with("engine")) {
    const auto engine = engine_opponent(o.get<std::string>());
    if (!engine)
      return web::send_error(res, 400, "an engine opponent is 'engine level=K', K from 1 to 5");
    agent = *engine;
    described = agent;
  } else if (o.is_string()) {
    const std::string login = normalize_login(o.get<std::string>());
    for (const Submission& s : ctx.store.current_versions())
      if (s.login == login) opponent = s.id;
    if (!opponent) return web::send_error(res, 404, "that student has no version on the ladder");
    described = login + "'s current version";
  } else {
    return web::send_error(res, 400,
                           "give 'opponent': a hand-in id of yours, a login, or 'engine level=K' "
                           "(K from 1 to 5)");
  }
  std::vector<Job> jobs;
  for (int i = 0; i < games; ++i) {
    Job j = proto;
    const bool white = i % 2 == 0;
    (white ? j.white_submission : j.black_submission) = mine->id;
    (white ? j.black_submission : j.white_submission) = opponent;
    (white ? j.black_agent : j.white_agent) = agent;
    jobs.push_back(j);
  }
  // Counted and queued in one transaction: parallel requests cannot pass the limit together.
  if (const int open = ctx.store.add_challenge_jobs(caller.user.id, jobs, kMaxOpenChallengeGames);
      open >= 0)
    return web::send_error(res, 429,
                           fmt::format("{} of your challenge games are still waiting: at most "
                                       "{} may wait at once",
                                       open, kMaxOpenChallengeGames));
  ctx.store.log_event(caller.user.login, "challenge",
                      fmt::format("hand-in {} against {}, {} game(s)", mine->id, described, games));
  web::send_json(res, nlohmann::json{{"games", games}, {"opponent", described}});
  res.status = 201;
}

}  // namespace

void add_ladder_routes(httplib::Server& server, CourseContext& ctx) {
  server.Get("/api/ladder",
             guard(ctx, Access::Staff,
                   [&ctx](const auto&, auto& res, const Caller&) { ladder_state(ctx, res); }));
  server.Post("/api/ladder",
              guard(ctx, Access::Staff, [&ctx](const auto& req, auto& res, const Caller& c) {
                const auto body = json_body(req, res);
                if (!body) return;
                if (!body->contains("paused") || !(*body)["paused"].is_boolean())
                  return web::send_error(res, 400, "give 'paused': true or false");
                const bool paused = (*body)["paused"] == true;
                ctx.ladder.set_paused(paused);
                ctx.store.log_event(c.user.login, paused ? "ladder-pause" : "ladder-resume", "");
                ladder_state(ctx, res);
              }));
  server.Post("/api/ladder/rerun",
              guard(ctx, Access::Staff, [&ctx](const auto& req, auto& res, const Caller& c) {
                rerun(ctx, req, res, c);
              }));

  server.Get("/api/challenges",
             guard(ctx, Access::AnyUser, [&ctx](const auto&, auto& res, const Caller& c) {
               nlohmann::json out = nlohmann::json::array();
               for (const Job& j : ctx.store.challenges_of(c.user.id, 200))
                 out.push_back(job_json(ctx, j));
               web::send_json(res, nlohmann::json{{"challenges", out}});
             }));
  server.Post("/api/challenges",
              guard(ctx, Access::AnyUser, [&ctx](const auto& req, auto& res, const Caller& c) {
                challenge(ctx, req, res, c);
              }));
}

}  // namespace arena::course
