// Logging in and out, the caller's own account, and choosing a password.
#include <fmt/format.h>

#include <chrono>

#include "course/course_dir.hpp"
#include "course/credentials.hpp"
#include "course/routes.hpp"
#include "web/http_server.hpp"

namespace arena::course {
namespace {

nlohmann::json me_json(CourseContext& ctx, const User& u, const std::string& csrf) {
  return {{"login", u.login},
          {"name", u.name},
          {"role", role_name(u.role)},
          {"csrf", csrf},
          {"must_change_password", u.must_change_password},
          {"game", ctx.game},
          {"title", ctx.store.setting("title").value_or("")},
          {"deadline", ctx.store.setting("deadline").value_or("")}};
}

std::string session_cookie(const CourseContext& ctx, const std::string& value, int max_age_s) {
  return fmt::format("{}={}; Path=/; Max-Age={}; HttpOnly; SameSite=Strict{}", kSessionCookie,
                     value, max_age_s, ctx.limits.secure_cookies ? "; Secure" : "");
}

// The login form's fields (a JSON object), or empty ones.
std::pair<std::string, std::string> credentials_of(const httplib::Request& req) {
  const auto j = nlohmann::json::parse(req.body, nullptr, false);
  if (j.is_object() && j.value("login", nlohmann::json()).is_string() &&
      j.value("password", nlohmann::json()).is_string())
    return {j["login"].get<std::string>(), j["password"].get<std::string>()};
  return {};
}

// A new session with a new random id (its cookie set on `res`); gives its CSRF token.
std::string start_session(CourseContext& ctx, std::int64_t user_id, httplib::Response& res) {
  const std::string id = random_secret(32), csrf = random_secret(24);
  const int max_age = ctx.limits.session_hours * 3600;
  const auto now = std::chrono::duration_cast<std::chrono::seconds>(
                       std::chrono::system_clock::now().time_since_epoch())
                       .count();
  ctx.store.add_session(user_id, sha256_hex(id), csrf, now + max_age);
  res.set_header("Set-Cookie", session_cookie(ctx, id, max_age));
  return csrf;
}

// A try that LoginLimiter::begin let through, finished however the handler ends (an exception
// counts as a failure).
struct Attempt {
  LoginLimiter& limiter;
  std::string login, address;
  bool succeeded = false;
  ~Attempt() { limiter.finish(login, address, succeeded); }
};

const std::string& dummy_hash() {
  static const std::string hash = hash_password(random_secret(16));
  return hash;
}

}  // namespace

void add_session_routes(httplib::Server& server, CourseContext& ctx) {
  server.Post("/api/login", [&ctx](const httplib::Request& req, httplib::Response& res) {
    // A login comes from this server's own page: JSON (which a form on another site cannot
    // send), and from this origin where the browser names one ("null" from a sandboxed frame).
    if (foreign_origin(req))
      return web::send_error(res, 403, "this login form comes from another site");
    if (req.get_header_value("Content-Type").rfind("application/json", 0) != 0)
      return web::send_error(res, 415,
                             "send the login as JSON: {\"login\": ..., \"password\": ...}");
    const auto [typed_login, password] = credentials_of(req);
    const std::string login = normalize_login(typed_login);
    if (login.empty() || login.size() > 64 || password.size() > kMaxPasswordLength)
      return web::send_error(res, 400, "give a login and a password");
    const std::string address = client_address(ctx, req);
    const auto wait = ctx.limiter.begin(login, address);
    if (wait.count() > 0) {
      res.set_header("Retry-After", std::to_string(wait.count()));
      return web::send_error(
          res, 429, fmt::format("too many failed logins: try again in {} s", wait.count()));
    }
    Attempt attempt{ctx.limiter, login, address};
    const auto user = ctx.store.user(login);
    // The same answer whether the login exists or not, after the same work.
    const bool ok = user && !user->disabled && !user->password_hash.empty()
                        ? password_matches(password, user->password_hash)
                        : (password_matches(password, dummy_hash()), false);
    attempt.succeeded = ok;
    if (!ok) {
      ctx.store.log_event(login, "login-failed", address);
      return web::send_error(res, 401, "wrong login or password");
    }
    // A new session id at every login: a cookie planted before (session fixation) is never used.
    const std::string old = cookie_value(req, kSessionCookie);
    if (!old.empty() && old.size() < 200) ctx.store.end_session(sha256_hex(old));
    const std::string csrf = start_session(ctx, user->id, res);
    ctx.store.log_event(login, "login", address);
    web::send_json(res, me_json(ctx, *user, csrf));
  });

  server.Post("/api/logout",
              guard(ctx, Access::Account, [&ctx](const auto&, auto& res, const Caller& caller) {
                if (caller.by_session) ctx.store.end_session(caller.session_hash);
                res.set_header("Set-Cookie", session_cookie(ctx, "", 0));
                web::send_json(res, std::string(R"({"ok":true})"));
              }));

  server.Get("/api/me",
             guard(ctx, Access::Account, [&ctx](const auto&, auto& res, const Caller& caller) {
               web::send_json(res, me_json(ctx, caller.user, caller.csrf));
             }));

  server.Post(
      "/api/password",
      guard(ctx, Access::Account, [&ctx](const auto& req, auto& res, const Caller& caller) {
        const auto body = json_body(req, res);
        if (!body) return;
        const std::string old_password = body->value("old", "");
        const std::string new_password = body->value("new", "");
        const std::string address = client_address(ctx, req);
        const auto wait = ctx.limiter.begin(caller.user.login, address);
        if (wait.count() > 0)
          return web::send_error(
              res, 429, fmt::format("too many wrong passwords: try again in {} s", wait.count()));
        Attempt attempt{ctx.limiter, caller.user.login, address};
        attempt.succeeded = password_matches(old_password, caller.user.password_hash);
        if (!attempt.succeeded) return web::send_error(res, 403, "the current password is wrong");
        if (new_password.size() < kMinPasswordLength || new_password.size() > kMaxPasswordLength)
          return web::send_error(res, 400,
                                 fmt::format("a password has {} to {} characters",
                                             kMinPasswordLength, kMaxPasswordLength));
        if (new_password == old_password)
          return web::send_error(res, 400, "choose a password other than the one-time one");
        ctx.store.set_password(caller.user.id, hash_password(new_password), false);
        ctx.store.log_event(caller.user.login, "password", "chose a new password");
        // Every session ended with the change; this one goes on as a new one.
        const std::string csrf = start_session(ctx, caller.user.id, res);
        User u = caller.user;
        u.must_change_password = false;
        web::send_json(res, me_json(ctx, u, csrf));
      }));
}

}  // namespace arena::course
