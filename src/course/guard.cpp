#include <regex>

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

// "2026-12-01T23:59", with seconds and a Z or not, as UTC; "" clears. nullopt: not a time.
std::optional<std::string> parse_utc_time(const std::string& text) {
  if (text.empty()) return std::string();
  static const std::regex form(R"((\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(:\d{2})?Z?)");
  std::smatch m;
  if (!std::regex_match(text, m, form)) return std::nullopt;
  const auto number = [&](int group, std::size_t from, std::size_t length) {
    return std::stoi(m[group].str().substr(from, length));
  };
  const int month = number(1, 5, 2), day = number(1, 8, 2), hour = number(2, 0, 2),
            minute = number(2, 3, 2), second = m[3].matched ? number(3, 1, 2) : 0;
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59)
    return std::nullopt;
  return m[1].str() + "T" + m[2].str() + (m[3].matched ? m[3].str() : ":00") + "Z";
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
