#include "referee/java_connection.hpp"

namespace arena {
namespace {

using asio::ip::tcp;

// Unread objects kept per peer; a peer that sends more waits (its writes block).
constexpr std::size_t kMaxQueuedObjects = 8;

}  // namespace

JavaConnection::JavaConnection(tcp::socket socket, jser::ReaderLimits limits)
    : QueuedConnection(std::move(socket)), reader_(std::move(limits)) {}

bool JavaConnection::input_ended() const {
  for (const auto& in : inbox_)
    if (in.kind != JavaIncoming::Kind::Object) return true;
  return false;
}

void JavaConnection::start_reading() {
  if (reading_ || input_done_ || closed() || inbox_.size() >= kMaxQueuedObjects) return;
  reading_ = true;
  socket_.async_read_some(asio::buffer(buffer_), [self = self<JavaConnection>()](
                                                     const asio::error_code& ec, std::size_t n) {
    self->reading_ = false;
    self->on_read(ec, n);
  });
}

void JavaConnection::on_read(const asio::error_code& ec, std::size_t n) {
  if (closed()) return;
  if (ec) {
    input_done_ = true;
    inbox_.push_back({JavaIncoming::Kind::Closed, {}, ec == asio::error::eof ? "" : ec.message()});
  } else {
    reader_.feed(std::string_view(buffer_.data(), n));
    try {
      while (auto v = reader_.next()) inbox_.push_back({JavaIncoming::Kind::Object, *v, {}});
    } catch (const jser::StreamError& e) {
      input_done_ = true;
      inbox_.push_back({JavaIncoming::Kind::Broken, {}, e.what()});
    }
  }
  start_reading();
  if (on_input_) on_input_();
}

void JavaConnection::on_write_failed(const asio::error_code& ec) {
  if (input_done_) return;
  input_done_ = true;
  inbox_.push_back({JavaIncoming::Kind::Closed, {}, ec.message()});
  if (on_input_) on_input_();
}

}  // namespace arena
