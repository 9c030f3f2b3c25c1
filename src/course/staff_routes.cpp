// Staff: the roster (add, reset a password, disable), the deadline, re-checking and excluding a
// hand-in, and the event log of who did what.
#include <fmt/format.h>

#include "course/course_dir.hpp"
#include "course/credentials.hpp"
#include "course/json_views.hpp"
#include "course/routes.hpp"
#include "web/http_server.hpp"

namespace arena::course {
namespace {

nlohmann::json user_json(const User& u) {
  return {{"login", u.login},
          {"name", u.name},
          {"role", role_name(u.role)},
          {"disabled", u.disabled},
          {"has_password", !u.password_hash.empty()},
          {"must_change_password", u.must_change_password},
          {"extra", u.extra}};
}

std::optional<User> roster_user(CourseContext& ctx, const std::string& login,
                                httplib::Response& res) {
  auto u = ctx.store.user(normalize_login(login));
  if (!u) web::send_error(res, 404, "no such login on the roster");
  return u;
}

}  // namespace

void add_staff_routes(httplib::Server& server, CourseContext& ctx) {
  server.Get("/api/roster",
             guard(ctx, Access::Staff, [&ctx](const auto&, auto& res, const Caller&) {
               nlohmann::json users = nlohmann::json::array();
               for (const User& u : ctx.store.users()) users.push_back(user_json(u));
               web::send_json(res, nlohmann::json{{"users", users}});
             }));

  server.Post("/api/roster",
              guard(ctx, Access::Staff, [&ctx](const auto& req, auto& res, const Caller& caller) {
                const auto body = json_body(req, res);
                if (!body) return;
                const std::string login = normalize_login(body->value("login", ""));
                const std::string name = body->value("name", login);
                const auto role = parse_role(body->value("role", "student"));
                if (!is_valid_login(login))
                  return web::send_error(res, 400, "a login has 1-64 of a-z, 0-9, '.', '_', '-'");
                if (!role) return web::send_error(res, 400, "the role is student or staff");
                if (name.size() > 200) return web::send_error(res, 400, "the name is too long");
                if (ctx.store.user(login))
                  return web::send_error(res, 409, "that login is on the roster already");
                ctx.store.add_user(login, name.empty() ? login : name, *role,
                                   nlohmann::json::object());
                ctx.store.log_event(caller.user.login, "roster-add",
                                    fmt::format("{} ({})", login, role_name(*role)));
                web::send_json(res, nlohmann::json{{"login", login}}, 201);
              }));

  // A new one-time password, shown once to the staff member who asked.
  server.Post(R"(/api/roster/([^/]+)/password)",
              guard(ctx, Access::Staff, [&ctx](const auto& req, auto& res, const Caller& caller) {
                const auto u = roster_user(ctx, req.matches[1], res);
                if (!u) return;
                const std::string password = random_password();
                ctx.store.set_password(u->id, hash_password(password), true);
                ctx.store.log_event(caller.user.login, "password-reset", u->login);
                web::send_json(res, nlohmann::json{{"login", u->login}, {"password", password}});
              }));

  server.Post(R"(/api/roster/([^/]+)/disabled)",
              guard(ctx, Access::Staff, [&ctx](const auto& req, auto& res, const Caller& caller) {
                const auto u = roster_user(ctx, req.matches[1], res);
                if (!u) return;
                const auto body = json_body(req, res);
                if (!body) return;
                const bool disabled = body->value("disabled", true);
                if (u->id == caller.user.id && disabled)
                  return web::send_error(res, 400, "you cannot disable yourself");
                ctx.store.set_disabled(u->id, disabled);
                ctx.store.log_event(caller.user.login, disabled ? "disable" : "enable", u->login);
                web::send_json(res, nlohmann::json{{"login", u->login}, {"disabled", disabled}});
              }));

  server.Post("/api/deadline",
              guard(ctx, Access::Staff, [&ctx](const auto& req, auto& res, const Caller& caller) {
                const auto body = json_body(req, res);
                if (!body) return;
                const auto deadline = parse_utc_time(body->value("deadline", ""));
                if (!deadline)
                  return web::send_error(
                      res, 400, "give the deadline as YYYY-MM-DDTHH:MM (UTC), or \"\" for none");
                ctx.store.set_setting("deadline", *deadline);
                ctx.store.log_event(caller.user.login, "deadline",
                                    deadline->empty() ? "none" : *deadline);
                web::send_json(res, nlohmann::json{{"deadline", *deadline}});
              }));

  server.Post(R"(/api/submissions/([^/]+)/recheck)",
              guard(ctx, Access::Staff, [&ctx](const auto& req, auto& res, const Caller& caller) {
                const auto id = parse_id(req.matches[1]);
                const auto s = id ? ctx.store.submission(*id) : std::nullopt;
                if (!s) return web::send_error(res, 404, "no such hand-in");
                // A re-check rebuilds it from nothing: not while the final plays its build.
                const FinalState final_state = ctx.final_tournament.state();
                if (final_state.state == "running")
                  for (const FinalEntrant& e : final_state.entrants)
                    if (e.submission == s->id)
                      return web::send_error(res, 409,
                                             "it plays in the final tournament, which is running");
                if (!ctx.store.requeue(s->id))
                  return web::send_error(res, 409, "it is being checked already");
                ctx.store.log_event(caller.user.login, "recheck",
                                    fmt::format("#{} of {}", s->id, s->login));
                ctx.checker.wake();
                web::send_json(res, nlohmann::json{{"id", s->id}, {"state", "queued"}});
              }));

  server.Post(R"(/api/submissions/([^/]+)/excluded)",
              guard(ctx, Access::Staff, [&ctx](const auto& req, auto& res, const Caller& caller) {
                const auto id = parse_id(req.matches[1]);
                const auto s = id ? ctx.store.submission(*id) : std::nullopt;
                if (!s) return web::send_error(res, 404, "no such hand-in");
                const auto body = json_body(req, res);
                if (!body) return;
                const bool excluded = body->value("excluded", true);
                ctx.store.set_excluded(s->id, excluded);
                ctx.store.log_event(caller.user.login, excluded ? "exclude" : "include",
                                    fmt::format("#{} of {}", s->id, s->login));
                web::send_json(res, nlohmann::json{{"id", s->id}, {"excluded", excluded}});
              }));

  server.Get("/api/events",
             guard(ctx, Access::Staff, [&ctx](const auto&, auto& res, const Caller&) {
               nlohmann::json events = nlohmann::json::array();
               for (const Event& e : ctx.store.events(500))
                 events.push_back({{"id", e.id},
                                   {"at", e.at},
                                   {"actor", e.actor},
                                   {"action", e.action},
                                   {"detail", e.detail}});
               web::send_json(res, nlohmann::json{{"events", events}});
             }));
}

}  // namespace arena::course
