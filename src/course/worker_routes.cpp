// Workers: they lease a job, fetch the hand-ins it plays or checks (by hash, only while they hold
// it), keep the lease alive while they work, and post the game's record or the check's report. A
// worker signs in with its own token, which opens nothing else; a record posted under a lease that
// ran out (the job went to another worker) is refused, so no game counts twice.
#include <fmt/format.h>

#include "course/check_report.hpp"
#include "course/credentials.hpp"
#include "course/routes.hpp"
#include "referee/record.hpp"
#include "sandbox/shell_words.hpp"
#include "web/http_server.hpp"

namespace arena::course {
namespace {

using WorkerHandler =
    std::function<void(const httplib::Request&, httplib::Response&, const std::string& worker)>;

httplib::Server::Handler worker_guard(CourseContext& ctx, WorkerHandler handler) {
  return [&ctx, handler = std::move(handler)](const httplib::Request& req, httplib::Response& res) {
    const std::string authorization = req.get_header_value("Authorization");
    std::optional<std::string> worker;
    if (authorization.starts_with("Bearer ") && authorization.size() <= 7 + kMaxSecret)
      worker = ctx.store.worker_for_token(sha256_hex(authorization.substr(7)));
    if (!worker) {
      res.set_header("WWW-Authenticate", "Bearer");
      return web::send_error(res, 401, "a worker's token is needed (arena course worker-token)");
    }
    ctx.store.worker_seen(*worker, client_address(ctx, req));
    try {
      handler(req, res, *worker);
    } catch (const nlohmann::json::exception& e) {
      web::send_error(res, 400, std::string("bad request: ") + e.what());
    }
  };
}

// One side of a job as the worker needs it: a hand-in to fetch and build, or a built-in agent.
nlohmann::json side_json(CourseContext& ctx, std::optional<std::int64_t> submission,
                         const std::string& agent) {
  if (!submission) return {{"name", agent}, {"agent", agent}};
  const auto s = ctx.store.submission(*submission);
  if (!s) return nullptr;
  return {{"name", fmt::format("{} #{}", s->login, s->id)},
          {"submission", s->id},
          {"hash", s->file_hash},
          {"file_name", checked_file_name(s->file_name)}};
}

// The job this worker holds under `lease`, or nullopt after answering 409.
std::optional<Job> held_job(CourseContext& ctx, const httplib::Request& req, httplib::Response& res,
                            const std::string& worker, const nlohmann::json& body) {
  const auto id = parse_id(req.matches[1]);
  const auto job = id ? ctx.store.job(*id) : std::nullopt;
  const std::string lease = body.value("lease", "");
  if (!job || job->state != "leased" || job->worker != worker || lease.empty() ||
      !same_secret(job->lease, lease)) {
    web::send_error(res, 409, "this job is not yours any more: its lease ran out");
    return std::nullopt;
  }
  return job;
}

// What a worker's lease says: the game's sides, or the hand-in to check and how.
nlohmann::json lease_json(CourseContext& ctx, const Job& job, const std::string& lease) {
  nlohmann::json j{{"job", job.id},    {"kind", job.kind},
                   {"lease", lease},   {"lease_seconds", ctx.ladder.options().lease_seconds},
                   {"game", ctx.game}, {"move_time_ms", ctx.move_time_ms}};
  if (job.kind == "check") {
    const CheckerOptions& check = ctx.checker.options();
    nlohmann::json words = nlohmann::json::array();
    for (const ShellWord& w : shell_words(check.extra_args))
      if (!w.op) words.push_back(w.text);
    j["handin"] = side_json(ctx, job.white_submission, "");
    j["grade"] = check.grade;
    j["check_options"] = std::move(words);
    return j;
  }
  j["white"] = side_json(ctx, job.white_submission, job.white_agent);
  j["black"] = side_json(ctx, job.black_submission, job.black_agent);
  return j;
}

// A worker's check of a hand-in: judged as the server's own checker judges its checks.
void post_check_result(CourseContext& ctx, const nlohmann::json& body, const Job& job,
                       httplib::Response& res) {
  if (!body.contains("report") || !body["report"].is_object())
    return web::send_error(res, 400, "send the check's report as 'report'");
  const CheckReport report = check_report_from_json(body["report"]);
  // A check plays a few smoke games, or the grading's: a report with more is not one.
  if (report.games.size() > kMaxCheckGames)
    return web::send_error(
        res, 400, "a check's report has at most " + std::to_string(kMaxCheckGames) + " games");
  for (const auto& g : report.games)
    if (!g.record.is_object() || g.record.value("game", "") != ctx.game)
      return web::send_error(res, 400, "a game of the report is not a record of the course's game");
  const auto s = job.white_submission ? ctx.store.submission(*job.white_submission) : std::nullopt;
  if (!s) return web::send_error(res, 409, "the hand-in is gone");
  const CheckResult result = judge_check(*s, report, [](std::string text) { return text; });
  if (!ctx.store.finish_check_job(job.id, body.value("lease", ""), s->id, result))
    return web::send_error(res, 409, "this job is not yours any more: its lease ran out");
  if (result.broken)
    ctx.store.log_event(
        "checker", "check-failed",
        fmt::format("hand-in {} on worker {}: {}", s->id, job.worker, result.reason));
  ctx.ladder.wake();
  web::send_json(res, nlohmann::json{{"stored", true}});
}

void post_result(CourseContext& ctx, const httplib::Request& req, httplib::Response& res,
                 const std::string& worker) {
  const auto body = json_body(req, res);
  if (!body) return;
  const auto job = held_job(ctx, req, res, worker, *body);
  if (!job) return;
  if (job->kind == "check") return post_check_result(ctx, *body, *job, res);
  if (!body->contains("record") || !(*body)["record"].is_object())
    return web::send_error(res, 400, "send the game's record as 'record'");
  nlohmann::json record = (*body)["record"];
  GameRecord parsed;
  try {
    parsed = record_from_json(record);
  } catch (const std::exception& e) {
    return web::send_error(res, 400, std::string("not a game record: ") + e.what());
  }
  if (parsed.outcome == Outcome::Ongoing)
    return web::send_error(res, 400, "the game has not ended");
  if (parsed.game != ctx.game)
    return web::send_error(res, 400, "the record is of another game than the course's");
  NewGame game;
  const nlohmann::json white = side_json(ctx, job->white_submission, job->white_agent);
  const nlohmann::json black = side_json(ctx, job->black_submission, job->black_agent);
  game.white = white.value("name", "");
  game.black = black.value("name", "");
  game.white_submission = job->white_submission;
  game.black_submission = job->black_submission;
  game.result = std::string(outcome_key(parsed.outcome));
  game.reason = parsed.reason;
  game.plies = static_cast<int>(parsed.moves.size());
  if (record.contains("players")) {
    record["players"]["white"]["name"] = game.white;
    record["players"]["black"]["name"] = game.black;
  }
  game.record = record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  const auto logs = body->value("logs", nlohmann::json::object());
  for (const auto& [side, submission] :
       {std::pair{"white", job->white_submission}, std::pair{"black", job->black_submission}}) {
    if (!submission || !logs.contains(side) || !logs[side].is_string()) continue;
    std::string log = logs[side].get<std::string>();
    if (log.size() > kMaxKeptLog) log.erase(0, log.size() - kMaxKeptLog);
    game.logs.emplace_back(*submission, std::move(log));
  }
  const std::string lease = body->value("lease", "");
  if (!ctx.store.finish_job(job->id, lease, std::move(game)))
    return web::send_error(res, 409, "this job is not yours any more: its lease ran out");
  ctx.ladder.wake();
  web::send_json(res, nlohmann::json{{"stored", true}});
}

}  // namespace

bool large_body_route(const std::string& method, const std::string& path) {
  if (method != "POST") return false;
  if (path == "/api/submissions") return true;
  return path.starts_with("/api/worker/jobs/") && path.ends_with("/result");
}

void add_worker_routes(httplib::Server& server, CourseContext& ctx) {
  server.Post("/api/worker/lease",
              worker_guard(ctx, [&ctx](const auto& req, auto& res, const std::string& worker) {
                const auto body = json_body(req, res);
                if (!body) return;
                // Checks go only to workers that say they do them (an older worker does not).
                bool checks = false;
                for (const auto& kind : body->value("kinds", nlohmann::json::array()))
                  checks |= kind == "check";
                const std::string lease = random_secret(16);
                const auto seconds = ctx.ladder.options().lease_seconds;
                const auto job = ctx.store.lease_job(worker, lease, unix_now(), seconds,
                                                     !ctx.ladder.paused(), checks);
                if (!job) {
                  res.status = 204;  // nothing to play: ask again later
                  return;
                }
                web::send_json(res, lease_json(ctx, *job, lease));
              }));

  server.Post(R"(/api/worker/jobs/([^/]+)/renew)",
              worker_guard(ctx, [&ctx](const auto& req, auto& res, const std::string& worker) {
                const auto body = json_body(req, res);
                if (!body) return;
                const auto job = held_job(ctx, req, res, worker, *body);
                if (!job) return;
                const auto until = unix_now() + ctx.ladder.options().lease_seconds;
                if (!ctx.store.renew_lease(job->id, job->lease, until))
                  return web::send_error(res, 409, "this job is not yours any more");
                // A check's output so far: its stage, for the student's page.
                if (job->kind == "check" && job->white_submission && body->contains("output") &&
                    (*body)["output"].is_string()) {
                  const CheckProgress p = check_progress(body->value("output", std::string()));
                  if (!p.stage.empty())
                    ctx.store.set_progress(*job->white_submission,
                                           p.built ? "checking" : "building", p.stage);
                }
                web::send_json(res, nlohmann::json{{"lease_expires", until}});
              }));

  server.Post(R"(/api/worker/jobs/([^/]+)/release)",
              worker_guard(ctx, [&ctx](const auto& req, auto& res, const std::string& worker) {
                const auto body = json_body(req, res);
                if (!body) return;
                const auto job = held_job(ctx, req, res, worker, *body);
                if (!job) return;
                ctx.store.release_job(job->id, job->lease);
                ctx.store.log_event(
                    "worker " + worker, "release",
                    fmt::format("{} job {}: {}", job->kind, job->id,
                                body->value("reason", std::string()).substr(0, 500)));
                web::send_json(res, nlohmann::json{{"released", true}});
              }));

  server.Post(R"(/api/worker/jobs/([^/]+)/result)",
              worker_guard(ctx, [&ctx](const auto& req, auto& res, const std::string& worker) {
                post_result(ctx, req, res, worker);
              }));

  // A hand-in's file, to a worker holding a job it plays in; to nobody else.
  server.Get(R"(/api/worker/files/([0-9a-f]{64}))",
             worker_guard(ctx, [&ctx](const auto& req, auto& res, const std::string& worker) {
               const std::string hash = req.matches[1];
               bool held = false;
               for (const Job& j : ctx.store.jobs({"leased"}, 100000)) {
                 if (j.worker != worker) continue;
                 for (const auto& side : {j.white_submission, j.black_submission}) {
                   const auto s = side ? ctx.store.submission(*side) : std::nullopt;
                   if (s && s->file_hash == hash) held = true;
                 }
               }
               if (!held) return web::send_error(res, 404, "no job of yours plays this file");
               if (!web::send_file(res, ctx.files.path(hash), "application/octet-stream"))
                 return web::send_error(res, 500, "the file cannot be read");
             }));
}

}  // namespace arena::course
