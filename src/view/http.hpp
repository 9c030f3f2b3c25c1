#pragma once
// The small part of HTTP/1.1 the web viewer speaks, without sockets: parse one request head,
// format one response. Every request comes from outside: sizes are bounded, anything unusual
// is refused with a status and a reason.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace arena::view {

inline constexpr std::size_t kMaxRequestHead = 8192;  // request line + headers
inline constexpr std::size_t kMaxTarget = 2048;

struct HttpRequest {
  std::string method;                        // GET or HEAD
  std::string path;                          // percent-decoded, starts with '/'
  std::map<std::string, std::string> query;  // percent-decoded
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "text/plain; charset=utf-8";
  std::string body;
  bool head_only = false;  // HEAD: headers (with the body's length) and no body
};

// The result of reading a request head.
struct ParsedRequest {
  std::optional<HttpRequest> request;
  int status = 400;  // when there is no request: 400, 405, 414, 431, 505
  std::string error;
};

// Where the request head ends (just after the blank line), or npos if it has not ended yet.
std::size_t find_head_end(std::string_view data);
// Parses a complete request head (up to and including the blank line).
ParsedRequest parse_request(std::string_view head);
// %XX and '+' (in queries) decoded; nullopt for a bad escape or a NUL byte.
std::optional<std::string> percent_decode(std::string_view s, bool plus_is_space);

std::string_view status_text(int status);
HttpResponse error_response(int status, std::string_view message);
HttpResponse json_response(std::string body, int status = 200);
// The bytes on the wire: status line, headers (length, type, no caching, no sniffing, a strict
// content security policy, Connection: close), then the body.
std::string serialize(const HttpResponse& r);

}  // namespace arena::view
