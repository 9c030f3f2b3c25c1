#include "view/web_server.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <array>
#include <asio.hpp>
#include <csignal>
#include <ostream>
#include <stdexcept>

#include "view/web_app.hpp"

namespace arena::view {
namespace {

using asio::ip::tcp;

// One connection: read a request head (bounded, with a deadline), write the answer, close.
class HttpConnection : public std::enable_shared_from_this<HttpConnection> {
 public:
  HttpConnection(tcp::socket socket, WebApp& app, int timeout_ms, int& open_count)
      : socket_(std::move(socket)),
        timer_(socket_.get_executor()),
        app_(app),
        timeout_ms_(timeout_ms),
        open_count_(open_count) {
    ++open_count_;
  }
  ~HttpConnection() { --open_count_; }

  void start() {
    timer_.expires_after(std::chrono::milliseconds(timeout_ms_));
    timer_.async_wait([self = shared_from_this()](const asio::error_code& ec) {
      if (!ec) self->respond(error_response(408, "the request took too long"));
    });
    read_more();
  }

  // Answers without reading (too many connections).
  void refuse(HttpResponse r) { respond(std::move(r)); }

 private:
  tcp::socket socket_;
  asio::steady_timer timer_;
  WebApp& app_;
  int timeout_ms_;
  int& open_count_;
  std::array<char, 2048> buffer_{};
  std::string head_;
  bool responded_ = false;
  std::string out_;

  void read_more() {
    socket_.async_read_some(asio::buffer(buffer_),
                            [self = shared_from_this()](const asio::error_code& ec, std::size_t n) {
                              self->on_read(ec, n);
                            });
  }

  void on_read(const asio::error_code& ec, std::size_t n) {
    if (responded_) return;
    if (ec) return close();  // the client left before finishing its request
    head_.append(buffer_.data(), n);
    const auto end = find_head_end(head_);
    if (end == std::string::npos) {
      if (head_.size() > kMaxRequestHead)
        return respond(error_response(431, "request head too large"));
      return read_more();
    }
    head_.resize(end);  // a body (none expected) is ignored: the connection closes after one answer
    respond(app_.handle_head(head_));
  }

  void respond(HttpResponse r) {
    if (responded_) return;
    responded_ = true;
    timer_.cancel();
    out_ = serialize(r);
    asio::async_write(socket_, asio::buffer(out_),
                      [self = shared_from_this()](const asio::error_code& ec, std::size_t) {
                        if (ec) return self->close();
                        // Lingering close: what the client still sends is read and dropped until
                        // it closes, so the answer is not lost to a reset (e.g. after a 431).
                        asio::error_code ignored;
                        self->socket_.shutdown(tcp::socket::shutdown_send, ignored);
                        self->drain();
                      });
    // A client that never reads its answer, or never stops sending, is cut at the deadline.
    timer_.expires_after(std::chrono::milliseconds(timeout_ms_));
    timer_.async_wait([self = shared_from_this()](const asio::error_code& ec) {
      if (!ec) self->close();
    });
  }

  void drain() {
    socket_.async_read_some(asio::buffer(buffer_),
                            [self = shared_from_this()](const asio::error_code& ec, std::size_t) {
                              if (ec) return self->close();
                              self->drain();
                            });
  }

  void close() {
    asio::error_code ignored;
    timer_.cancel();
    socket_.shutdown(tcp::socket::shutdown_both, ignored);
    socket_.close(ignored);
  }
};

}  // namespace

class WebServer::Impl {
 public:
  Impl(WebServerOptions options, std::ostream& log)
      : options_(std::move(options)),
        log_(log),
        app_(options_.root),
        acceptor_(io_),
        signals_(io_) {}

  std::uint16_t listen() {
    asio::error_code ec;
    const auto address = asio::ip::make_address(options_.host, ec);
    if (ec) throw std::runtime_error(fmt::format("'{}' is not an IP address", options_.host));
    const tcp::endpoint endpoint(address, options_.port);
    acceptor_.open(endpoint.protocol(), ec);
    if (!ec) acceptor_.set_option(tcp::acceptor::reuse_address(true), ec);
    if (!ec) acceptor_.bind(endpoint, ec);
    if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
    if (ec)
      throw std::runtime_error(
          fmt::format("cannot listen on {}:{}: {}", options_.host, options_.port, ec.message()));
    return acceptor_.local_endpoint().port();
  }

  void run(bool handle_signals) {
    accept_next();
    if (handle_signals) {
      signals_.add(SIGINT);
      signals_.add(SIGTERM);
      signals_.async_wait([this](const asio::error_code& ec, int signo) {
        if (ec) return;
        fmt::print(log_, "Stopping on signal {}\n", signo);
        log_.flush();
        shutdown();
      });
    }
    io_.run();
  }

  void stop() {
    asio::post(io_, [this] { shutdown(); });
  }

 private:
  WebServerOptions options_;
  std::ostream& log_;
  WebApp app_;
  int open_ = 0;  // connections alive; outlives io_, whose pending handlers hold connections
  asio::io_context io_;
  tcp::acceptor acceptor_;
  asio::signal_set signals_;

  void accept_next() {
    acceptor_.async_accept([this](const asio::error_code& ec, tcp::socket socket) {
      if (ec) {
        if (ec != asio::error::operation_aborted && acceptor_.is_open()) accept_next();
        return;
      }
      auto c = std::make_shared<HttpConnection>(std::move(socket), app_,
                                                options_.request_timeout_ms, open_);
      if (open_ > options_.max_connections)
        c->refuse(error_response(503, "too many connections, try again"));
      else
        c->start();
      accept_next();
    });
  }

  void shutdown() {
    asio::error_code ec;
    acceptor_.close(ec);
    signals_.cancel(ec);
    io_.stop();
  }
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
