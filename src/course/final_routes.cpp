// The final tournament: staff start it with a cut-off time; everyone logged in follows it and,
// once it is done, reads its report at /final/ or downloads it as one .tar.gz.
#include <fmt/format.h>

#include <regex>

#include "course/routes.hpp"
#include "view/web_app.hpp"
#include "web/http_server.hpp"

namespace arena::course {
namespace {
namespace fs = std::filesystem;

nlohmann::json final_json(FinalTournament& final_tournament) {
  const FinalState s = final_tournament.state();
  nlohmann::json entrants = nlohmann::json::array();
  for (const FinalEntrant& e : s.entrants)
    entrants.push_back({{"login", e.login}, {"name", e.name}, {"submission", e.submission}});
  nlohmann::json j = {{"state", s.state},        {"cutoff", s.cutoff}, {"ladder", s.ladder},
                      {"shards", s.shards},      {"played", s.played}, {"total", s.total},
                      {"participants", entrants}};
  if (s.state == "failed") j["error"] = s.error;
  if (!s.next.empty()) j["next"] = s.next;
  if (s.state == "done") {
    j["report"] = "/final/";
    j["download"] = "/api/final/download";
  }
  return j;
}

void start(CourseContext& ctx, const httplib::Request& req, httplib::Response& res,
           const Caller& caller) {
  const auto body = json_body(req, res);
  if (!body) return;
  FinalRequest r;
  const auto cutoff = parse_utc_time(body->value("cutoff", std::string()));
  if (!cutoff || cutoff->empty())
    return web::send_error(res, 400, "give 'cutoff' as a UTC time: 2026-12-10T23:59Z");
  r.cutoff = *cutoff;
  const std::string ladder = body->value("ladder", std::string("pause"));
  if (ladder != "pause" && ladder != "continue")
    return web::send_error(res, 400, "'ladder' is 'pause' or 'continue'");
  r.pause_ladder = ladder == "pause";
  r.shards = body->value("shards", 0);
  r.move_time_ms = body->value("move_time_ms", 0);
  if (r.shards < 0 || r.shards > 10000)
    return web::send_error(res, 400, "'shards' is 0 (this machine) to 10000");
  if (r.move_time_ms < 0 || r.move_time_ms > 3'600'000)
    return web::send_error(res, 400, "'move_time_ms' is 0 (the course's) to 3600000");
  try {
    ctx.final_tournament.begin(r, caller.user.login);
  } catch (const std::invalid_argument& e) {
    return web::send_error(res, 400, e.what());
  } catch (const std::logic_error& e) {
    return web::send_error(res, 409, e.what());
  }
  web::send_json(res, final_json(ctx.final_tournament));
  res.status = 202;
}

// A file of the report, or nullopt after answering 404.
std::optional<fs::path> report_file(CourseContext& ctx, const std::string& name,
                                    httplib::Response& res) {
  static const std::regex form(R"([A-Za-z0-9_][A-Za-z0-9._-]*(/[A-Za-z0-9_][A-Za-z0-9._-]*)*)");
  if (!ctx.final_tournament.done() || !std::regex_match(name, form) || name.size() > 300) {
    web::send_error(res, 404, "no such page of the final's report");
    return std::nullopt;
  }
  const fs::path file = ctx.final_tournament.report_dir() / name;
  std::error_code ec;
  if (!fs::is_regular_file(file, ec) || fs::is_symlink(file, ec)) {
    web::send_error(res, 404, "no such page of the final's report");
    return std::nullopt;
  }
  return file;
}

}  // namespace

void add_final_routes(httplib::Server& server, CourseContext& ctx) {
  server.Get("/api/final",
             guard(ctx, Access::AnyUser, [&ctx](const auto&, auto& res, const Caller&) {
               web::send_json(res, final_json(ctx.final_tournament));
             }));
  server.Post("/api/final",
              guard(ctx, Access::Staff, [&ctx](const auto& req, auto& res, const Caller& c) {
                start(ctx, req, res, c);
              }));
  server.Post("/api/final/cancel",
              guard(ctx, Access::Staff, [&ctx](const auto&, auto& res, const Caller& c) {
                if (!ctx.final_tournament.cancel(c.user.login))
                  return web::send_error(res, 409, "no final tournament is running");
                web::send_json(res, final_json(ctx.final_tournament));
              }));
  server.Get("/api/final/download",
             guard(ctx, Access::AnyUser, [&ctx](const auto&, auto& res, const Caller&) {
               std::error_code ec;
               const fs::path file = ctx.final_tournament.download_file();
               if (!ctx.final_tournament.done() || !fs::is_regular_file(file, ec))
                 return web::send_error(res, 404, "the final tournament has no report yet");
               res.set_header("Content-Disposition",
                              "attachment; filename=\"final-report.tar.gz\"");
               if (!web::send_file(res, file, "application/gzip"))
                 return web::send_error(res, 404, "the final tournament has no report yet");
             }));
  server.Get("/final",
             [](const httplib::Request&, httplib::Response& res) { res.set_redirect("/final/"); });
  server.Get(R"(/final/(.*))",
             guard(ctx, Access::AnyUser, [&ctx](const auto& req, auto& res, const Caller&) {
               std::string name = req.matches[1].str();
               if (name.empty()) name = "index.html";
               const auto file = report_file(ctx, name, res);
               if (!file) return;
               if (!web::send_file(res, *file, std::string(view::content_type_for(name))))
                 web::send_error(res, 404, "no such page of the final's report");
             }));
}

}  // namespace arena::course
