#pragma once
// `arena web`'s socket side: WebApp's answers served over HTTP by cpp-httplib (src/web), with its
// limits, headers and error bodies, on one address until stop() or SIGINT/SIGTERM.
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
  // How long a connection may stay silent within a request; before one, 5 s or this if shorter.
  int read_timeout_s = 10;
};

class WebServer {
 public:
  // Throws std::runtime_error when the root is not a readable folder.
  WebServer(WebServerOptions options, std::ostream& log);
  ~WebServer();
  WebServer(const WebServer&) = delete;
  WebServer& operator=(const WebServer&) = delete;

  // Binds and listens; throws std::runtime_error with the reason. Gives the port.
  std::uint16_t listen();
  // Serves until stop() or, with handle_signals, SIGINT/SIGTERM.
  void run(bool handle_signals = false);
  void stop();  // safe from any thread, also before run()

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace arena::view
