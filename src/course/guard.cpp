#include "course/routes.hpp"
#include "web/http_server.hpp"

namespace arena::course {

httplib::Server::Handler guard(CourseContext& ctx, Access access, GuardedHandler handler) {
  return [&ctx, access, handler = std::move(handler)](const httplib::Request& req,
                                                      httplib::Response& res) {
    const Authenticated auth = authenticate(ctx.store, req);
    if (!auth.caller) {
      const char* why = auth.failure == AuthFailure::Disabled         ? "this account is disabled"
                        : auth.failure == AuthFailure::BadCredentials ? "the token is not valid"
                                                                      : "log in first";
      res.set_header("WWW-Authenticate", "Bearer");
      return web::send_error(res, 401, why);
    }
    const Caller& caller = *auth.caller;
    if (req.method != "GET" && req.method != "HEAD") {
      if (const auto problem = csrf_problem(caller, req))
        return web::send_error(res, 403, *problem);
    }
    if (access != Access::Account && caller.by_session && caller.user.must_change_password)
      return web::send_error(res, 403, "choose your own password first (POST /api/password)");
    if (access == Access::Staff && !caller.staff())
      return web::send_error(res, 403, "for staff only");
    try {
      handler(req, res, caller);
    } catch (const nlohmann::json::exception& e) {
      // A field of the wrong type in a JSON body.
      web::send_error(res, 400, std::string("bad request: ") + e.what());
    }
  };
}

std::string client_address(const CourseContext& ctx, const httplib::Request& req) {
  if (!ctx.limits.behind_proxy) return req.remote_addr;
  const std::string forwarded = req.get_header_value("X-Forwarded-For");
  const auto comma = forwarded.rfind(',');
  std::string last = forwarded.substr(comma == std::string::npos ? 0 : comma + 1);
  while (!last.empty() && last.front() == ' ') last.erase(last.begin());
  if (last.empty() || last.size() > 64) return req.remote_addr;
  return last;
}

std::optional<std::int64_t> parse_id(const std::string& text) {
  if (text.empty() || text.size() > 15) return std::nullopt;
  std::int64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

std::optional<nlohmann::json> json_body(const httplib::Request& req, httplib::Response& res) {
  auto j = nlohmann::json::parse(req.body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    web::send_error(res, 400, "the body must be a JSON object");
    return std::nullopt;
  }
  return j;
}

std::optional<Submission> visible_submission(CourseContext& ctx, const Caller& caller,
                                             std::int64_t id, httplib::Response& res) {
  auto s = ctx.store.submission(id);
  // Another student's hand-in is "not found": whether it exists is theirs to know.
  if (!s || (!caller.staff() && s->user_id != caller.user.id)) {
    web::send_error(res, 404, "no such hand-in");
    return std::nullopt;
  }
  return s;
}

bool may_see_game(CourseContext& ctx, const Caller& caller, const GameRow& game) {
  if (caller.staff()) return true;
  // A challenge's games are its requester's, whoever's version played in them.
  if (game.requester) return *game.requester == caller.user.id;
  for (const auto& side : {game.white_submission, game.black_submission}) {
    if (!side) continue;
    const auto s = ctx.store.submission(*side);
    if (s && s->user_id == caller.user.id) return true;
  }
  return false;
}

}  // namespace arena::course
