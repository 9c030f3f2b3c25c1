#include "referee/mulino_client.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <array>
#include <asio.hpp>
#include <chrono>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <thread>

#include "core/any_game.hpp"
#include "games/morris/state.hpp"
#include "protocol/java_serial/reader.hpp"
#include "protocol/java_serial/writer.hpp"
#include "protocol/mulino_messages.hpp"
#include "protocol/mulino_position.hpp"

namespace arena {
namespace {

using asio::ip::tcp;
using Clock = std::chrono::steady_clock;

// A protocol violation by the server: the client stops with this message.
struct ServerError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Blocking reads of the server's State objects.
class StateReader {
 public:
  explicit StateReader(tcp::socket& s) : socket_(s), reader_(mulino::reader_limits()) {}
  // The next State, or nullopt when the server closed the connection.
  std::optional<mulino::WireState> next() {
    try {
      while (true) {
        if (auto v = reader_.next()) return mulino::decode_state(reader_, *v);
        asio::error_code ec;
        const std::size_t n = socket_.read_some(asio::buffer(buffer_), ec);
        if (ec == asio::error::eof || ec == asio::error::connection_reset) {
          if (reader_.buffered() > 0)
            throw ServerError(
                fmt::format("the server closed the connection in the middle of a message"));
          return std::nullopt;
        }
        if (ec) throw ServerError("connection lost: " + ec.message());
        reader_.feed(std::string_view(buffer_.data(), n));
      }
    } catch (const jser::StreamError& e) {
      throw ServerError(std::string("the server sent an unreadable message: ") + e.what());
    }
  }

 private:
  tcp::socket& socket_;
  jser::Reader reader_;
  std::array<char, 4096> buffer_{};
};

// Connects, retrying while nobody listens yet (the course server opens the Black port only after
// White is in). Gives the error of the last attempt when the deadline passes.
asio::error_code connect_with_retry(asio::io_context& io, tcp::socket& socket,
                                    const std::string& host, std::uint16_t port, int timeout_ms) {
  const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  tcp::resolver resolver(io);
  while (true) {
    asio::error_code ec;
    const auto endpoints = resolver.resolve(host, std::to_string(port), ec);
    if (!ec) asio::connect(socket, endpoints, ec);
    if (!ec || Clock::now() >= deadline) return ec;
    socket.close();
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

std::string result_summary(const morris::State& s, Side us) {
  const Result r = s.result();
  if (!r.over())
    return fmt::format(
        "GAME OVER as {} after {} plies: the server closed the connection with the game "
        "still going (a timeout or an illegal action)",
        side_name(us), s.ply());
  const std::string_view word = r.outcome == Outcome::Draw ? "DRAW"
                                : r.outcome == win_for(us) ? "VICTORY"
                                                           : "DEFEAT";
  return fmt::format("{} as {} after {} plies ({}: {})", word, side_name(us), s.ply(), r.reason,
                     r.detail);
}

}  // namespace

ClientOutcome run_mulino_client(const MulinoClientOptions& options, Player& player,
                                std::ostream& log) {
  const Side us = options.side;
  const std::uint16_t port = us == Side::White ? options.white_port : options.black_port;
  asio::io_context io;
  tcp::socket socket(io);
  if (const auto ec =
          connect_with_retry(io, socket, options.host, port, options.connect_timeout_ms))
    return {2, fmt::format("error: cannot connect to {}:{}: {}", options.host, port, ec.message())};
  asio::error_code ec;
  socket.set_option(tcp::no_delay(true), ec);

  // False when the server has gone: it closes the connection to end a game, maybe while we send.
  auto send = [&](const std::string& bytes) {
    asio::write(socket, asio::buffer(bytes), ec);
    if (ec == asio::error::connection_reset || ec == asio::error::broken_pipe) return false;
    if (ec) throw ServerError("could not send: " + ec.message());
    return true;
  };
  auto show = [&](std::string_view heading, const mulino::WireState& s) {
    if (options.course_output) fmt::print(log, "{}\n{}\n", heading, mulino::course_text(s));
    log.flush();
  };

  StateAdapter<morris::State> game(morris::State::start());
  auto typed = [&]() -> const morris::State& { return game.typed(); };
  try {
    jser::Writer writer;
    if (!send(writer.take()))  // the stream header, at once: a Java server waits for it
      throw ServerError("the server closed the connection before sending the first state");
    StateReader reader(socket);
    const auto first = reader.next();
    if (!first)
      throw ServerError("the server closed the connection before sending the first state");
    if (*first != mulino::wire_state(typed()))
      throw ServerError("the server's first state is not the start position");
    if (options.course_output)
      fmt::print(log, "You are player {}!\n", us == Side::White ? "W" : "B");
    show("Current state:", *first);
    fmt::print(log, "Playing Nine Men's Morris as {} on {}:{}\n", side_name(us), options.host,
               port);
    log.flush();

    while (true) {
      if (!typed().result().over() && typed().side_to_move() == us) {
        if (options.course_output)
          fmt::print(log, "Player {}, do your move: \n", us == Side::White ? "W" : "B");
        const std::string move = player.choose(game);
        const auto action = mulino::action_from_move(move, mulino::wire_phase(typed()));
        if (!action) throw std::logic_error("the player chose " + move + ": " + action.error);
        mulino::encode_action(writer, *action.value);
        if (!send(writer.take())) break;
        const auto played = game.play(move);
        if (!played) throw std::logic_error("the player chose an illegal move " + move);
        if (!options.course_output)
          fmt::print(log, "{:>4}. {:<5} {}   {}\n", typed().ply(), side_name(us), *played.value,
                     player.last_info());
        const auto effect = reader.next();
        if (!effect) break;
        if (*effect != mulino::wire_state(typed()))
          throw ServerError(
              fmt::format("after our move {} the server sent a different state", move));
        show("Effect of your move: ", *effect);
        continue;
      }
      if (options.course_output && !typed().result().over())
        fmt::print(log, "Waiting for your opponent move... \n");
      log.flush();
      const auto next = reader.next();
      if (!next) break;
      if (typed().result().over())
        throw ServerError("the server sent a state after the game had ended");
      const auto move = typed().move_to(mulino::position_of(*next));
      if (!move)
        throw ServerError("the server sent a state that no legal move leads to: " + move.error);
      const std::string text = typed().move_text(*move.value);
      game.play(text);
      if (*next != mulino::wire_state(typed()))
        throw ServerError(
            fmt::format("the server's state after {} has the wrong counts or phase", text));
      if (!options.course_output)
        fmt::print(log, "{:>4}. {:<5} {} (opponent)\n", typed().ply(), side_name(opposite(us)),
                   text);
      show("Your Opponent did his move, and the result is: ", *next);
    }
    return {0, result_summary(typed(), us)};
  } catch (const ServerError& e) {
    return {3, std::string("error: ") + e.what()};
  }
}

}  // namespace arena
