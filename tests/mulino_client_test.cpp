// The Morris agent against scripted servers on 127.0.0.1 (free ports): it follows the states,
// stops with a clear error when the server breaks the protocol, and ends cleanly when the server
// closes the connection the way the course server did (after a win, without a final state).
#include "referee/mulino_client.hpp"

#include <gtest/gtest.h>

#include <asio.hpp>
#include <functional>
#include <sstream>
#include <thread>

#include "games/morris/state.hpp"
#include "games/registry.hpp"
#include "protocol/java_serial/reader.hpp"
#include "protocol/java_serial/writer.hpp"
#include "protocol/mulino_messages.hpp"
#include "protocol/mulino_position.hpp"

namespace arena {
namespace {

using asio::ip::tcp;

// One connection on a free port, handled by `script` in a thread.
class ScriptedServer {
 public:
  using Script = std::function<void(tcp::socket&)>;
  explicit ScriptedServer(Script script) : acceptor_(io_, {asio::ip::address_v4::loopback(), 0}) {
    port_ = acceptor_.local_endpoint().port();
    thread_ = std::thread([this, script] {
      tcp::socket s(io_);
      asio::error_code ec;
      acceptor_.accept(s, ec);
      if (!ec) script(s);
    });
  }
  ~ScriptedServer() { thread_.join(); }
  std::uint16_t port() const { return port_; }

 private:
  asio::io_context io_;
  tcp::acceptor acceptor_;
  std::uint16_t port_ = 0;
  std::thread thread_;
};

// Reads the client's next action (blocking).
mulino::WireAction read_action(tcp::socket& s, jser::Reader& r) {
  std::array<char, 1024> buf{};
  while (true) {
    if (auto v = r.next()) return mulino::decode_action(r, *v);
    asio::error_code ec;
    const std::size_t n = s.read_some(asio::buffer(buf), ec);
    if (ec) throw std::runtime_error("client went away");
    r.feed(std::string_view(buf.data(), n));
  }
}

void send_state(tcp::socket& s, jser::Writer& w, const morris::State& st) {
  mulino::encode_state(w, mulino::wire_state(st));
  asio::write(s, asio::buffer(w.take()));
}

ClientOutcome play_white(std::uint16_t port) {
  MulinoClientOptions o;
  o.side = Side::White;
  o.white_port = port;
  o.connect_timeout_ms = 2000;
  PlayerSpec spec;
  spec.kind = PlayerKind::Random;
  auto player = find_game("morris")->make_player(spec);
  std::ostringstream log;
  return run_mulino_client(o, *player, log);
}

TEST(MulinoClient, AStateNoMoveLeadsToIsAProtocolError) {
  ScriptedServer server([](tcp::socket& s) {
    jser::Writer w;
    jser::Reader r(mulino::reader_limits());
    morris::State st = morris::State::start();
    send_state(s, w, st);
    const auto a = read_action(s, r);
    st.apply(*st.parse_move(*mulino::move_from_action(a).value).value);
    send_state(s, w, st);
    send_state(s, w, morris::State::start());  // "Black's move" takes White's piece away
    std::array<char, 256> buf{};
    asio::error_code ec;
    while (!ec) s.read_some(asio::buffer(buf), ec);  // until the client leaves
  });
  const ClientOutcome out = play_white(server.port());
  EXPECT_EQ(out.exit_code, 3);
  EXPECT_EQ(
      out.summary,
      "error: the server sent a state that no legal move leads to: no legal move of Black leads "
      "to that position");
}

TEST(MulinoClient, GarbageFromTheServerIsAProtocolError) {
  ScriptedServer server(
      [](tcp::socket& s) { asio::write(s, asio::buffer(std::string("HELLO\n"))); });
  const ClientOutcome out = play_white(server.port());
  EXPECT_EQ(out.exit_code, 3);
  EXPECT_EQ(
      out.summary,
      "error: the server sent an unreadable message: not a Java serialization stream: it starts "
      "48 45 4C 4C, not AC ED 00 05");
}

TEST(MulinoClient, EndsCleanlyWhenTheServerClosesMidGame) {
  // As the course server did after a timeout or an illegal action: it just closes.
  ScriptedServer server([](tcp::socket& s) {
    jser::Writer w;
    send_state(s, w, morris::State::start());
  });
  const ClientOutcome out = play_white(server.port());
  EXPECT_EQ(out.exit_code, 0);
  // 0 or 1 plies: our move may or may not have gone out before the close.
  EXPECT_TRUE(out.summary.starts_with("GAME OVER as White after ")) << out.summary;
  EXPECT_TRUE(out.summary.ends_with(
      "plies: the server closed the connection with the game still going (a timeout or an illegal "
      "action)"))
      << out.summary;
}

}  // namespace
}  // namespace arena
