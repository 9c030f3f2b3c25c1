#pragma once
// SIGINT and SIGTERM as a server's request to stop, handled on its event loop's thread.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <asio.hpp>
#include <csignal>
#include <functional>
#include <ostream>

namespace arena {

class StopSignals {
 public:
  explicit StopSignals(asio::io_context& io) : signals_(io) {}

  // From now on a SIGINT or SIGTERM is said on `out` and calls `on_stop` (once).
  void watch(std::ostream& out, std::function<void()> on_stop) {
    signals_.add(SIGINT);
    signals_.add(SIGTERM);
    signals_.async_wait(
        [&out, on_stop = std::move(on_stop)](const asio::error_code& ec, int signo) {
          if (ec) return;
          fmt::print(out, "\nStopping on signal {}\n", signo);
          on_stop();
        });
  }

  void cancel() {
    asio::error_code ec;
    signals_.cancel(ec);
  }

 private:
  asio::signal_set signals_;
};

}  // namespace arena
