#pragma once
// `arena web`'s server (view::WebServer) on a free port of 127.0.0.1, served from a thread of the
// test and stopped at the end, with an HTTP client for it.
#include <httplib.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <sstream>
#include <string>
#include <thread>

#include "view/web_app.hpp"
#include "view/web_server.hpp"

namespace arena::testing {

class ServedFolder {
 public:
  explicit ServedFolder(const std::filesystem::path& root, int read_timeout_s = 10) {
    view::WebServerOptions o;
    o.port = 0;
    o.root = root;
    o.read_timeout_s = read_timeout_s;
    server_ = std::make_unique<view::WebServer>(o, log_);
    port_ = server_->listen();
    thread_ = std::thread([this] { server_->run(); });
  }
  ~ServedFolder() {
    server_->stop();
    thread_.join();
  }
  ServedFolder(const ServedFolder&) = delete;
  ServedFolder& operator=(const ServedFolder&) = delete;

  std::uint16_t port() const { return port_; }

  // A client that sends targets as written (no encoding of its own), with deadlines.
  httplib::Client client() const {
    httplib::Client c("127.0.0.1", port_);
    c.set_url_encode(false);
    c.set_connection_timeout(5, 0);
    c.set_read_timeout(5, 0);
    c.set_write_timeout(5, 0);
    return c;
  }

  // GET target as the page would send it: status (0 when there was no answer), type and body.
  view::HttpResponse get(const std::string& target) const {
    auto c = client();
    const auto res = c.Get(target);
    if (!res) return {0, "", httplib::to_string(res.error())};
    return {res->status, res->get_header_value("Content-Type"), res->body};
  }

 private:
  std::ostringstream log_;
  std::unique_ptr<view::WebServer> server_;
  std::uint16_t port_ = 0;
  std::thread thread_;
};

}  // namespace arena::testing
