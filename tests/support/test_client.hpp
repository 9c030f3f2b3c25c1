#pragma once
// A raw TCP client for driving the course server byte by byte in tests. Every read has a
// deadline, so a server that goes quiet fails the test instead of hanging it.
#include <array>
#include <asio.hpp>
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

namespace arena::testing {

inline constexpr std::chrono::milliseconds kReadTimeout{3000};

class TestClient {
 public:
  // Connects to 127.0.0.1:port; throws std::runtime_error when it cannot.
  explicit TestClient(std::uint16_t port);
  TestClient(const TestClient&) = delete;
  TestClient& operator=(const TestClient&) = delete;

  // Writes every byte (or stops at the deadline or on an error); false if not all were sent.
  bool send(std::string_view bytes, std::chrono::milliseconds timeout = kReadTimeout);

  // The next line with its "\n". On trouble the text read so far followed by "<EOF>", "<RESET>"
  // or "<TIMEOUT>", which makes a failed EXPECT_EQ say what happened.
  std::string read_line(std::chrono::milliseconds timeout = kReadTimeout);
  std::string read_lines(int n, std::chrono::milliseconds timeout = kReadTimeout);
  // Everything until the server closes the connection, plus a marker as above unless the
  // connection ended with a clean EOF.
  std::string read_to_eof(std::chrono::milliseconds timeout = kReadTimeout);
  // True when nothing arrives for `quiet` (the connection stays open and silent).
  bool silent_for(std::chrono::milliseconds quiet);

  // Every byte received so far, in order.
  const std::string& received() const { return received_; }
  bool eof() const { return eof_; }
  bool reset() const { return reset_; }
  std::uint16_t local_port() const { return local_port_; }

  void close();

 private:
  enum class Fill { Data, Closed, Timeout };

  asio::io_context io_;
  asio::ip::tcp::socket socket_;
  std::array<char, 65536> buffer_{};
  std::string received_;
  std::size_t consumed_ = 0;  // bytes of received_ already handed out by read_*
  bool eof_ = false, reset_ = false;
  std::uint16_t local_port_ = 0;

  Fill fill(std::chrono::steady_clock::time_point deadline);
  std::string take_rest(Fill why);
};

}  // namespace arena::testing
