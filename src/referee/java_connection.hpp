#pragma once
// One TCP connection that speaks Java object serialization in both directions (asio, single
// thread): incoming bytes are decoded into top-level objects kept in an inbox; outgoing messages
// are written in order (QueuedConnection). A stream that cannot be decoded ends the input with a
// Broken entry.
#include <array>
#include <asio.hpp>
#include <deque>
#include <functional>
#include <memory>
#include <string>

#include "protocol/java_serial/reader.hpp"
#include "referee/queued_connection.hpp"

namespace arena {

struct JavaIncoming {
  enum class Kind { Object, Broken, Closed } kind;
  jser::Value value;  // Object: refers into the connection's reader
  std::string error;  // Broken: why the stream could not be read; Closed: a socket error, if any
};

class JavaConnection final : public QueuedConnection {
 public:
  JavaConnection(asio::ip::tcp::socket socket, jser::ReaderLimits limits);

  // Called after new entries reach the inbox.
  void on_input(std::function<void()> callback) { on_input_ = std::move(callback); }
  const jser::Reader& reader() const { return reader_; }
  std::deque<JavaIncoming>& inbox() { return inbox_; }
  // Whether the input has ended (closed or unreadable) anywhere in the inbox.
  bool input_ended() const;

  // Reads while the inbox has room (TCP flow control holds the peer back otherwise).
  void start_reading();

 private:
  jser::Reader reader_;
  std::function<void()> on_input_;
  std::array<char, 4096> buffer_{};
  std::deque<JavaIncoming> inbox_;
  bool reading_ = false, input_done_ = false;

  void on_read(const asio::error_code& ec, std::size_t n);
  // The peer is gone: the owner hears it as if the read had ended.
  void on_write_failed(const asio::error_code& ec) override;
};

}  // namespace arena
