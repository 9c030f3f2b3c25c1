#pragma once
// Who sends a request: a bearer token (`arena submit`, scripts) or a session cookie (the pages).
// A cookie's state-changing request must also carry its session's CSRF token and, where the
// browser says where it comes from, come from this server's own pages.
#include <httplib.h>

#include <optional>
#include <string>

#include "course/store.hpp"

namespace arena::course {

inline constexpr const char* kSessionCookie = "arena_session";
inline constexpr const char* kCsrfHeader = "X-CSRF-Token";
inline constexpr std::size_t kMaxSecret = 200;  // a bearer token longer than this is refused

struct Caller {
  User user;
  bool by_session = false;
  std::string session_hash;  // the session's id, hashed (by_session)
  std::string csrf;          // the session's CSRF token (by_session)
  bool staff() const { return user.role == Role::Staff; }
};

enum class AuthFailure { None, NoCredentials, BadCredentials, Disabled };

struct Authenticated {
  std::optional<Caller> caller;
  AuthFailure failure = AuthFailure::None;
};

Authenticated authenticate(Store& store, const httplib::Request& req);

// The value of one cookie, or "".
std::string cookie_value(const httplib::Request& req, const std::string& name);

// The Origin header when it names a site other than this host ("null" included), or nullopt (no
// Origin sent, or this host's own).
std::optional<std::string> foreign_origin(const httplib::Request& req);

// For a cookie's POST: the CSRF token in the header (or the form field "csrf") matches, and an
// Origin header, where sent, names this host. Gives the reason when not.
std::optional<std::string> csrf_problem(const Caller& caller, const httplib::Request& req);

}  // namespace arena::course
