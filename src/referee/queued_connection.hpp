#pragma once
// The writing half shared by the servers' connections (asio, single thread): messages go out in
// order, one write at a time, and closing waits until the queue has drained. The reading half,
// which differs per protocol, is the derived class's.
#include <asio.hpp>
#include <chrono>
#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace arena {

class QueuedConnection : public std::enable_shared_from_this<QueuedConnection> {
 public:
  // Takes the accepted socket: no Nagle delay (moves are small and time is measured).
  explicit QueuedConnection(asio::ip::tcp::socket socket);
  virtual ~QueuedConnection() = default;
  QueuedConnection(const QueuedConnection&) = delete;
  QueuedConnection& operator=(const QueuedConnection&) = delete;

  const std::string& peer() const { return peer_; }  // "address:port"
  bool closed() const { return closed_; }

  void send(std::string bytes);
  // Closes once everything queued has been sent (or at once if the peer is gone).
  void close_after_flush();
  void close_now();

 protected:
  asio::ip::tcp::socket socket_;

  // After a write failed and the connection was closed by it (not by its owner).
  virtual void on_write_failed(const asio::error_code&) {}

  template <class Derived>
  std::shared_ptr<Derived> self() {
    return std::static_pointer_cast<Derived>(shared_from_this());
  }

 private:
  std::string peer_;
  std::deque<std::string> outbox_;
  bool writing_ = false, closing_ = false, closed_ = false;

  void write_next();
};

// The connections of finished games and refused ones, kept until they have sent their last
// messages.
class LingeringConnections {
 public:
  explicit LingeringConnections(asio::io_context& io) : timer_(io) {}

  // Closes `c` once its queue has drained, keeping it alive until then.
  void add(std::shared_ptr<QueuedConnection> c);
  // Gives every connection at most `grace` to deliver what it has queued, then cuts the rest.
  void close_all(std::chrono::steady_clock::duration grace);

 private:
  asio::steady_timer timer_;
  std::vector<std::shared_ptr<QueuedConnection>> connections_;

  void close_by(std::chrono::steady_clock::time_point deadline);
};

}  // namespace arena
