#pragma once
// What every arena web server shares (`arena web`, `arena course serve`), on cpp-httplib: bounded
// requests and timeouts, the same security headers on every answer, plain error bodies, binding
// with a clear error, and serving until stop() or SIGINT/SIGTERM.
#include <httplib.h>

#include <cstddef>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>

namespace arena::web {

// A request target (path and query) beyond this gets 414.
inline constexpr std::size_t kMaxTarget = 2048;

struct ServerLimits {
  std::size_t max_body_bytes = 64 * 1024;  // a request body beyond this gets 413
  // Which requests may have a body as large as max_body_bytes (an upload); every other request's
  // body may have at most small_body_bytes. Unset: max_body_bytes everywhere.
  std::function<bool(const std::string& method, const std::string& path)> large_body;
  std::size_t small_body_bytes = 16 * 1024;
  int read_timeout_s = 10;        // to send a request (head and body)
  int write_timeout_s = 10;       // to take an answer
  int threads = 8;                // requests answered at once; more wait their turn
  int keep_alive_requests = 100;  // per connection
  int keep_alive_timeout_s = 5;
};

// Limits, headers (no caching, no sniffing, no framing, a strict content security policy unless
// `csp` says otherwise), an error body for every error status, and a 500 for an exception.
void configure(httplib::Server& server, const ServerLimits& limits,
               const std::string& csp =
                   "default-src 'self'; img-src 'self' data:; "
                   "frame-ancestors 'none'; base-uri 'none'");

// Binds HOST:PORT (0: any free port) and gives the port; throws std::runtime_error with why not.
int bind(httplib::Server& server, const std::string& host, int port);

// Serves (after bind) until server.stop() or, with handle_signals, SIGINT/SIGTERM (then says so
// on `log`). Returns when the server has stopped.
void serve(httplib::Server& server, bool handle_signals, std::ostream& log);

// The answers every handler gives: a JSON body, or an error as {"error": message}.
void send_json(httplib::Response& res, const std::string& body, int status = 200);
// Dumped with bytes that are not UTF-8 replaced (a name from a roster, a log), never throwing.
void send_json(httplib::Response& res, const nlohmann::json& body, int status = 200);
void send_error(httplib::Response& res, int status, const std::string& message);
// A file's bytes, read in pieces as they are sent (a large file never sits whole in memory);
// false, answering nothing, when it cannot be opened.
bool send_file(httplib::Response& res, const std::filesystem::path& file,
               const std::string& content_type);

}  // namespace arena::web
