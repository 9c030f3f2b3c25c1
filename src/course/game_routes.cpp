// Games: a hand-in's games, one game's record, a side's own log, and the viewer's answers for the
// games the caller may see (the viewer of `arena web`, served under /view/).
#include <fmt/format.h>

#include "course/json_views.hpp"
#include "course/routes.hpp"
#include "games/registry.hpp"
#include "referee/record.hpp"
#include "view/game_views.hpp"
#include "view/time_limit.hpp"
#include "web/http_server.hpp"

namespace arena::course {
namespace {

// The game, when the caller may see it; else answers 404 (whether it exists is not told).
std::optional<GameRow> visible_game(CourseContext& ctx, const Caller& caller,
                                    const std::string& id_text, httplib::Response& res) {
  const auto id = parse_id(id_text);
  auto g = id ? ctx.store.game(*id) : std::nullopt;
  if (!g || !may_see_game(ctx, caller, *g)) {
    web::send_error(res, 404, "no such game");
    return std::nullopt;
  }
  return g;
}

void viewer_record(CourseContext& ctx, const httplib::Request& req, httplib::Response& res,
                   const Caller& caller) {
  const auto g = visible_game(ctx, caller, req.get_param_value("path"), res);
  if (!g) return;
  const auto text = ctx.store.game_record(g->id);
  const auto j = nlohmann::json::parse(text.value_or(""), nullptr, false);
  if (j.is_discarded()) return web::send_error(res, 422, "the record is not valid JSON");
  const GameRecord r = record_from_json(j);
  nlohmann::json out = view::record_with_views(r);
  out["path"] = std::to_string(g->id);
  out["version"] = "1";  // a stored game never changes
  out["live"] = false;
  out["limit"] = view::move_time_limit(r.settings);
  web::send_json(res, out);
}

void viewer_list(CourseContext& ctx, httplib::Response& res, const Caller& caller) {
  nlohmann::json games = nlohmann::json::array();
  const auto mine = caller.staff() ? std::nullopt : std::optional(caller.user.id);
  for (const GameRow& g : ctx.store.games_of_user(mine, 200)) {
    games.push_back({{"path", std::to_string(g.id)},
                     {"game", ctx.game},
                     {"white", g.white},
                     {"black", g.black},
                     {"winner", g.result},
                     {"reason", g.reason},
                     {"plies", g.plies},
                     {"live", false},
                     {"started_at", g.created}});
  }
  web::send_json(res, nlohmann::json{{"root", "your games"},
                                     {"games", games},
                                     {"tournaments", nlohmann::json::array()},
                                     {"truncated", false}});
}

}  // namespace

void add_game_routes(httplib::Server& server, CourseContext& ctx) {
  server.Get("/api/games",
             guard(ctx, Access::AnyUser, [&ctx](const auto& req, auto& res, const Caller& caller) {
               if (!req.has_param("submission"))
                 return web::send_error(res, 400,
                                        "give ?submission=ID (the hand-in whose games to list)");
               const auto id = parse_id(req.get_param_value("submission"));
               if (!id) return web::send_error(res, 404, "no such hand-in");
               if (!visible_submission(ctx, caller, *id, res)) return;
               // A version plays all term: its smoke games and the newest `limit` others.
               const auto limit = req.has_param("limit")
                                      ? parse_id(req.get_param_value("limit")).value_or(0)
                                      : std::int64_t{200};
               if (limit < 1 || limit > 5000)
                 return web::send_error(res, 400, "give ?limit= from 1 to 5000");
               std::vector<GameRow> shown;
               for (const GameRow& g : ctx.store.games_of_submission(*id))
                 // Others' challenges against this version are theirs.
                 if (!g.requester || caller.staff() || *g.requester == caller.user.id)
                   shown.push_back(g);
               const auto total = static_cast<std::int64_t>(shown.size());
               std::int64_t others = 0;
               for (const GameRow& g : shown) others += g.kind != "smoke";
               nlohmann::json games = nlohmann::json::array();
               for (const GameRow& g : shown)
                 if (g.kind == "smoke" || others-- <= limit) games.push_back(game_json(g));
               web::send_json(res, nlohmann::json{{"games", games}, {"total", total}});
             }));

  server.Get(R"(/api/games/([^/]+))",
             guard(ctx, Access::AnyUser, [&ctx](const auto& req, auto& res, const Caller& caller) {
               const auto g = visible_game(ctx, caller, req.matches[1], res);
               if (!g) return;
               nlohmann::json out = game_json(*g);
               out["record"] = nlohmann::json::parse(ctx.store.game_record(g->id).value_or("null"),
                                                     nullptr, false);
               web::send_json(res, out);
             }));

  // A side's log: its owner's (and staff's) only, even when both may see the game.
  server.Get(
      R"(/api/games/([^/]+)/log/(white|black))",
      guard(ctx, Access::AnyUser, [&ctx](const auto& req, auto& res, const Caller& caller) {
        const auto g = visible_game(ctx, caller, req.matches[1], res);
        if (!g) return;
        const auto side = req.matches[2] == "white" ? g->white_submission : g->black_submission;
        const auto s = side ? ctx.store.submission(*side) : std::nullopt;
        if (!s || (!caller.staff() && s->user_id != caller.user.id))
          return web::send_error(res, 404, "no log of yours for this side");
        res.set_content(ctx.store.game_log(g->id, *side).value_or(""), "text/plain; charset=utf-8");
      }));

  server.Get("/view/api/record",
             guard(ctx, Access::AnyUser, [&ctx](const auto& req, auto& res, const Caller& caller) {
               viewer_record(ctx, req, res, caller);
             }));
  server.Get("/view/api/list",
             guard(ctx, Access::AnyUser, [&ctx](const auto&, auto& res, const Caller& caller) {
               viewer_list(ctx, res, caller);
             }));
  server.Get("/view/api/games", [](const httplib::Request&, httplib::Response& res) {
    nlohmann::json games = nlohmann::json::array();
    for (const GameInfo& g : all_games())
      games.push_back({{"name", g.name}, {"title", g.title}, {"view", g.view != nullptr}});
    web::send_json(res, games);
  });
}

}  // namespace arena::course
