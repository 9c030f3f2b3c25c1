#include "view/web_server.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <utility>

#include "view/web_app.hpp"
#include "web/http_server.hpp"

namespace arena::view {
namespace {

HttpRequest to_request(const httplib::Request& req) {
  HttpRequest r{req.method, req.path, {}};
  for (const auto& [key, value] : req.params) r.query[key] = value;  // a repeated key: the last
  return r;
}

// WebApp's answer as httplib sends it; an error as {"error": reason}, like httplib's own errors.
void answer(const HttpResponse& r, httplib::Response& res) {
  if (r.status >= 400) return web::send_error(res, r.status, r.body);
  res.status = r.status;
  res.set_content(r.body, r.content_type);
}

}  // namespace

class WebServer::Impl {
 public:
  Impl(WebServerOptions options, std::ostream& log)
      : options_(std::move(options)), log_(log), app_(options_.root) {
    web::ServerLimits limits;
    limits.read_timeout_s = options_.read_timeout_s;
    // A connection waiting for a request may stay silent no longer than one within a request.
    limits.keep_alive_timeout_s = std::min(limits.keep_alive_timeout_s, options_.read_timeout_s);
    web::configure(server_, limits);
    // GET routes serve HEAD too: httplib sends the headers and the body's length, not the body.
    // Other methods find no route: 404.
    server_.Get(R"(/.*)", [this](const httplib::Request& req, httplib::Response& res) {
      answer(app_.handle(to_request(req)), res);
    });
  }

  std::uint16_t listen() {
    return static_cast<std::uint16_t>(web::bind(server_, options_.host, options_.port));
  }

  void run(bool handle_signals) {
    in_run_ = true;
    if (!stop_requested_) web::serve(server_, handle_signals, log_);
    in_run_ = false;
  }

  void stop() {
    stop_requested_ = true;
    // httplib's stop() does nothing until the server runs: wait for that (or for run() to end).
    while (in_run_ && !server_.is_running())
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    server_.stop();
  }

 private:
  WebServerOptions options_;
  std::ostream& log_;
  WebApp app_;
  httplib::Server server_;
  std::atomic<bool> in_run_{false}, stop_requested_{false};
};

WebServer::WebServer(WebServerOptions options, std::ostream& log)
    : impl_(std::make_unique<Impl>(std::move(options), log)) {}
WebServer::~WebServer() = default;
std::uint16_t WebServer::listen() {
  return impl_->listen();
}
void WebServer::run(bool handle_signals) {
  impl_->run(handle_signals);
}
void WebServer::stop() {
  impl_->stop();
}

}  // namespace arena::view
