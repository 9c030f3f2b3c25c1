#pragma once
// A server's requests to stop, SIGINT and SIGTERM or stop() from any thread, handled on its event
// loop's thread by one action (the course servers record a game in progress as aborted, so that
// nothing is lost, and shut down).
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <asio.hpp>
#include <csignal>
#include <functional>
#include <ostream>
#include <utility>

namespace arena {

class StopRequests {
 public:
  StopRequests(asio::io_context& io, std::ostream& out, std::function<void()> on_stop)
      : io_(io), out_(out), on_stop_(std::move(on_stop)), signals_(io) {}

  // From now on a SIGINT or SIGTERM is said on the output and stops the server.
  void watch_signals() {
    signals_.add(SIGINT);
    signals_.add(SIGTERM);
    signals_.async_wait([this](const asio::error_code& ec, int signo) {
      if (ec) return;
      fmt::print(out_, "\nStopping on signal {}\n", signo);
      on_stop_();
    });
  }

  // Safe from any thread.
  void request() {
    asio::post(io_, [this] { on_stop_(); });
  }

  // No more signals (the server has shut down); a pending request still runs.
  void cancel() {
    asio::error_code ec;
    signals_.cancel(ec);
  }

 private:
  asio::io_context& io_;
  std::ostream& out_;
  std::function<void()> on_stop_;
  asio::signal_set signals_;
};

}  // namespace arena
