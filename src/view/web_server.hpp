#pragma once
// `arena web`'s socket side (asio): accepts connections on one address, reads one bounded
// request head per connection (with a deadline), answers it with WebApp, closes.
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <memory>
#include <string>

namespace arena::view {

struct WebServerOptions {
  std::string host = "127.0.0.1";
  std::uint16_t port = 8080;  // 0: any free port
  std::filesystem::path root = ".";
  int max_connections = 64;        // beyond this, new connections get 503
  int request_timeout_ms = 10000;  // to send a whole request head
};

class WebServer {
 public:
  WebServer(WebServerOptions options, std::ostream& log);
  ~WebServer();
  WebServer(const WebServer&) = delete;
  WebServer& operator=(const WebServer&) = delete;

  // Binds and listens; throws std::runtime_error with the reason. Gives the port.
  std::uint16_t listen();
  // Serves until stop() or, with handle_signals, SIGINT/SIGTERM.
  void run(bool handle_signals = false);
  void stop();  // safe from any thread

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace arena::view
