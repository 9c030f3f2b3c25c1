#include "view/http.hpp"

#include <fmt/format.h>

#include "core/text.hpp"

namespace arena::view {
namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

ParsedRequest fail(int status, std::string why) {
  return {std::nullopt, status, std::move(why)};
}

bool is_token_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
         std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

}  // namespace

std::size_t find_head_end(std::string_view data) {
  const auto crlf = data.find("\r\n\r\n");
  if (crlf != std::string_view::npos) return crlf + 4;
  const auto lf = data.find("\n\n");  // tolerated, as most servers do
  return lf == std::string_view::npos ? std::string_view::npos : lf + 2;
}

std::optional<std::string> percent_decode(std::string_view s, bool plus_is_space) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '%') {
      if (i + 2 >= s.size()) return std::nullopt;
      const int hi = hex_value(s[i + 1]), lo = hex_value(s[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      c = static_cast<char>(hi * 16 + lo);
      i += 2;
    } else if (c == '+' && plus_is_space) {
      c = ' ';
    }
    if (c == '\0') return std::nullopt;
    out += c;
  }
  return out;
}

ParsedRequest parse_request(std::string_view head) {
  if (head.size() > kMaxRequestHead) return fail(431, "request head too large");
  const auto line_end = head.find('\n');
  if (line_end == std::string_view::npos) return fail(400, "no request line");
  std::string_view line = head.substr(0, line_end);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  // METHOD SP TARGET SP HTTP/1.x, single spaces.
  const auto sp1 = line.find(' ');
  const auto sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
  if (sp1 == std::string_view::npos || sp2 == std::string_view::npos ||
      line.find(' ', sp2 + 1) != std::string_view::npos)
    return fail(400, "malformed request line");
  const std::string_view method = line.substr(0, sp1);
  const std::string_view target = line.substr(sp1 + 1, sp2 - sp1 - 1);
  const std::string_view version = line.substr(sp2 + 1);
  if (method.empty()) return fail(400, "malformed request line");
  for (char c : method)
    if (!is_token_char(c)) return fail(400, "malformed method");
  if (version != "HTTP/1.1" && version != "HTTP/1.0") return fail(505, "HTTP/1.0 or 1.1 only");
  if (method != "GET" && method != "HEAD") return fail(405, "only GET and HEAD");
  if (target.size() > kMaxTarget) return fail(414, "request target too long");
  if (target.empty() || target.front() != '/') return fail(400, "the target must start with '/'");
  for (char c : target) {
    const auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u >= 0x7f) return fail(400, "bad character in the request target");
  }
  // Header lines must look like headers; their content is not needed.
  std::string_view rest = head.substr(line_end + 1);
  while (!rest.empty()) {
    const auto end = rest.find('\n');
    std::string_view h = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end + 1);
    if (!h.empty() && h.back() == '\r') h.remove_suffix(1);
    if (h.empty()) break;
    const auto colon = h.find(':');
    if (colon == 0 || colon == std::string_view::npos) return fail(400, "malformed header line");
    for (char c : h.substr(0, colon))
      if (!is_token_char(c)) return fail(400, "malformed header name");
  }

  HttpRequest req;
  req.method = std::string(method);
  const auto qmark = target.find('?');
  auto path = percent_decode(target.substr(0, qmark), false);
  if (!path) return fail(400, "bad percent-encoding in the path");
  req.path = std::move(*path);
  if (qmark != std::string_view::npos) {
    std::string_view q = target.substr(qmark + 1);
    while (!q.empty()) {
      const auto amp = q.find('&');
      const std::string_view pair = q.substr(0, amp);
      q = amp == std::string_view::npos ? std::string_view{} : q.substr(amp + 1);
      if (pair.empty()) continue;
      const auto eq = pair.find('=');
      auto key = percent_decode(pair.substr(0, eq), true);
      auto value = percent_decode(
          eq == std::string_view::npos ? std::string_view{} : pair.substr(eq + 1), true);
      if (!key || !value) return fail(400, "bad percent-encoding in the query");
      req.query[std::move(*key)] = std::move(*value);
    }
  }
  return {std::move(req), 200, {}};
}

std::string_view status_text(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 400:
      return "Bad Request";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 408:
      return "Request Timeout";
    case 413:
      return "Content Too Large";
    case 414:
      return "URI Too Long";
    case 422:
      return "Unprocessable Content";
    case 431:
      return "Request Header Fields Too Large";
    case 500:
      return "Internal Server Error";
    case 503:
      return "Service Unavailable";
    case 505:
      return "HTTP Version Not Supported";
    default:
      return "Error";
  }
}

HttpResponse error_response(int status, std::string_view message) {
  HttpResponse r;
  r.status = status;
  r.body = fmt::format("{} {}: {}\n", status, status_text(status), printable(message, 300));
  return r;
}

HttpResponse json_response(std::string body, int status) {
  HttpResponse r;
  r.status = status;
  r.content_type = "application/json";
  r.body = std::move(body);
  return r;
}

std::string serialize(const HttpResponse& r) {
  std::string out = fmt::format(
      "HTTP/1.1 {} {}\r\n"
      "Content-Type: {}\r\n"
      "Content-Length: {}\r\n"
      "Cache-Control: no-store\r\n"
      "X-Content-Type-Options: nosniff\r\n"
      "Content-Security-Policy: default-src 'self'; img-src 'self' data:\r\n"
      "Connection: close\r\n"
      "\r\n",
      r.status, status_text(r.status), r.content_type, r.body.size());
  if (!r.head_only) out += r.body;
  return out;
}

}  // namespace arena::view
