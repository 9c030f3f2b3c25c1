#include "referee/java_connection.hpp"

#include <fmt/format.h>

namespace arena {
namespace {

using asio::ip::tcp;

// Unread objects kept per peer; a peer that sends more waits (its writes block).
constexpr std::size_t kMaxQueuedObjects = 8;

}  // namespace

JavaConnection::JavaConnection(tcp::socket socket, jser::ReaderLimits limits)
    : socket_(std::move(socket)), reader_(std::move(limits)) {
  asio::error_code ec;
  const auto ep = socket_.remote_endpoint(ec);
  peer_ = ec ? "unknown" : fmt::format("{}:{}", ep.address().to_string(), ep.port());
  socket_.set_option(tcp::no_delay(true), ec);
}

bool JavaConnection::input_ended() const {
  for (const auto& in : inbox_)
    if (in.kind != JavaIncoming::Kind::Object) return true;
  return false;
}

void JavaConnection::start_reading() {
  if (reading_ || input_done_ || closed_ || inbox_.size() >= kMaxQueuedObjects) return;
  reading_ = true;
  socket_.async_read_some(asio::buffer(buffer_),
                          [self = shared_from_this()](const asio::error_code& ec, std::size_t n) {
                            self->reading_ = false;
                            self->on_read(ec, n);
                          });
}

void JavaConnection::on_read(const asio::error_code& ec, std::size_t n) {
  if (closed_) return;
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

void JavaConnection::send(std::string bytes) {
  if (closed_ || bytes.empty()) return;
  outbox_.push_back(std::move(bytes));
  if (!writing_) write_next();
}

void JavaConnection::close_after_flush() {
  closing_ = true;
  if (!writing_) close_now();
}

void JavaConnection::close_now() {
  if (closed_) return;
  closed_ = true;
  asio::error_code ec;
  socket_.shutdown(tcp::socket::shutdown_both, ec);
  socket_.close(ec);
}

void JavaConnection::write_next() {
  if (outbox_.empty() || closed_) {
    writing_ = false;
    if (closing_) close_now();
    return;
  }
  writing_ = true;
  asio::async_write(socket_, asio::buffer(outbox_.front()),
                    [self = shared_from_this()](const asio::error_code& ec, std::size_t) {
                      if (ec) {
                        // The peer is gone: tell the owner as if the read had ended.
                        self->outbox_.clear();
                        self->writing_ = false;
                        const bool owner_closed = self->closed_;
                        self->close_now();
                        if (owner_closed || self->input_done_) return;
                        self->input_done_ = true;
                        self->inbox_.push_back({JavaIncoming::Kind::Closed, {}, ec.message()});
                        if (self->on_input_) self->on_input_();
                        return;
                      }
                      self->outbox_.pop_front();
                      self->write_next();
                    });
}

}  // namespace arena
