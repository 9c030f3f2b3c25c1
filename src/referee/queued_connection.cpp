#include "referee/queued_connection.hpp"

#include <fmt/format.h>

namespace arena {

using asio::ip::tcp;

QueuedConnection::QueuedConnection(tcp::socket socket) : socket_(std::move(socket)) {
  asio::error_code ec;
  const auto ep = socket_.remote_endpoint(ec);
  peer_ = ec ? "unknown" : fmt::format("{}:{}", ep.address().to_string(), ep.port());
  socket_.set_option(tcp::no_delay(true), ec);
}

void QueuedConnection::send(std::string bytes) {
  if (closed_ || bytes.empty()) return;
  outbox_.push_back(std::move(bytes));
  if (!writing_) write_next();
}

void QueuedConnection::close_after_flush() {
  closing_ = true;
  if (!writing_) close_now();
}

void QueuedConnection::close_now() {
  if (closed_) return;
  closed_ = true;
  asio::error_code ec;
  socket_.shutdown(tcp::socket::shutdown_both, ec);
  socket_.close(ec);
}

void QueuedConnection::write_next() {
  if (outbox_.empty() || closed_) {
    writing_ = false;
    if (closing_) close_now();
    return;
  }
  writing_ = true;
  asio::async_write(socket_, asio::buffer(outbox_.front()),
                    [self = shared_from_this()](const asio::error_code& ec, std::size_t) {
                      if (ec) {
                        self->outbox_.clear();
                        self->writing_ = false;
                        const bool owner_closed = self->closed_;
                        self->close_now();
                        if (!owner_closed) self->on_write_failed(ec);
                        return;
                      }
                      self->outbox_.pop_front();
                      self->write_next();
                    });
}

void LingeringConnections::add(std::shared_ptr<QueuedConnection> c) {
  std::erase_if(connections_, [](const auto& old) { return old->closed(); });
  c->close_after_flush();
  connections_.push_back(std::move(c));
}

void LingeringConnections::close_all(std::chrono::steady_clock::duration grace) {
  for (auto& c : connections_) c->close_after_flush();
  close_by(std::chrono::steady_clock::now() + grace);
}

void LingeringConnections::close_by(std::chrono::steady_clock::time_point deadline) {
  std::erase_if(connections_, [](const auto& c) { return c->closed(); });
  if (connections_.empty()) return;
  if (std::chrono::steady_clock::now() >= deadline) {
    for (auto& c : connections_) c->close_now();
    connections_.clear();
    return;
  }
  timer_.expires_after(std::chrono::milliseconds(10));
  timer_.async_wait([this, deadline](const asio::error_code&) { close_by(deadline); });
}

}  // namespace arena
