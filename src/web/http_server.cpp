#include "web/http_server.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <sys/socket.h>

#include <array>
#include <atomic>
#include <chrono>
#include <csignal>
#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>
#include <stdexcept>
#include <thread>

namespace arena::web {
namespace {

std::atomic<int> g_stop_signal{0};

std::string status_text(int status) {
  switch (status) {
    case 400:
      return "bad request";
    case 401:
      return "log in first";
    case 403:
      return "not allowed";
    case 404:
      return "not found";
    case 405:
      return "method not allowed";
    case 408:
      return "the request took too long";
    case 413:
      return "the request is too large";
    case 414:
      return "the address is too long";
    case 415:
      return "unsupported media type";
    case 429:
      return "too many requests, try again later";
    case 431:
      return "request headers too large";
    case 503:
      return "busy, try again";
    default:
      return fmt::format("HTTP status {}", status);
  }
}

extern "C" void on_stop_signal(int signo) {
  g_stop_signal.store(signo);
}

}  // namespace

void send_json(httplib::Response& res, const std::string& body, int status) {
  res.status = status;
  res.set_content(body, "application/json");
}

void send_json(httplib::Response& res, const nlohmann::json& body, int status) {
  send_json(res, body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), status);
}

void send_error(httplib::Response& res, int status, const std::string& message) {
  constexpr auto replace = nlohmann::json::error_handler_t::replace;
  send_json(res, nlohmann::json{{"error", message}}.dump(-1, ' ', false, replace), status);
}

bool send_file(httplib::Response& res, const std::filesystem::path& file,
               const std::string& content_type) {
  auto in = std::make_shared<std::ifstream>(file, std::ios::binary);
  std::error_code ec;
  const auto size = std::filesystem::file_size(file, ec);
  if (!*in || ec) return false;
  res.set_content_provider(
      static_cast<std::size_t>(size), content_type,
      [in](std::size_t offset, std::size_t length, httplib::DataSink& sink) {
        std::array<char, 64 * 1024> buffer;
        in->seekg(static_cast<std::streamoff>(offset));
        in->read(buffer.data(), static_cast<std::streamsize>(std::min(length, buffer.size())));
        const auto got = in->gcount();
        // A file cut short meanwhile ends the answer rather than sending made-up bytes.
        return got > 0 && sink.write(buffer.data(), static_cast<std::size_t>(got));
      });
  return true;
}

void configure(httplib::Server& server, const ServerLimits& limits, const std::string& csp) {
  server.set_payload_max_length(limits.max_body_bytes);
  server.set_read_timeout(limits.read_timeout_s, 0);
  server.set_write_timeout(limits.write_timeout_s, 0);
  server.set_keep_alive_max_count(static_cast<std::size_t>(limits.keep_alive_requests));
  server.set_keep_alive_timeout(limits.keep_alive_timeout_s);
  const auto threads = static_cast<std::size_t>(limits.threads);
  server.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  // SO_REUSEADDR alone, not httplib's default SO_REUSEPORT: with that, a second server binds a
  // port already in use (and the connections split between the two) instead of failing to bind.
  server.set_socket_options([](socket_t sock) {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  server.set_default_headers({{"Cache-Control", "no-store"},
                              {"X-Content-Type-Options", "nosniff"},
                              {"X-Frame-Options", "DENY"},
                              {"Referrer-Policy", "same-origin"},
                              {"Content-Security-Policy", csp}});
  // httplib's own errors (404 without a route, 413, 400 ...) and handlers' bare statuses get a
  // body that says what happened; a handler that wrote its own body keeps it.
  server.set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (!res.body.empty()) return;
    send_error(res, res.status, status_text(res.status));
  });
  // httplib matches routes with std::regex, whose stack grows with the path: a long one could
  // overflow a thread's stack. It is refused before routing.
  // Before any body is read: a body's size is known from its Content-Length (a chunked body,
  // whose size is not, is refused, and so is a compressed one, which could unpack to any size),
  // and only the upload route takes a large one.
  server.set_pre_routing_handler([limits](const httplib::Request& req, httplib::Response& res) {
    const auto refuse = [&](int status, const std::string& why) {
      res.set_header("Connection", "close");  // the unread body must not be taken for a request
      send_error(res, status, why);
      return httplib::Server::HandlerResponse::Handled;
    };
    if (req.target.size() > kMaxTarget) return refuse(414, "the address is too long");
    if (req.has_header("Transfer-Encoding"))
      return refuse(411, "send the body with a Content-Length, not in chunks");
    const std::string encoding = req.get_header_value("Content-Encoding");
    if (!encoding.empty() && encoding != "identity")
      return refuse(415, "send the body uncompressed");
    const std::string length = req.get_header_value("Content-Length");
    if (!length.empty() && limits.large_body && !limits.large_body(req.method, req.path)) {
      const bool digits =
          length.size() <= 12 && length.find_first_not_of("0123456789") == std::string::npos;
      if (!digits || std::stoull(length) > limits.small_body_bytes)
        return refuse(413, "the request is too large");
    }
    return httplib::Server::HandlerResponse::Unhandled;
  });
  server.set_exception_handler(
      [](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
        // The reason goes to the server's log, not to the client: it may name the server's files.
        try {
          if (ep) std::rethrow_exception(ep);
        } catch (const std::exception& e) {
          fmt::print(stderr, "internal error: {}\n", e.what());
        } catch (...) {
          fmt::print(stderr, "internal error\n");
        }
        send_error(res, 500, "internal error (the server's log has the reason)");
      });
}

int bind(httplib::Server& server, const std::string& host, int port) {
  if (port < 0 || port > 65535) throw std::runtime_error(fmt::format("bad port {}", port));
  const int bound =
      port == 0 ? server.bind_to_any_port(host) : (server.bind_to_port(host, port) ? port : -1);
  if (bound <= 0)
    throw std::runtime_error(fmt::format(
        "cannot listen on {}:{} (an address of this machine? the port free?)", host, port));
  return bound;
}

void serve(httplib::Server& server, bool handle_signals, std::ostream& log) {
  std::atomic<bool> done{false};
  std::thread watcher;
  if (handle_signals) {
    g_stop_signal.store(0);
    std::signal(SIGINT, on_stop_signal);
    std::signal(SIGTERM, on_stop_signal);
    // A signal handler may only set a flag; this thread turns it into stop().
    watcher = std::thread([&] {
      while (!done.load()) {
        if (const int signo = g_stop_signal.load()) {
          fmt::print(log, "Stopping on signal {}\n", signo);
          log.flush();
          server.stop();
          return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
    });
  }
  server.listen_after_bind();
  done.store(true);
  if (watcher.joinable()) watcher.join();
}

}  // namespace arena::web
