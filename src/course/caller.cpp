#include "course/caller.hpp"

#include "course/credentials.hpp"

namespace arena::course {

std::string cookie_value(const httplib::Request& req, const std::string& name) {
  const std::string header = req.get_header_value("Cookie");
  std::size_t pos = 0;
  while (pos < header.size()) {
    std::size_t end = header.find(';', pos);
    if (end == std::string::npos) end = header.size();
    std::string part = header.substr(pos, end - pos);
    while (!part.empty() && part.front() == ' ') part.erase(part.begin());
    if (part.starts_with(name + "=")) return part.substr(name.size() + 1);
    pos = end + 1;
  }
  return {};
}

Authenticated authenticate(Store& store, const httplib::Request& req) {
  Authenticated out;
  const std::string authorization = req.get_header_value("Authorization");
  if (!authorization.empty()) {
    if (!authorization.starts_with("Bearer ") || authorization.size() > 7 + kMaxSecret) {
      out.failure = AuthFailure::BadCredentials;
      return out;
    }
    const auto user = store.user_for_token(sha256_hex(authorization.substr(7)));
    if (!user) {
      out.failure = AuthFailure::BadCredentials;
    } else if (user->disabled) {
      out.failure = AuthFailure::Disabled;
    } else {
      out.caller = Caller{*user, false, {}, {}};
    }
    return out;
  }
  const std::string cookie = cookie_value(req, kSessionCookie);
  if (cookie.empty() || cookie.size() > kMaxSecret) {
    out.failure = AuthFailure::NoCredentials;
    return out;
  }
  const std::string hash = sha256_hex(cookie);
  const auto session = store.session(hash, unix_now());
  if (!session) {
    out.failure = AuthFailure::NoCredentials;  // expired or ended: log in again
  } else if (session->user.disabled) {
    out.failure = AuthFailure::Disabled;
  } else {
    out.caller = Caller{session->user, true, hash, session->csrf};
  }
  return out;
}

std::optional<std::string> foreign_origin(const httplib::Request& req) {
  const std::string origin = req.get_header_value("Origin");
  if (origin.empty()) return std::nullopt;
  const auto scheme_end = origin.find("://");
  if (scheme_end != std::string::npos &&
      origin.substr(scheme_end + 3) == req.get_header_value("Host"))
    return std::nullopt;
  return origin;
}

std::optional<std::string> csrf_problem(const Caller& caller, const httplib::Request& req) {
  if (!caller.by_session) return std::nullopt;  // a bearer token cannot be sent by a browser
  // "null" passes here: a sandboxed frame's request carries no SameSite=Strict cookie anyway.
  if (const auto origin = foreign_origin(req); origin && *origin != "null")
    return "this request comes from another site (" + origin->substr(0, 100) + ")";
  std::string token = req.get_header_value(kCsrfHeader);
  if (token.empty() && req.has_file("csrf")) token = req.get_file_value("csrf").content;
  if (token.empty()) return "the form's CSRF token is missing: reload the page";
  if (!same_secret(token, caller.csrf)) return "the form's CSRF token is wrong: reload the page";
  return std::nullopt;
}

}  // namespace arena::course
