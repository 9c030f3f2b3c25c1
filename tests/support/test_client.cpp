#include "test_client.hpp"

#include <stdexcept>

namespace arena::testing {

using asio::ip::tcp;
using Clock = std::chrono::steady_clock;

TestClient::TestClient(std::uint16_t port) : socket_(io_) {
  asio::error_code ec;
  socket_.connect(tcp::endpoint(asio::ip::address_v4::loopback(), port), ec);
  if (ec) throw std::runtime_error("cannot connect to 127.0.0.1:" + std::to_string(port) + ": " +
                                   ec.message());
  socket_.set_option(tcp::no_delay(true), ec);
  local_port_ = socket_.local_endpoint(ec).port();
}

bool TestClient::send(std::string_view bytes, std::chrono::milliseconds timeout) {
  if (!socket_.is_open()) return false;
  bool done = false;
  asio::error_code error;
  asio::async_write(socket_, asio::buffer(bytes.data(), bytes.size()),
                    [&](const asio::error_code& ec, std::size_t) {
                      error = ec;
                      done = true;
                    });
  io_.restart();
  io_.run_until(Clock::now() + timeout);
  if (!done) {
    // Abandon the rest; the handler must still run before `bytes` goes away.
    asio::error_code ignored;
    socket_.cancel(ignored);
    io_.restart();
    io_.run();
    return false;
  }
  return !error;
}

TestClient::Fill TestClient::fill(Clock::time_point deadline) {
  if (eof_ || reset_ || !socket_.is_open()) return Fill::Closed;
  bool done = false;
  asio::error_code error;
  std::size_t n = 0;
  socket_.async_read_some(asio::buffer(buffer_), [&](const asio::error_code& ec, std::size_t k) {
    error = ec;
    n = k;
    done = true;
  });
  io_.restart();
  io_.run_until(deadline);
  if (!done) {
    asio::error_code ignored;
    socket_.cancel(ignored);
    io_.restart();
    io_.run();  // the handler runs now, with data if it raced the cancel
  }
  received_.append(buffer_.data(), n);
  if (n > 0) return Fill::Data;
  if (error == asio::error::operation_aborted) return Fill::Timeout;
  if (error == asio::error::eof)
    eof_ = true;
  else
    reset_ = true;
  close();  // as a client does when the server is done with it
  return Fill::Closed;
}

std::string TestClient::take_rest(Fill why) {
  std::string out = received_.substr(consumed_);
  consumed_ = received_.size();
  if (why == Fill::Timeout) return out + "<TIMEOUT>";
  if (reset_) return out + "<RESET>";
  return eof_ ? out + "<EOF>" : out;
}

std::string TestClient::read_line(std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  while (true) {
    const auto nl = received_.find('\n', consumed_);
    if (nl != std::string::npos) {
      std::string line = received_.substr(consumed_, nl + 1 - consumed_);
      consumed_ = nl + 1;
      return line;
    }
    const Fill f = fill(deadline);
    if (f != Fill::Data) return take_rest(f);
  }
}

std::string TestClient::read_lines(int n, std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  std::string out;
  for (int i = 0; i < n; ++i) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    std::string line = read_line(std::max(left, std::chrono::milliseconds(0)));
    out += line;
    if (line.empty() || line.back() != '\n') break;
  }
  return out;
}

std::string TestClient::read_to_eof(std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  while (true) {
    const Fill f = fill(deadline);
    if (f == Fill::Data) continue;
    std::string out = take_rest(f);
    // A clean EOF is the expected end: leave it unmarked.
    if (f == Fill::Closed && eof_) out.resize(out.size() - std::string_view("<EOF>").size());
    return out;
  }
}

bool TestClient::silent_for(std::chrono::milliseconds quiet) {
  const std::size_t before = received_.size();
  if (consumed_ < before) return false;
  return fill(Clock::now() + quiet) == Fill::Timeout && received_.size() == before;
}

void TestClient::close() {
  asio::error_code ignored;
  socket_.close(ignored);
}

}  // namespace arena::testing
